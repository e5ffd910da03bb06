// The step-up early out (step_up_refused_early) against the full attempt:
// it never refuses a step the three sweeps would accept, and it refuses a
// riser taller than a step whichever point of a flush contact the sweep
// reports.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "controller/internal.h"
#include "controller/step_up_rules.h"
#include "scenario/load/world.h"
#include "stepslide/controller.h"
#include "support/test_bodies.h"

namespace stepslide::test {
namespace {

/// A closed triangle mesh of the box `half` around `center`, turned by `yaw_deg`.
BodyDef mesh_box(Vec3 center, Vec3 half, double yaw_deg) {
  BodyDef b;
  b.shape.type = ShapeType::Mesh;
  for (int i = 0; i < 8; ++i) {
    b.shape.vertices.push_back({(i & 1) ? half[0] : -half[0], (i & 2) ? half[1] : -half[1],
                                (i & 4) ? half[2] : -half[2]});
  }
  // Outward-facing quads as two triangles each.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    b.shape.triangles.push_back({q[0], q[1], q[2]});
    b.shape.triangles.push_back({q[0], q[2], q[3]});
  }
  b.position = center;
  b.rotation_deg = {0, yaw_deg, 0};
  return b;
}

BodyDef riser(bool mesh, double height, double yaw_deg) {
  const Vec3 center{0, height / 2, -1.5};
  const Vec3 half{1.5, height / 2, 0.5};
  if (mesh) return mesh_box(center, half, yaw_deg);
  BodyDef b = box(center, half);
  b.rotation_deg = {0, yaw_deg, 0};
  return b;
}

/// A floor, one riser ahead (toward -Z) and a character of `shape` in it.
struct RiserWorld {
  Scenario scenario;
  std::unique_ptr<World> world;
  std::unique_ptr<CharacterController> controller;

  RiserWorld(BodyDef block, const CharacterShapeDesc& shape, const ControllerSettings& settings = {}) {
    scenario.ticks = 1;
    scenario.world = {floor_at(0), std::move(block)};
    world = std::make_unique<World>(scenario);
    controller = std::make_unique<CharacterController>(world->collision_world(), shape, settings,
                                                       btVector3(0, 1, 0), btVector3(0, -9.81, 0));
  }
  const CharacterContext& ctx() const { return controller->context(); }
};

CharacterShapeDesc character(int kind) {
  CharacterShapeDesc d;
  switch (kind) {
    case 0: d.kind = CharacterShapeDesc::Kind::Capsule; break;
    case 1: d.kind = CharacterShapeDesc::Kind::Sphere; d.radius = 0.4; break;
    case 2: d.kind = CharacterShapeDesc::Kind::Box; d.half_extents = btVector3(0.3, 0.9, 0.25); break;
    default: d.kind = CharacterShapeDesc::Kind::Cylinder; d.radius = 0.35; d.height = 1.7; break;
  }
  return d;
}

const char* kind_name(int kind) {
  static const char* names[] = {"capsule", "sphere", "box", "cylinder"};
  return names[kind];
}

/// Sweeps per tick once the character rests against the riser, pushing into it.
int sweeps_at_rest(BodyDef block, const CharacterShapeDesc& shape) {
  RiserWorld w(std::move(block), shape);
  w.controller->reset(btVector3(0, 0, 0), btVector3(0, 0, 0));
  CharacterInput push;
  push.move_forward = 1;
  for (int tick = 0; tick < 60; ++tick) w.controller->update(push, 1.0 / 60.0);
  w.controller->update(push, 1.0 / 60.0);  // the counts are the tick's own
  EXPECT_LT(w.controller->state().position.z(), -0.5);  // it reached the riser
  return w.ctx().queries->counts().sweeps;
}

// Failed before the fix: 4 sweeps a tick for the capsule, on a box and on a
// mesh (the slide sweep plus the three of a doomed step-up), as the exact
// sweeps report the lowest point of its flush contact with the riser, below
// the step height. One sweep: the slide's, which meets the riser.
TEST(RiserEarlyOut, AtRestAgainstATooTallBoxRiserOnlyTheSlideSweeps) {
  for (int kind = 0; kind < 4; ++kind) {
    EXPECT_LE(sweeps_at_rest(riser(false, 0.5, 0), character(kind)), 1) << kind_name(kind);
  }
}

TEST(RiserEarlyOut, AtRestAgainstATooTallMeshRiserOnlyTheSlideSweeps) {
  for (int kind = 0; kind < 4; ++kind) {
    EXPECT_LE(sweeps_at_rest(riser(true, 0.5, 0), character(kind)), 1) << kind_name(kind);
  }
}

struct Verdicts {
  bool met = false;  ///< the approach sweep met a riser
  bool early = false;
  StepRule full = StepRule::Accepted;
};

/// Walks into the riser along -Z, then asks both the early out and the full
/// attempt (without it) at the contact.
Verdicts verdicts(BodyDef block, const CharacterShapeDesc& shape, double forward) {
  RiserWorld w(std::move(block), shape);
  const CharacterContext& ctx = w.ctx();
  const btVector3 start(0, 0, 0);
  const btVector3 end = start + btVector3(0, 0, -2);
  const SweepHit hit = ctx.queries->sweep(ctx.sweep_shape, ctx.sweep_transform_at(start),
                                          ctx.sweep_transform_at(end).getOrigin());
  Verdicts v;
  if (!hit.hit) return v;
  const btVector3 at = start + (end - start) * hit.fraction;
  if (ctx.is_walkable(hit.normal) || std::fabs(hit.normal.dot(ctx.up)) >= ctx.cos_max_slope) return v;
  v.met = true;
  const btVector3 motion(0, 0, -forward);
  v.early = detail::step_up_refused_early(ctx, at, motion, hit.normal, hit.point);
  v.full = detail::attempt_step_up(ctx, at, motion, hit.normal, hit.point, false).rule;
  return v;
}

// The early out's verdict equals the full attempt's: whenever it refuses,
// the three sweeps refuse too, and every riser taller than the step height
// (by more than the rays' offsets) is refused without them. Over riser
// heights around max_step_height, riser angles, four character shapes,
// boxes and meshes. Failed before the fix on the second half (risers
// between 0.36 and 0.65 m against a capsule reached the sweeps).
TEST(RiserEarlyOut, RefusesExactlyWhatTheSweepsRefuseAsTooTall) {
  const ControllerSettings defaults;
  const double h = defaults.max_step_height;
  const double above = h + detail::kMinStepGain + 1e-3 + 1e-4;  // the rays' height, and a margin
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> height(h - 0.15, h + 0.35);
  std::uniform_real_distribution<double> yaw(-35, 35);
  std::uniform_real_distribution<double> forward(0.02, 0.12);
  int refused_early = 0, accepted = 0, cases = 0;
  for (int i = 0; i < 240; ++i) {
    const int kind = i % 4;
    const bool mesh = (i / 4) % 2 == 1;
    const double riser_height = height(rng);
    const double riser_yaw = yaw(rng);
    const Verdicts v = verdicts(riser(mesh, riser_height, riser_yaw), character(kind), forward(rng));
    if (!v.met) continue;
    ++cases;
    const std::string what = std::string(kind_name(kind)) + (mesh ? " mesh" : " box") + " riser " +
                             std::to_string(riser_height) + " m, yaw " + std::to_string(riser_yaw) +
                             ", full attempt " + step_rule_name(v.full);
    if (v.early) {
      ++refused_early;
      EXPECT_NE(v.full, StepRule::Accepted) << "early out refused a step the sweeps accept: " << what;
    }
    if (riser_height > above) {
      EXPECT_TRUE(v.early) << "too tall, yet the sweeps ran: " << what;
    }
    if (v.full == StepRule::Accepted) ++accepted;
    if (riser_height > h + detail::kMinStepGain) {
      EXPECT_NE(v.full, StepRule::Accepted) << what;
    }
  }
  // Both verdicts occur: the family straddles the step height.
  EXPECT_GT(cases, 200);
  EXPECT_GT(refused_early, 40);
  EXPECT_GT(accepted, 40);
}

// An upright capsule touches any vertical face flush: the closest points
// form a vertical segment, and any point of it is a valid contact (the exact
// sweeps report the lowest, Bullet's GJK some other). The early out's
// verdict is the same from every point of it. Failed before the fix: from
// the lowest points of a 0.4-0.6 m riser it let the sweeps run, from the
// highest it refused.
TEST(RiserEarlyOut, SameVerdictFromAnyPointOfAFlushContact) {
  const CharacterShapeDesc capsule;  // r 0.3, h 1.8
  int flush = 0;
  for (const bool mesh : {false, true}) {
    for (double height = 0.2; height < 1.2; height += 0.05) {
      for (const double yaw_deg : {0.0, 20.0, -30.0}) {
        RiserWorld w(riser(mesh, height, yaw_deg), capsule);
        const CharacterContext& ctx = w.ctx();
        const btVector3 end(0, 0, -2);
        const SweepHit hit = ctx.queries->sweep(ctx.sweep_shape, ctx.sweep_transform_at(btVector3(0, 0, 0)),
                                                ctx.sweep_transform_at(end).getOrigin());
        ASSERT_TRUE(hit.hit);
        if (std::fabs(hit.normal.dot(ctx.up)) > 1e-9) continue;  // on the top edge: not flush
        ++flush;
        const btVector3 at = end * hit.fraction;
        const btVector3 motion(0, 0, -0.05);
        // The grown capsule's straight side, clipped to the riser.
        const double grown = capsule.radius + ctx.settings->skin_width;
        const double low = grown;
        const double high = std::min(height, capsule.height - grown);
        const bool reported = detail::step_up_refused_early(ctx, at, motion, hit.normal, hit.point);
        for (int k = 0; k <= 4; ++k) {
          btVector3 point = hit.point;
          point.setY(low + (high - low) * k / 4.0);
          EXPECT_EQ(detail::step_up_refused_early(ctx, at, motion, hit.normal, point), reported)
              << (mesh ? "mesh" : "box") << " riser " << height << " m, yaw " << yaw_deg << ", point at y "
              << point.y();
        }
      }
    }
  }
  EXPECT_GT(flush, 80);
}

}  // namespace
}  // namespace stepslide::test
