#include "scenario/run/reference_controller.h"

#include <BulletCollision/CollisionDispatch/btGhostObject.h>
#include <BulletDynamics/Character/btKinematicCharacterController.h>

#include <algorithm>
#include <vector>

#include "stepslide/math.h"

namespace stepslide {

namespace {

/// Far outside any scenario (the loader bounds coordinates by 1e6 m).
constexpr double kFar = 1e30;

/// A shape whose bounding box lies far outside the world and counts how often
/// it is asked for that box.
class TallyShape : public btSphereShape {
 public:
  explicit TallyShape(std::int64_t* count) : btSphereShape(1.0), count_(count) {}
  void getAabb(const btTransform&, btVector3& aabb_min, btVector3& aabb_max) const override {
    ++*count_;
    aabb_min = btVector3(kFar, kFar, kFar);
    aabb_max = btVector3(kFar + 1, kFar + 1, kFar + 1);
  }

 private:
  std::int64_t* count_;
};

/// Does the broadphase work of a dynamics world's first steps: the first
/// pair updates move every static body into the dbvt's fixed tree and then
/// rebalance that tree a little per step. Without this, a world of 100 000
/// bodies would charge seconds of one-time reorganisation to the first ticks
/// of the controller; ours needs no pair updates at all.
void settle_broadphase(btCollisionWorld* world) {
  for (int stage = 0; stage <= btDbvtBroadphase::STAGECOUNT; ++stage) world->computeOverlappingPairs();
  // Each update rebalances 1 % of the fixed tree until it has all been seen.
  if (auto* dbvt = dynamic_cast<btDbvtBroadphase*>(world->getBroadphase())) {
    while (dbvt->m_fixedleft > 0) world->computeOverlappingPairs();
  }
}

}  // namespace

/// The character's ghost object, counting the convex sweeps made through it.
/// btGhostObject::convexSweepTest is not virtual, and btCollisionShape::
/// calculateTemporalAabb (called once per sweep) is not virtual either in
/// Bullet 3.24, so the count comes from the one virtual call a ghost sweep
/// makes per object it may hit: getAabb() of that object's shape. A tally
/// object, put on the ghost's list of overlapping objects and never into any
/// pair cache, accepts every collision filter; each sweep asks for its box
/// exactly once and, the box being out of reach, goes no further with it.
class SweepCountingGhost : public btPairCachingGhostObject {
 public:
  SweepCountingGhost()
      : tally_shape_(&sweeps_),
        tally_proxy_(btVector3(kFar, kFar, kFar), btVector3(kFar + 1, kFar + 1, kFar + 1), &tally_, -1, -1) {
    tally_.setCollisionShape(&tally_shape_);
    tally_.setBroadphaseHandle(&tally_proxy_);
    // The base-class insert only lists the object; btPairCachingGhostObject's
    // would also add a pair for the dispatcher to collide.
    btGhostObject::addOverlappingObjectInternal(&tally_proxy_, nullptr);
  }
  std::int64_t sweeps() const { return sweeps_; }

 private:
  std::int64_t sweeps_ = 0;
  TallyShape tally_shape_;
  btCollisionObject tally_;
  btBroadphaseProxy tally_proxy_;
};

ReferenceController::ReferenceController(btCollisionWorld* world, const CharacterShapeDesc& shape,
                                         const ControllerSettings& settings, const btVector3& up,
                                         const btVector3& gravity)
    : world_(world),
      up_(up.normalized()),
      feet_to_center_(stepslide::feet_to_center(shape)),
      settings_(settings),
      shape_(make_character_shape(shape, 0.0)),
      ghost_(std::make_unique<SweepCountingGhost>()),
      ghost_pairs_(std::make_unique<btGhostPairCallback>()),
      queries_(world, ghost_.get()) {
  // Without this callback the ghost's own pair list stays empty, and Bullet's
  // controller neither sweeps against nor recovers from anything.
  world_->getBroadphase()->getOverlappingPairCache()->setInternalGhostPairCallback(ghost_pairs_.get());
  world_->getDispatchInfo().m_allowedCcdPenetration = 0.0;
  ghost_->setCollisionShape(shape_.get());
  ghost_->setCollisionFlags(btCollisionObject::CF_CHARACTER_OBJECT);
  // The world's broadphase keeps no pairs (scenario/load/world.cpp), but Bullet's
  // controller finds what it may touch through its ghost's pairs: find them
  // when the ghost is added and whenever it or a kinematic body moves.
  if (auto* dbvt = dynamic_cast<btDbvtBroadphase*>(world_->getBroadphase())) dbvt->m_deferedcollide = false;
  // Static and kinematic world bodies are in these groups (scenario/load/world.cpp).
  world_->addCollisionObject(ghost_.get(), btBroadphaseProxy::CharacterFilter,
                             btBroadphaseProxy::StaticFilter | btBroadphaseProxy::KinematicFilter |
                                 btBroadphaseProxy::DefaultFilter);
  probe_.setCollisionShape(shape_.get());

  // The constructor's default up axis is +X; pass ours explicitly. setGravity
  // turns up to -gravity, so setUp comes after it (Bullet keeps gravity along
  // -up either way). Each change of up also rotates the ghost, so reset()
  // sets its pose afterwards.
  bullet_ = std::make_unique<btKinematicCharacterController>(ghost_.get(), shape_.get(), settings.max_step_height,
                                                             up_);
  bullet_->setGravity(gravity);
  bullet_->setUp(up_);
  bullet_->setMaxSlope(settings.max_slope_deg * kPi / 180.0);
  bullet_->setStepHeight(settings.max_step_height);
  bullet_->setJumpSpeed(settings.jump_speed);
  bullet_->setFallSpeed(settings.terminal_velocity);
  reset(btVector3(0, 0, 0), btVector3(0, 0, 0));
  settle_broadphase(world_);
}

ReferenceController::~ReferenceController() {
  world_->removeCollisionObject(ghost_.get());
  world_->getBroadphase()->getOverlappingPairCache()->setInternalGhostPairCallback(nullptr);
}

btCollisionObject& ReferenceController::ghost() { return *ghost_; }

std::int64_t ReferenceController::total_sweeps() const { return ghost_->sweeps(); }

btVector3 ReferenceController::feet() const {
  return ghost_->getWorldTransform().getOrigin() - up_ * feet_to_center_;
}

void ReferenceController::reset(const btVector3& feet_position, const btVector3& velocity) {
  ghost_->setWorldTransform(btTransform(rotation_onto_up(up_), feet_position + up_ * feet_to_center_));
  world_->updateSingleAabb(ghost_.get());
  walk_velocity_ = horizontal_part(velocity, up_);
  jump_was_held_ = false;
  // setLinearVelocity takes the part along up as vertical speed (and the rest
  // as a walk direction, which every tick sets anew).
  bullet_->setLinearVelocity(up_ * velocity.dot(up_));
  bullet_->setWalkDirection(btVector3(0, 0, 0));

  state_ = CharacterState{};
  state_.position = feet();
  state_.velocity = velocity;
  state_.grounded = bullet_->onGround();
}

TickReport ReferenceController::update(const CharacterInput& input, double dt) {
  const std::int64_t sweeps_before = ghost_->sweeps();
  const btVector3 before = feet();

  // The game's side: the same stick model as ours decides the walk velocity.
  const btVector3 wish = wish_direction(input, up_);
  if (input.use_wish_velocity) {
    walk_velocity_ = horizontal_part(input.wish_velocity, up_);
  } else if (bullet_->onGround()) {
    walk_velocity_ = ground_velocity(walk_velocity_, wish, settings_, dt);
  } else {
    walk_velocity_ = air_velocity(walk_velocity_, wish, settings_, dt);
  }
  const bool jump_pressed = input.jump && !jump_was_held_;
  jump_was_held_ = input.jump;
  if (jump_pressed && bullet_->canJump()) bullet_->jump();
  bullet_->setWalkDirection(walk_velocity_ * dt);

  // A dynamics world refreshes its pairs every step before running actions;
  // that is what drops bodies the ghost no longer overlaps from its list.
  world_->computeOverlappingPairs();
  bullet_->updateAction(world_, dt);

  state_.position = feet();
  state_.velocity = (state_.position - before) / dt;
  state_.grounded = bullet_->onGround();

  TickReport report;
  report.sweeps = static_cast<int>(ghost_->sweeps() - sweeps_before);
  return report;
}

double ReferenceController::penetration_depth() {
  probe_.setWorldTransform(ghost_->getWorldTransform());
  return queries_.penetration_depth(&probe_);
}

}  // namespace stepslide
