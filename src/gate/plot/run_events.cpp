#include "gate/plot/run_events.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include "scenario/load/world.h"
#include "stepslide/controller.h"
#include "stepslide/observer.h"

namespace stepslide {

namespace {

bool is_dynamic(const btCollisionObject* object) {
  const btRigidBody* body = btRigidBody::upcast(object);
  return body != nullptr && body->getInvMass() > 0;
}

double desc_height(const CharacterShapeDesc& d) {
  switch (d.kind) {
    case CharacterShapeDesc::Kind::Sphere: return 2 * d.radius;
    case CharacterShapeDesc::Kind::Box: return 2 * d.half_extents.y();
    default: return d.height;
  }
}

}  // namespace

double character_height(const ShapeDef& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return 2 * shape.radius;
    case ShapeType::Box: return 2 * shape.half_extents[1];
    default: return shape.height;  // capsule, cylinder
  }
}

struct RunEventRecorder::Observer : ControllerObserver {
  RunEvents& events;
  const World* world = nullptr;
  std::int64_t row = 0;  ///< the row the observed tick makes
  explicit Observer(RunEvents& e) : events(e) {}

  std::string name(const btCollisionObject* object) const {
    const std::string n = world != nullptr ? world->body_name(object) : "";
    return n.empty() ? "?" : n;
  }
  void on_push(const PushEvent& e) override {
    if (e.kind == PushEvent::Kind::Weight) return;
    events.pushes.push_back({e.kind == PushEvent::Kind::Push ? RunPush::Kind::Push : RunPush::Kind::Landing, row,
                             name(e.body), e.point, e.impulse});
  }
  void on_depenetration(const DepenetrationEvent& e) override {
    for (const Contact& c : e.overlaps) {
      if (!is_dynamic(c.object)) continue;
      events.pushes.push_back({RunPush::Kind::PushedBy, row, name(c.object), c.point, e.correction});
      return;  // one per iteration: the correction is the iteration's
    }
  }
};

RunEventRecorder::RunEventRecorder(const Scenario& scenario)
    : scenario_(scenario), observer_(std::make_unique<Observer>(events_)) {}

RunEventRecorder::~RunEventRecorder() = default;

SimulationOptions RunEventRecorder::options(SimulationOptions base, bool pushes) {
  std::function<void(const TickView&)> before = base.on_tick;
  const bool stance = scenario_.character.crouch_shape.has_value();
  base.on_tick = [this, before, stance, pushes](const TickView& view) {
    if (before) before(view);
    observer_->world = &view.world;
    observer_->row = view.tick + 1;  // the next tick makes the next row
    if (stance) {
      events_.height.resize(static_cast<std::size_t>(view.tick) + 1);
      events_.height[static_cast<std::size_t>(view.tick)] = desc_height(view.controller.shape());
    }
    if (pushes) view.controller.set_observer(observer_.get());
  };
  return base;
}

std::vector<bool> RunEvents::crouched(const Scenario& scenario) const {
  std::vector<bool> out;
  const double standing = character_height(scenario.character.shape);
  for (double h : height) out.push_back(h < standing);
  return out;
}

std::vector<PushStretch> RunEvents::stretches() const {
  std::vector<PushStretch> out;
  for (const RunPush& p : pushes) {
    if (!out.empty() && out.back().kind == p.kind && out.back().body == p.body && p.row <= out.back().last + 1) {
      out.back().last = p.row;
      out.back().total += p.amount;
      continue;
    }
    out.push_back({p.kind, p.body, p.row, p.row, p.point, p.amount});
  }
  return out;
}

}  // namespace stepslide
