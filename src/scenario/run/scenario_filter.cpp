#include "scenario/run/scenario_filter.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletCollision/CollisionShapes/btConvexShape.h>

#include "stepslide/controller.h"

namespace stepslide {

bool ScenarioFilter::needed(const Scenario& scenario) {
  for (const BodyDef& body : scenario.world) {
    if (body.one_way) return true;
    for (std::size_t i = 0; i < scenario.character_count(); ++i) {
      if ((scenario.character_at(i).collides_with & layer_bit(body.layer)) == 0) return true;
    }
  }
  for (std::size_t i = 0; i < scenario.character_count(); ++i) {
    for (std::size_t j = 0; j < scenario.character_count(); ++j) {
      if (i == j) continue;
      if ((scenario.character_at(i).collides_with & layer_bit(scenario.character_at(j).layer)) == 0) return true;
    }
  }
  return false;
}

void ScenarioFilter::add_character_body(const btCollisionObject* body, int layer) {
  characters_.emplace_back(body, layer);
}

ScenarioFilter::ScenarioFilter(const Scenario& scenario) : ScenarioFilter(scenario, scenario.character) {}

ScenarioFilter::ScenarioFilter(const Scenario& scenario, const CharacterDef& character)
    : mask_(character.collides_with) {
  layer_.reserve(scenario.world.size());
  one_way_.reserve(scenario.world.size());
  moving_.reserve(scenario.world.size());
  for (const BodyDef& body : scenario.world) {
    layer_.push_back(body.layer);
    one_way_.push_back(body.one_way);
    moving_.push_back(body.dynamic() || body.motion.type != MotionType::None);
  }
}

ScenarioFilter::~ScenarioFilter() = default;

void ScenarioFilter::begin_tick(const btVector3& feet, bool drop, const CharacterShapeDesc& shape,
                                const btTransform& pose) {
  begin_tick(feet, drop);
  if (shape_ == nullptr || !same_shape(shape, shape_desc_)) {
    shape_ = make_character_shape(shape, 0.0);
    shape_desc_ = shape;
  }
  pose_ = pose;
  posed_ = shape_ != nullptr;
}

btVector3 ScenarioFilter::lowest_along(const btVector3& direction) const {
  if (!posed_) return feet_;
  const btVector3 local = pose_.getBasis().transpose() * -direction;
  return pose_ * shape_->localGetSupportingVertex(local);
}

int ScenarioFilter::body_of(const btCollisionObject& object) const {
  const int index = object.getUserIndex();
  return index >= 0 && static_cast<std::size_t>(index) < layer_.size() ? index : -1;
}

bool ScenarioFilter::collides_with(const btCollisionObject& body) const {
  const int index = body_of(body);
  if (index >= 0) return (mask_ & layer_bit(layer_[static_cast<std::size_t>(index)])) != 0;
  for (const auto& [object, layer] : characters_) {
    if (object == &body) return (mask_ & layer_bit(layer)) != 0;
  }
  return true;
}

bool ScenarioFilter::feet_above_top(const btCollisionObject& body, bool moving) const {
  // The pose at the start of the tick, as the feet are taken then.
  const btTransform& pose = moving ? body.getInterpolationWorldTransform() : body.getWorldTransform();
  btVector3 low;
  btVector3 high;
  body.getCollisionShape()->getAabb(btTransform::getIdentity(), low, high);
  // The character's lowest point along the body's +Y (then): on a tilted
  // body a wide shape's rim hangs inside it while the feet are above its top.
  const btVector3 lowest = lowest_along(pose.getBasis().getColumn(1));
  return pose.invXform(lowest).y() >= high.y() - kOneWayTolerance;
}

bool ScenarioFilter::validate(const ContactCandidate& candidate) const {
  const int index = body_of(*candidate.body);
  if (index < 0 || !one_way_[static_cast<std::size_t>(index)]) return true;
  if (drop_) return false;
  const btCollisionObject& body = *candidate.body;
  const bool moving = moving_[static_cast<std::size_t>(index)];
  // Feet that started the tick on or above the body's top: the whole
  // character came from above, and the body blocks it like any floor, every
  // contact whatever its normal (pressed deep into it, by a moving body's
  // push-out, the shortest way out of a thin platform is sideways).
  if (feet_above_top(body, moving)) return true;
  // The body's local +Y in the world: the side it blocks from.
  const btVector3 blocks_from = body.getWorldTransform().getBasis().getColumn(1);
  // A part along it smaller than rounding (a side normal of a shape whose
  // +Y was turned level) is no part: such a contact does not block.
  if (candidate.normal.dot(blocks_from) <= kMinPartAlongUp) return false;
  // A body rising under the feet carries the contact point up with it: the
  // point is measured where it was a tick ago (World keeps a moving body's
  // pose of then as its interpolation transform), as the feet are.
  btVector3 point = candidate.point;
  btVector3 normal = candidate.normal;
  if (moving) {
    const btTransform& then = body.getInterpolationWorldTransform();
    point = then * body.getWorldTransform().invXform(point);
    normal = then.getBasis() * (body.getWorldTransform().getBasis().transpose() * normal);
  }
  // The character started the tick on the side the contact's surface faces:
  // its lowest point along the normal (the feet when no shape was given) no
  // deeper behind the contact's plane than the tolerance, measured along the
  // body's up. On a flat top of a level body, the feet no lower than the
  // point less the tolerance; on a tilted body, a rim or corner hanging
  // inside it does not block; along a slope the surface rises ahead of the
  // feet, and a walk up it meets points above where they started the tick.
  return (lowest_along(normal) - point).dot(normal) >= -kOneWayTolerance * normal.dot(blocks_from);
}

}  // namespace stepslide
