// The sequential-impulse contact solver (as Box2D's and Jolt's): for every
// contact point a normal row (no pull, restitution, speculative approach,
// Baumgarte push-out) and two friction rows clamped together to the
// friction cone, warm started from the previous step's impulses, solved
// body pair by body pair in a fixed order for a fixed number of iterations.
#pragma once

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btVector3.h>

#include <cstdint>
#include <vector>

namespace stepslide::dynamics {

/// What the solver changes and reads of a body. A body that does not move
/// (static or kinematic) is not a SolverBody: its side of a contact is
/// index -1, at rest and of infinite mass.
struct SolverBody {
  btVector3 linear{0, 0, 0};   ///< velocity of the centre of mass, m/s
  btVector3 angular{0, 0, 0};  ///< rad/s, world frame
  btVector3 centre{0, 0, 0};   ///< centre of mass, world
  double inverse_mass = 0.0;
  btMatrix3x3 inverse_inertia = btMatrix3x3(0, 0, 0, 0, 0, 0, 0, 0, 0);  ///< world frame
};

/// One point of a manifold: where (world, and in body a's frame: what finds
/// the same point in the next step for warm starting), how far apart the
/// bodies are along the manifold's normal there (negative: overlapping),
/// the features that made it, and the impulses (N·s) it carries: given as
/// the warm start, returned as solved.
struct ContactPoint {
  btVector3 point{0, 0, 0};
  btVector3 local{0, 0, 0};
  double separation = 0.0;
  std::uint64_t feature = 0;
  double normal_impulse = 0.0;
  double tangent_impulse[2] = {0.0, 0.0};
};

/// The contact points of body `a` against body `b` (-1: a body that does
/// not move), with one `normal` from b toward a (unit, world) and the
/// products of the two bodies' friction and restitution.
struct Manifold {
  int a = -1;
  int b = -1;
  btVector3 normal{0, 1, 0};
  double friction = 0.0;
  double restitution = 0.0;
  /// The island the manifold's bodies belong to (a small non-negative key,
  /// the same for every manifold of one island: its root body's index), and
  /// the mass (kg) of the island's moving
  /// bodies: what bounds the impulse any of its points may carry (0: no bound).
  int island = 0;
  double island_mass = 0.0;
  int count = 0;
  ContactPoint points[4];
};

struct SolverSettings {
  /// Velocity iterations per step, each over every manifold in order.
  int iterations = 40;
  /// The fraction of an overlap pushed out per step (Baumgarte).
  double baumgarte = 0.2;
  /// The fastest (m/s) an overlap is pushed out: a body driven deep into
  /// another (by a kinematic body, or a fast fall) comes out at this speed,
  /// not at the Baumgarte fraction of its whole depth each step.
  double max_push_out_speed = 3.0;
  /// Slower approaches than this (m/s) do not bounce: resting contacts.
  double restitution_threshold = 0.2;
  /// The speed (m/s) gravity gives in one step: part of the impulse bound.
  double gravity_speed = 0.0;
  /// Added to the bound's speed (m/s): room for what a step's rows ask
  /// beyond their own targets (a wedge's walls press harder than its weight).
  double impulse_bound_margin = 1.0;
};

/// The most normal impulse (N·s) one point of an island may carry in a step:
/// the island's mass times the largest change of speed a solvable step could
/// ask of it (`needed_speed`: its fastest approach, with its bounce, plus its
/// largest push-out target, plus a step of gravity). A body pressed between
/// two that do not move (a crate crushed by a kinematic lid onto the floor)
/// asks an impossible answer: without the bound the rows fight, each step's
/// impulses grow on the last one's warm start, and the day one normal turns,
/// the body leaves at thousands of m/s. Solvable steps never reach it.
double impulse_bound(double island_mass, double needed_speed, const SolverSettings& settings);

/// Solves `manifolds` (in their order, every iteration) on `bodies`' velocities for a
/// step of `dt` s. Each point's impulses come in as the warm start and go
/// out as solved.
void solve_contacts(std::vector<SolverBody>& bodies, std::vector<Manifold>& manifolds, double dt,
                    const SolverSettings& settings = SolverSettings());

/// Two unit vectors across unit `n`, fixed for a given n (Bullet's
/// btPlaneSpace1 rule): the friction rows' directions.
void tangents(const btVector3& n, btVector3* t1, btVector3* t2);

/// The friction impulse (t1, t2) clamped to the cone of `limit`
/// (friction × normal impulse): scaled down to that length when longer.
void clamp_to_cone(double* t1, double* t2, double limit);

}  // namespace stepslide::dynamics
