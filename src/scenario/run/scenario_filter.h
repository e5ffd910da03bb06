// The scenario's layers and one-way platforms (docs/format.md §1.1 `layer`,
// `one_way`, the character's `collides_with`, an input key's `drop`), built
// on the controller's public contact filter (stepslide/contact_filter.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "scenario/scenario.h"
#include "stepslide/contact_filter.h"

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
  }

  /// The body's layer is in the character's `collides_with`.
  bool collides_with(const btCollisionObject& body) const override;
  /// A one-way body blocks only a contact whose normal has a part along its
  /// local +Y and whose plane the feet at the start of the tick were in
  /// front of, or behind by no more than kOneWayTolerance along that axis
  /// (on a flat top: the point no higher than the feet plus the tolerance;
  /// on a slope, a point ahead and above the feet still blocks); none while
  /// `drop` is held. On a moving body the point is taken where the body had it at the
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
  /// The feet at the start of the tick are on or above the top of `body`
  /// (its shape's highest point along its local +Y, where it stood then).
  bool feet_above_top(const btCollisionObject& body, bool moving) const;

  std::vector<int> layer_;
  /// Other characters' bodies and their layers, in file order (a handful:
  /// looked up by a linear search, never iterated into a result).
  std::vector<std::pair<const btCollisionObject*, int>> characters_;
  std::vector<bool> one_way_;
  std::vector<bool> moving_;  ///< a kinematic or dynamic body: its point is taken where it was a tick ago
  std::uint32_t mask_;
  btVector3 feet_{0, 0, 0};
  bool drop_ = false;
};

}  // namespace stepslide
