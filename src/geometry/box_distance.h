// Exact distance of two separated boxes (closest features), used by the box
// character's exact sweep against the world's boxes (box_box_sweep,
// box_sweeps.h), where Bullet runs GJK at every step of its cast. Tested
// against a brute-force search (tests/geometry/box_sweeps_test.cpp).
#pragma once

#include <limits>

#include "geometry/bullet_shapes.h"
#include "geometry/contact.h"

namespace stepslide {

/// Box `a` (core half extents `ha`, rounded by `ra`) against box `b` (`hb`,
/// `rb`) with separated cores: the closest points of two convex polyhedra
/// are realised by a vertex of one against the other solid or by an edge
/// against an edge, so the 16 vertices and the 144 edge pairs (those whose
/// bounds can still beat the best found) give the exact distance. Where
/// several features tie (a face resting flush on a face) the first vertex of
/// `a` found wins, whose normal is `b`'s face's. Cores closer than
/// `touching` count as touching (their closest points are rounding).
/// The cores must not overlap (box_box_overlap decides): a thin box passing
/// through another's faces, no vertex or edge of either touching the other,
/// would read as separated.
///
/// ExactContact (geometry/contact.h): `distance` of the rounded boxes (cores
/// grown by their radii), negative where the roundings overlap, the cores
/// still apart; `point` on `b`'s rounded surface. Not answered where the
/// cores touch or overlap (box_box_overlap answers those). `beyond` where
/// the cores' bounds alone prove them farther apart than `cutoff`,
/// `distance` that lower bound.
ExactContact box_box_distance(const btTransform& a, const btVector3& ha, double ra, const btTransform& b,
                              const btVector3& hb, double rb, double cutoff = std::numeric_limits<double>::infinity(),
                              double touching = 1e-9);

/// The middle of where the separated cores of `a` and `b` face each other
/// at their distance `d` (box_box_distance's answer, not beyond), carried
/// onto `b`'s rounded surface. Where the closest points are unique (a
/// vertex of either box is nearest) that is `d.point`; where they are not
/// (a face over a face, an edge along a face or edge) it is the average of
/// the patch's corners: `a`'s vertices over `b`'s nearest face, `b`'s under
/// `a`'s, and their nearest edges' crossings. `d.point` is the first vertex
/// found, which a rounding error can move across the whole face; this
/// point moves with the boxes, as a moving body's push at the contact must.
btVector3 box_box_patch_middle(const btTransform& a, const btVector3& ha, const btTransform& b, const btVector3& hb,
                               double rb, const ExactContact& d);

}  // namespace stepslide
