#include "scenario/run/scenario_filter.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

namespace stepslide {

bool ScenarioFilter::needed(const Scenario& scenario) {
  for (const BodyDef& body : scenario.world) {
    if (body.one_way) return true;
    for (std::size_t i = 0; i < scenario.character_count(); ++i) {
      if ((scenario.character_at(i).collides_with & layer_bit(body.layer)) == 0) return true;
    }
  }
  return false;
}

ScenarioFilter::ScenarioFilter(const Scenario& scenario) : ScenarioFilter(scenario, scenario.character) {}

ScenarioFilter::ScenarioFilter(const Scenario& scenario, const CharacterDef& character)
    : mask_(character.collides_with) {
  layer_.reserve(scenario.world.size());
  one_way_.reserve(scenario.world.size());
  for (const BodyDef& body : scenario.world) {
    layer_.push_back(body.layer);
    one_way_.push_back(body.one_way);
  }
}

int ScenarioFilter::body_of(const btCollisionObject& object) const {
  const int index = object.getUserIndex();
  return index >= 0 && static_cast<std::size_t>(index) < layer_.size() ? index : -1;
}

bool ScenarioFilter::collides_with(const btCollisionObject& body) const {
  const int index = body_of(body);
  return index < 0 || (mask_ & layer_bit(layer_[static_cast<std::size_t>(index)])) != 0;
}

bool ScenarioFilter::validate(const ContactCandidate& candidate) const {
  const int index = body_of(*candidate.body);
  if (index < 0 || !one_way_[static_cast<std::size_t>(index)]) return true;
  if (drop_) return false;
  // The body's local +Y in the world: the side it blocks from.
  const btVector3 blocks_from = candidate.body->getWorldTransform().getBasis().getColumn(1);
  if (candidate.normal.dot(blocks_from) <= 0.0) return false;
  return (feet_ - candidate.point).dot(blocks_from) >= -kOneWayTolerance;
}

}  // namespace stepslide
