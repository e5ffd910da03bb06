// A small game for the capture tests: it owns a Bullet world with static
// and kinematic bodies, a controller, and a recorder, and steps them in the
// order the recorder's header prescribes. Bodies are built the way the
// scenario world builds them (a box's margin, a hull's), unless a test wants
// a game that does not.
#pragma once

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stepslide/capture/recorder.h"
#include "stepslide/character.h"
#include "stepslide/controller.h"
#include "stepslide/math.h"

namespace stepslide::test {

/// A box as the scenario world makes one (box_margin: 1 mm).
inline std::unique_ptr<btBoxShape> scenario_box(const btVector3& half) {
  auto box = std::make_unique<btBoxShape>(half);
  box->setMargin(box_margin(half));
  return box;
}

inline btTransform at(const btVector3& origin, const btQuaternion& rotation = btQuaternion::getIdentity()) {
  return btTransform(rotation, origin);
}

class GameRig {
 public:
  GameRig() : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &config_) {}
  ~GameRig() {
    recorder_.reset();
    controller_.reset();
    for (auto& object : objects_) world_.removeCollisionObject(object.get());
  }

  btCollisionObject* add_static(std::unique_ptr<btCollisionShape> shape, const btTransform& pose) {
    return add(std::move(shape), pose, btCollisionObject::CF_STATIC_OBJECT);
  }
  /// `motion(t)`: the body's pose at time t seconds.
  btCollisionObject* add_kinematic(std::unique_ptr<btCollisionShape> shape, std::function<btTransform(double)> motion) {
    btCollisionObject* object = add(std::move(shape), motion(0.0), btCollisionObject::CF_KINEMATIC_OBJECT);
    movers_.push_back({object, std::move(motion)});
    return object;
  }
  void keep_shape(std::unique_ptr<btCollisionShape> shape) { shapes_.push_back(std::move(shape)); }
  void keep_mesh(std::unique_ptr<btStridingMeshInterface> mesh) { meshes_.push_back(std::move(mesh)); }

  /// Makes the controller and the recorder (after the world is built).
  void start(const btVector3& feet, CaptureConfig config = {}, const ControllerSettings& settings = {}) {
    controller_ = std::make_unique<CharacterController>(&world_, shape_, settings, btVector3(0, 1, 0),
                                                        btVector3(0, -9.81, 0));
    controller_->reset(feet, btVector3(0, 0, 0));
    recorder_ = std::make_unique<CaptureRecorder>(&world_, *controller_, shape_, std::move(config));
  }

  /// One tick of the game loop: the world, then the character.
  TickReport tick(const CharacterInput& input, double dt = 1.0 / 60) {
    move_world();
    return recorder_->update(input, dt);
  }
  /// The same tick with the controller alone (what the recorder costs).
  TickReport tick_without_recorder(const CharacterInput& input, double dt = 1.0 / 60) {
    move_world();
    return controller_->update(input, dt);
  }

  /// false: a game that breaks the contract by not keeping the pose a body
  /// moved from as its interpolation transform.
  void keep_interpolation(bool keep) { keep_interpolation_ = keep; }
  btCollisionWorld& world() { return world_; }
  CharacterController& controller() { return *controller_; }
  CaptureRecorder& recorder() { return *recorder_; }
  CharacterShapeDesc shape_;

 private:
  btCollisionObject* add(std::unique_ptr<btCollisionShape> shape, const btTransform& pose, int flags) {
    auto object = std::make_unique<btCollisionObject>();
    object->setCollisionShape(shape.get());
    object->setCollisionFlags(flags);
    object->setWorldTransform(pose);
    object->setInterpolationWorldTransform(pose);
    world_.addCollisionObject(object.get());
    shapes_.push_back(std::move(shape));
    objects_.push_back(std::move(object));
    return objects_.back().get();
  }

  void move_world() {
    ++ticks_;
    for (const Mover& m : movers_) {
      if (keep_interpolation_) m.object->setInterpolationWorldTransform(m.object->getWorldTransform());
      m.object->setWorldTransform(m.motion(static_cast<double>(ticks_) / 60.0));
      world_.updateSingleAabb(m.object);
    }
  }

  struct Mover {
    btCollisionObject* object;
    std::function<btTransform(double)> motion;
  };
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btCollisionWorld world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btStridingMeshInterface>> meshes_;
  std::vector<std::unique_ptr<btCollisionObject>> objects_;
  std::vector<Mover> movers_;
  std::unique_ptr<CharacterController> controller_;
  std::unique_ptr<CaptureRecorder> recorder_;
  std::int64_t ticks_ = 0;
  bool keep_interpolation_ = true;
};

/// The course of the round-trip tests: a floor, stairs, a tilted ramp, a
/// sphere, a cylinder, a capsule, a hull and a mesh; a sliding platform the
/// character starts on, and a rising turntable turned by degrees as the
/// scenario world turns bodies (scenario_rotation).
inline void build_course(GameRig& rig) {
  rig.add_static(scenario_box(btVector3(20, 0.5, 20)), at(btVector3(0, -0.5, 0)));
  for (int i = 0; i < 3; ++i) {
    const double top = 0.15 * (i + 1);
    rig.add_static(scenario_box(btVector3(1.5, 0.5 * top, 0.2)), at(btVector3(0, 0.5 * top, -3.2 - 0.4 * i)));
  }
  btQuaternion tilt;
  tilt.setEulerZYX(0, 0, 15 * kDegToRad);
  rig.add_static(scenario_box(btVector3(1, 0.1, 2)), at(btVector3(-3, 0.2, -6), tilt));
  rig.add_static(std::make_unique<btSphereShape>(0.5), at(btVector3(-3, 0.1, -1.5)));
  auto cylinder = std::make_unique<btCylinderShape>(btVector3(0.4, 0.5, 0.4));
  cylinder->setMargin(0.001);
  rig.add_static(std::move(cylinder), at(btVector3(-1.8, 0.5, -5)));
  rig.add_static(std::make_unique<btCapsuleShape>(0.3, 1.0), at(btVector3(1.8, 0.8, -6)));
  auto hull = std::make_unique<btConvexHullShape>();
  for (const btVector3& p : {btVector3(-0.5, 0, -0.5), btVector3(0.5, 0, -0.5), btVector3(0.5, 0, 0.5),
                             btVector3(-0.5, 0, 0.5), btVector3(0, 0.3, 0)}) {
    hull->addPoint(p, false);
  }
  hull->recalcLocalAabb();
  hull->setMargin(0.0001);
  rig.add_static(std::move(hull), at(btVector3(-5, 0, -3)));
  auto mesh = std::make_unique<btTriangleMesh>(true, true);
  for (int x = 0; x < 4; ++x) {
    for (int z = 0; z < 4; ++z) {
      auto h = [](int i, int j) { return 0.03 * ((i * 7 + j * 3) % 4); };
      const btVector3 a(x, h(x, z), z), b(x + 1, h(x + 1, z), z), c(x + 1, h(x + 1, z + 1), z + 1),
          d(x, h(x, z + 1), z + 1);
      mesh->addTriangle(a, c, b, false);
      mesh->addTriangle(a, d, c, false);
    }
  }
  rig.add_static(std::make_unique<btBvhTriangleMeshShape>(mesh.get(), true), at(btVector3(-6, 0.01, -9)));
  rig.keep_mesh(std::move(mesh));
  // An L of two boxes in one compound, turned: written as two bodies. (A
  // child turned within a turned body is noted as not exact: the product of
  // two rotations is rarely one the scenario's degrees reach.)
  auto compound = std::make_unique<btCompoundShape>();
  auto arm_a = scenario_box(btVector3(1, 0.3, 0.2));
  auto arm_b = scenario_box(btVector3(0.2, 0.3, 1));
  compound->addChildShape(at(btVector3(0, 0.3, 0)), arm_a.get());
  compound->addChildShape(at(btVector3(0.8, 0.3, 0.8)), arm_b.get());
  rig.add_static(std::move(compound), at(btVector3(-1.5, 0, 4), scenario_rotation({0, 30, 0})));
  rig.keep_shape(std::move(arm_a));
  rig.keep_shape(std::move(arm_b));
  rig.add_kinematic(scenario_box(btVector3(1, 0.1, 1)), [](double t) {
    // Its coordinates keep their signs: see docs/embedding.md ("Capture from
    // your game") on bodies whose coordinate crosses zero between two ticks.
    return at(btVector3(0.3 + 0.25 * std::sin(1.3 * t), 0.1 + 0.03 * std::sin(2 * t), 1.5));
  });
  // The turntable rises 5 cm/s; the course reaches it at t = 3.1 s, when its
  // top (0.305 m) is 4.5 cm under max_step_height (0.35), and steps onto it.
  // (Starting from 0.1 m, its top would be 0.355 m, exactly max_step_height
  // plus the step's 5 mm tolerance, and stepping on would hang on the last
  // bit of the tread ray, where Bullet's ray and the exact ray-vs-box round
  // apart: 0.3549999999999999 against 0.3550000000000001.)
  rig.add_kinematic(scenario_box(btVector3(1.2, 0.1, 1.2)), [](double t) {
    return at(btVector3(-3, 0.05 + 0.05 * t, -10), scenario_rotation({0, 40 * t, 0}));
  });
}

/// Varied input over 600 ticks: standing (carried), walking over the
/// stairs, turning the camera, jumping, a wished velocity, strafing.
inline CharacterInput course_input(int tick) {
  CharacterInput in;
  if (tick < 40) return in;
  if (tick < 170) {
    in.move_forward = 1;
    in.yaw_deg = tick < 120 ? 0 : 10.5;
  } else if (tick < 260) {
    in.yaw_deg = 90;
    in.move_right = 0.5;
    in.move_forward = 1;
    in.jump = tick >= 200 && tick < 212;
  } else if (tick < 330) {
    in.use_wish_velocity = true;
    in.wish_velocity = btVector3(-1.25, 0, -2.5);
  } else if (tick < 480) {
    in.yaw_deg = -45.5;
    in.move_right = -1;
    in.move_forward = 0.3;
    in.jump = tick >= 400 && tick < 403;
  } else {
    in.yaw_deg = 180;
    in.move_forward = 0.7;
  }
  return in;
}

}  // namespace stepslide::test
