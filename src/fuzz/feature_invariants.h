// The invariants of the controller's later features, checked on every tick
// beside those of invariants.cpp (which owns the checker and calls this one):
// dynamic bodies (no tunnelling through one, no speed from nowhere, a
// resting stack stays at rest), crouching (a shape is taken only where it
// fits) and one-way platforms (never ended inside one the character was
// above). docs/fuzzing.md lists them.
#pragma once

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/invariants.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"
#include "stepslide/character.h"

namespace stepslide {

class CollisionQueries;

class FeatureChecker {
 public:
  explicit FeatureChecker(const Scenario& scenario);
  ~FeatureChecker();
  FeatureChecker(const FeatureChecker&) = delete;
  FeatureChecker& operator=(const FeatureChecker&) = delete;

  /// The character's overlap with the world for the `overlap` invariant:
  /// the controller's measure, or, where the scenario has one-way bodies,
  /// the overlap with every body it collides with but those (the filter's
  /// verdict on a one-way contact depends on the feet at the start of the
  /// tick; the `one_way` invariant covers them).
  double overlap(const TickView& view);

  /// Checks row `view.tick` against the row before (row 0: only recorded),
  /// appending what fails to `out`.
  void observe(const TickView& view, std::vector<Violation>* out);

 private:
  struct Stack {
    std::vector<std::size_t> bodies;  ///< indices into World::bodies()
    std::vector<btTransform> start;
    bool touched = false;
    bool whole = true;  ///< its boxes are <group>_0, _1, ... in order, none missing
  };
  void start(const TickView& view);
  void check_body_tunnel(const TickView& view, const btVector3& centre, std::vector<Violation>* out);
  void check_speed(const TickView& view, std::vector<Violation>* out);
  void check_rest(const TickView& view, std::vector<Violation>* out);
  void check_crouch_fit(const TickView& view, std::vector<Violation>* out);
  void check_one_way(const TickView& view, std::vector<Violation>* out);
  /// Deepest overlap of `shape` at `pose`, as the controller's queries
  /// measure it, with the body whose definition is `only`, or (npos) with
  /// every body the character collides with that is not one-way.
  double depth(const TickView& view, const btConvexShape* shape, const btTransform& pose, std::size_t only);
  /// The character's bounding box at `feet` (the shape at the controller's basis).
  void character_bounds(const TickView& view, const btVector3& feet, btVector3* low, btVector3* high) const;
  bool drop_held(std::int64_t input_tick) const;

  const Scenario& scenario_;
  double dt_;
  btVector3 up_;
  bool has_dynamic_ = false;
  bool has_one_way_ = false;
  std::vector<Stack> stacks_;
  std::unique_ptr<CollisionQueries> queries_;
  btVector3 previous_position_{0, 0, 0}, previous_velocity_{0, 0, 0}, previous_centre_{0, 0, 0};
  CharacterShapeDesc previous_shape_;
  /// The character's bounding box where it ended the previous tick, with
  /// the shape it had then (a tick that changes the shape starts with the old one).
  btVector3 previous_low_{0, 0, 0}, previous_high_{0, 0, 0};
  /// The body it stood on at the end of the previous tick (null: none).
  const btCollisionObject* previous_ground_ = nullptr;
  /// The velocity change the other characters' pushes asked of the
  /// character by the end of the tick before (CharacterBody::pending_push),
  /// which it takes at the start of this one.
  btVector3 previous_push_{0, 0, 0};
  /// What each other character added to the speed bound the tick before
  /// (0 out of reach).
  std::vector<double> previous_others_;
};

}  // namespace stepslide
