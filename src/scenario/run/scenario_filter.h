// The scenario's layers and one-way platforms (docs/format.md §1.1 `layer`,
// `one_way`, the character's `collides_with`, an input key's `drop`), built
// on the controller's public contact filter (stepslide/contact_filter.h).
#pragma once

#include <LinearMath/btTransform.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "scenario/scenario.h"
#include "stepslide/character.h"
#include "stepslide/contact_filter.h"

class btConvexShape;

namespace stepslide {

class ScenarioFilter : public ContactFilter {
 public:
  /// Null when `scenario` needs no filter: no body is one-way and every
  /// character collides with every layer a body or another character is on
  /// (the run then costs what it did before layers existed).
  static bool needed(const Scenario& scenario);
  /// The filter of the scenario's first character, or of `character` (one
  /// of its characters: each has its own `collides_with`).
  explicit ScenarioFilter(const Scenario& scenario);
  ScenarioFilter(const Scenario& scenario, const CharacterDef& character);

  /// Another character's body (CharacterController::body()) and its
  /// `layer`: this character collides with it only when its own
  /// `collides_with` lists that layer (docs/format.md §1.7). A character
  /// body not added is on every layer.
  void add_character_body(const btCollisionObject* body, int layer);

  /// Before each tick: where the feet start it (a one-way body blocks only
  /// contacts at or below them) and whether `drop` is held.
  void begin_tick(const btVector3& feet, bool drop) {
    feet_ = feet;
    drop_ = drop;
    posed_ = false;
  }
  /// As above, with the character's shape and its pose (the shape's centre)
  /// there: a contact then blocks only where the shape's lowest point along
  /// the body's +Y started the tick no lower than it (less the tolerance).
  /// On a body turned from level that point is not the feet: an upright
  /// cylinder's rim, a box's corner hang below them along a tilted +Y.
  void begin_tick(const btVector3& feet, bool drop, const CharacterShapeDesc& shape, const btTransform& pose);
  ~ScenarioFilter() override;

  /// The body's layer is in the character's `collides_with`.
  bool collides_with(const btCollisionObject& body) const override;
  /// A one-way body blocks only a contact whose normal has a part along its
  /// local +Y and whose plane the character at the start of the tick was in
  /// front of, or behind by no more than kOneWayTolerance along that axis:
  /// its lowest point along the contact's normal (the feet, when begin_tick
  /// was not given the shape). On a flat top of a level body: the point no
  /// higher than the feet plus the tolerance; on a slope, a point ahead and
  /// above the feet still blocks. None while `drop` is
  /// held. On a moving body the point is taken where the body had it at the
  /// start of the tick too (a platform rising faster than the tolerance per
  /// tick carries the character, not swallows it). Feet that started the
  /// tick on or above the body's top (less kOneWayTolerance) make every
  /// contact with it block, as a floor's would.
  bool validate(const ContactCandidate& candidate) const override;

  /// How far below the contact point the tick's starting feet may be for a
  /// one-way body to block: the ground tolerance of the default skin, so
  /// the feet resting on it (at most a skin above or below) keep standing.
  static constexpr double kOneWayTolerance = 0.01;
  /// Below this part along the body's +Y a contact normal has none (rounding
  /// of a turned basis leaves parts near 1e-16 on normals across it).
  static constexpr double kMinPartAlongUp = 1e-9;

 private:
  /// The scenario body behind `object`, or -1 (not a scenario body).
  int body_of(const btCollisionObject& object) const;
  /// The character at the start of the tick (its lowest point along the
  /// body's local +Y: the feet on a level body) is on or above the top of
  /// `body` (its shape's highest point along that axis, where it stood then).
  bool feet_above_top(const btCollisionObject& body, bool moving) const;

  std::vector<int> layer_;
  /// Other characters' bodies and their layers, in file order (a handful:
  /// looked up by a linear search, never iterated into a result).
  std::vector<std::pair<const btCollisionObject*, int>> characters_;
  std::vector<bool> one_way_;
  std::vector<bool> moving_;  ///< a kinematic or dynamic body: its point is taken where it was a tick ago
  std::uint32_t mask_;
  /// The character's lowest point along `direction` at the tick's start:
  /// its shape's support point there, or the feet when no shape was given.
  btVector3 lowest_along(const btVector3& direction) const;

  btVector3 feet_{0, 0, 0};
  bool drop_ = false;
  /// The shape begin_tick was given, built again only when it changes.
  std::unique_ptr<btConvexShape> shape_;
  CharacterShapeDesc shape_desc_;
  btTransform pose_ = btTransform::getIdentity();
  bool posed_ = false;  ///< shape_ and pose_ are this tick's
};

}  // namespace stepslide
