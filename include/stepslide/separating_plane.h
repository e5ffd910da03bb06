// A verified contact between two convex shapes from their support functions:
// a plane that separates them (or, overlapping, the shortest way out found),
// with a distance that is never more than the true signed distance. Used
// where Bullet's EPA depth cannot be trusted (cylinders, issue #15).
#pragma once

#include <btBulletCollisionCommon.h>

namespace stepslide {

/// A plane between two convex shapes: `normal` points from the body toward
/// the character; `distance` is how far apart the two shapes' extents along
/// it are (negative: they overlap by that much along it). Moving the
/// character by -distance·normal (when negative) clears it of the body.
struct SeparatingPlane {
  btVector3 normal{0, 1, 0};
  double distance = 0.0;
  int evaluations = 0;  ///< directions measured to find it (its cost; bounded by the tests)
};

/// How far apart `character` at `a` and `body` at `b` are along unit
/// `normal` (from the body toward the character): the smallest extent of the
/// character along it minus the largest of the body. Each shape is its core
/// grown by its margin, as Bullet's GJK sees it. For every normal this is at
/// most the true signed distance (negative of the penetration depth).
double separation_along(const btConvexShape* character, const btTransform& a, const btConvexShape* body,
                        const btTransform& b, const btVector3& normal);

/// The plane along which the two shapes are farthest apart, searched from
/// `start` (Bullet's normal) and a few candidates (each shape's axes, their
/// cross products, the line between the centres), the best refined by a
/// deterministic pattern search on the sphere of directions. Its distance is
/// a lower bound on the signed distance (it is a separation along a
/// direction), within 2e-12 m of a brute-force search on the 3 000 random
/// cylinder/cylinder and cylinder/box pairs the tests draw, from any start.
///
/// `start` is a unit vector; `bullet_distance` is Bullet's distance along
/// it, never below the true signed distance: when the separation along
/// `start` is within kAgree of it, the true distance lies between the two
/// and `start` is returned with its separation, without a search (the
/// common case, one evaluation). Pass +infinity to always search. 1e-8 m,
/// the tests' tolerance: at 1e-9 a convex hull disc's EPA depths 1.5e-9 m
/// off each cost a full search (cylinder_snapped_beside_spinning_disc).
///
/// Cores apart (the solids apart or overlapping by less than their
/// margins): GJK on the cores to a 1e-12 m gap (~20 evaluations). Else
/// pattern searches, coarse from five starts, finished from the distinct
/// ones, each stopping once within kAgree of `bullet_distance`.
/// SeparatingPlane::evaluations says how many directions it took.
constexpr double kAgree = 1e-8;
SeparatingPlane best_separating_plane(const btConvexShape* character, const btTransform& a, const btConvexShape* body,
                                      const btTransform& b, const btVector3& start, double bullet_distance);

}  // namespace stepslide
