// CharacterController::set_shape: the character switches shape only where
// the new shape fits, and the ticks afterwards use the new one.
#include <gtest/gtest.h>

#include <vector>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

CharacterShapeDesc capsule(double height) {
  CharacterShapeDesc shape;
  shape.height = height;
  return shape;
}

TEST(ShapeChange, FitsInTheOpen) {
  Rig rig({floor_at(0)});
  rig.place(btVector3(0, 0.01, 0));  // a skin above the floor
  const ShapeChangeResult crouched = rig.controller->set_shape(capsule(1.0), 0.0);
  EXPECT_TRUE(crouched.changed) << crouched.reason;
  EXPECT_EQ(rig.controller->shape().height, 1.0);
  const ShapeChangeResult stood = rig.controller->set_shape(capsule(1.8), 0.0);
  EXPECT_TRUE(stood.changed) << stood.reason;
  EXPECT_EQ(rig.controller->shape().height, 1.8);
}

TEST(ShapeChange, RefusedUnderALowCeilingWithTheReason) {
  // A ceiling 1.2 m above the floor: a 1.0 m capsule fits, a 1.8 m one not.
  Rig rig({floor_at(0), box({0, 1.4, 0}, {3, 0.2, 3})});
  rig.place(btVector3(0, 0.01, 0));  // a skin above the floor
  ASSERT_TRUE(rig.controller->set_shape(capsule(1.0), 0.0).changed);
  const ShapeChangeResult stood = rig.controller->set_shape(capsule(1.8), 0.0);
  EXPECT_FALSE(stood.changed);
  EXPECT_GT(stood.penetration, 0.5);
  EXPECT_NE(stood.reason.find("overlap the world"), std::string::npos) << stood.reason;
  EXPECT_EQ(rig.controller->shape().height, 1.0);
  // Allowed to overlap that deep, it changes.
  EXPECT_TRUE(rig.controller->set_shape(capsule(1.8), 1.0).changed);
}

TEST(ShapeChange, TheTicksAfterwardsUseTheNewShape) {
  // A ledge 1.4 m up ahead: standing, the character is stopped by it;
  // crouched (1.0 m) it walks under.
  const auto walk = [](bool crouch) {
    Rig rig({floor_at(0), box({0, 1.6, -3}, {3, 0.2, 1})});
    rig.place(btVector3(0, 0.01, 0));  // a skin above the floor
    if (crouch) {
      EXPECT_TRUE(rig.controller->set_shape(capsule(1.0), 0.0).changed);
    }
    CharacterInput input;
    input.move_forward = 1.0;
    for (int tick = 0; tick < 180; ++tick) rig.controller->update(input, kDt60);
    return rig.controller->state().position;
  };
  EXPECT_GT(walk(false).z(), -2.1);
  EXPECT_LT(walk(true).z(), -4.0);
}

// The camera follows the stance as it follows a step: a change of shape
// moves camera_dy by the change in height (the eye, placed from the shape's
// top, stays where it was), and the offset decays as after a step.
TEST(ShapeChange, TheCameraOffsetAbsorbsAChangeOfStanceAndDecays) {
  Rig rig({floor_at(0), box({0, 1.4, 0}, {3, 0.2, 3})});
  rig.place(btVector3(0, 0.01, 0));  // a skin above the floor
  const double before = rig.controller->state().camera_dy;
  ASSERT_TRUE(rig.controller->set_shape(capsule(1.0), 0.0).changed);
  EXPECT_DOUBLE_EQ(rig.controller->state().camera_dy, before + 0.8);
  // A refused stand-up leaves it alone.
  ASSERT_FALSE(rig.controller->set_shape(capsule(1.8), 0.0).changed);
  EXPECT_DOUBLE_EQ(rig.controller->state().camera_dy, before + 0.8);
  double last = rig.controller->state().camera_dy;
  for (int tick = 0; tick < 30; ++tick) {
    rig.controller->update(CharacterInput{}, kDt60);
    const double now = rig.controller->state().camera_dy;
    EXPECT_LT(now, last);
    EXPECT_GE(now, 0.0);
    last = now;
  }
  EXPECT_LT(last, 0.8 * 0.01);
}

TEST(ShapeChange, AskingForTheCurrentShapeChangesNothing) {
  Rig rig({floor_at(0)});
  rig.place(btVector3(0, 0.01, 0));  // a skin above the floor
  const ShapeChangeResult same = rig.controller->set_shape(CharacterShapeDesc{}, 0.0);
  EXPECT_FALSE(same.changed);
  EXPECT_TRUE(same.reason.empty());
}

TEST(ShapeChange, TheObserverSeesChangesAndRefusals) {
  struct Shapes : ControllerObserver {
    std::vector<ShapeChangeEvent> seen;
    void on_shape_change(const ShapeChangeEvent& e) override { seen.push_back(e); }
  } observer;
  Rig rig({floor_at(0), box({0, 1.4, 0}, {3, 0.2, 3})});
  rig.place(btVector3(0, 0.01, 0));
  rig.controller->set_observer(&observer);
  rig.controller->set_shape(capsule(1.0), 0.0);
  rig.controller->set_shape(capsule(1.8), 0.0);
  rig.controller->set_shape(capsule(1.0), 0.0);  // already that shape: no event
  ASSERT_EQ(observer.seen.size(), 2u);
  EXPECT_TRUE(observer.seen[0].changed);
  EXPECT_EQ(observer.seen[0].new_height, 1.0);
  EXPECT_FALSE(observer.seen[1].changed);
  EXPECT_EQ(observer.seen[1].old_height, 1.0);
  EXPECT_EQ(observer.seen[1].new_height, 1.8);
  EXPECT_GT(observer.seen[1].penetration, 0.5);
}

TEST(ShapeChange, ASnapshotCarriesTheShape) {
  Rig rig({floor_at(0)});
  rig.place(btVector3(0, 0.01, 0));
  const ControllerSnapshot standing = rig.controller->save_state();
  ASSERT_TRUE(rig.controller->set_shape(capsule(1.0), 0.0).changed);
  const ControllerSnapshot crouched = rig.controller->save_state();
  EXPECT_FALSE(same_snapshot(standing, crouched));
  rig.controller->restore_state(standing);
  EXPECT_EQ(rig.controller->shape().height, 1.8);
  EXPECT_TRUE(same_snapshot(rig.controller->save_state(), standing));
  rig.controller->restore_state(crouched);
  EXPECT_EQ(rig.controller->shape().height, 1.0);
}

}  // namespace
}  // namespace stepslide::test
