#include "capture/scenario_writer.h"

#include <cmath>

#include "capture/exact_fit.h"
#include "capture/json_text.h"
#include "capture/shape_text.h"
#include "capture/window.h"
#include "capture/world_bodies.h"
#include "stepslide/math.h"

namespace stepslide::capture {

namespace {

// The loader's limits (src/scenario/scenario.h ScenarioLimits).
constexpr double kMaxSpeed = 1e4;
constexpr double kMaxCoordinate = 1e6;
constexpr double kMaxAngleDeg = 1e6;
constexpr long long kMaxTriangles = 2000000;

std::string vec(const btVector3& v) { return json_numbers({v.x(), v.y(), v.z()}); }
std::string vec(const Vec3& v) { return json_numbers({v[0], v[1], v[2]}); }

void not_exact(CaptureSummary& summary, const std::string& note) {
  summary.exact = false;
  summary.notes.push_back(note);
}

std::string settings_json(const ControllerSettings& settings) {
  JsonList out(JsonList::Kind::Object, true, 2);
  for (const SettingInfo& info : setting_table()) {
    const double value = get_setting(settings, info);
    out.member(info.name, info.is_integer ? json_integer(static_cast<long long>(value)) : json_number(value));
  }
  return out.text();
}

/// The loader normalises `up`, then the controller does (docs/format.md §1).
bool up_survives(const btVector3& up) {
  const double len = std::sqrt(up.x() * up.x() + up.y() * up.y() + up.z() * up.z());
  const btVector3 loaded(up.x() / len, up.y() / len, up.z() / len);
  const btVector3 controller = loaded.normalized();
  return controller.x() == up.x() && controller.y() == up.y() && controller.z() == up.z();
}

/// `character.state`: what reset() cannot know, where it is not the default.
std::string state_json(const CharacterState& start) {
  JsonList state(JsonList::Kind::Object, false);
  if (start.grounded) state.member("ground_normal", vec(start.ground_normal));
  if (start.camera_dy != 0.0) state.member("camera_dy", json_number(start.camera_dy));
  if (start.jump_was_held) state.member("jump_held", "true");
  if (start.ground_yaw_deg != 0.0) state.member("ground_yaw_deg", json_number(start.ground_yaw_deg));
  return state.text();
}

std::string character_json(const ScenarioSource& src, const CharacterState& start) {
  const CharacterShapeDesc& s = src.shape;
  JsonList character(JsonList::Kind::Object, true, 1);
  character.member("shape", character_shape_json(static_cast<int>(s.kind), s.radius, s.height, s.half_extents))
      .member("position", vec(start.position))
      .member("velocity", vec(start.velocity))
      .member("settings", settings_json(src.settings));
  const std::string state = state_json(start);
  if (state != "{}") character.member("state", state);
  return character.text();
}

/// A number member only where it is not the format's default.
void member_unless(JsonList& list, const char* key, double value, double default_value) {
  if (value != default_value) list.member(key, json_number(value));
}

std::string pose_note(int index, const char* what) {
  return "/world/" + std::to_string(index) + ": " + what + " is not rebuilt exactly by the loader's degrees";
}

/// A static body: its shape at its pose. A compound's children become a
/// body each, at the pose Bullet's queries give them (the body's pose times
/// the child's): the format has no compounds.
int fixed_body(const btCollisionObject& material, const btCollisionShape& collision_shape, const btTransform& pose_now,
               int index, JsonList& world, CaptureSummary& summary, long long& triangles) {
  if (collision_shape.getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
    const auto& compound = static_cast<const btCompoundShape&>(collision_shape);
    int written = 0;
    for (int i = 0; i < compound.getNumChildShapes(); ++i) {
      written += fixed_body(material, *compound.getChildShape(i), pose_now * compound.getChildTransform(i),
                            index + written, world, summary, triangles);
    }
    return written;
  }
  const ShapeText shape = shape_text(collision_shape);
  triangles += shape.triangles;
  if (!shape.supported) {
    ++summary.skipped_bodies;
    not_exact(summary, "a body near the path was left out: " + shape.note);
    return 0;
  }
  if (!shape.exact) not_exact(summary, "/world/" + std::to_string(index) + ": " + shape.note);
  const PoseText pose = fit_pose(pose_now);
  if (!pose.exact) not_exact(summary, pose_note(index, "its pose"));
  JsonList item(JsonList::Kind::Object, false);
  item.member("shape", shape.json).member("position", vec(pose.position)).member("rotation_deg", vec(pose.rotation_deg));
  // Only dynamic bodies read them (Bullet multiplies the two bodies' values at a contact).
  member_unless(item, "friction", material.getFriction(), 0.5);
  member_unless(item, "restitution", material.getRestitution(), 0.0);
  world.item(item.text());
  ++summary.static_bodies;
  return 1;
}

/// A moving body: its pose at row 0, then one key per tick (the loader
/// interpolates with u = 1 from the key before, which fit_key allows for);
/// one key holding still when it never moved.
bool moving_body(const ScenarioSource& src, const Window& w, const btCollisionObject& object, int index,
                 JsonList& world, CaptureSummary& summary) {
  const ShapeText shape = shape_text(*object.getCollisionShape());
  if (!shape.supported || shape.triangles > 0) {
    ++summary.skipped_bodies;
    not_exact(summary, "a moving body near the path was left out: " +
                           (shape.supported ? std::string("meshes are static only") : shape.note));
    return false;
  }
  if (!shape.exact) not_exact(summary, "/world/" + std::to_string(index) + ": " + shape.note);
  const PoseText start = fit_pose(pose_in(src.rows[w.first], &object)->transform);
  if (!start.exact) not_exact(summary, pose_note(index, "its first pose"));
  bool moved = false;
  for (std::size_t i = w.first + 1; i <= w.last && !moved; ++i) {
    const CapturedPose* pose = pose_in(src.rows[i], &object);
    moved = !same_transform(pose->transform, pose_in(src.rows[w.first], &object)->transform);
  }
  JsonList keys(JsonList::Kind::Array, true, 4);
  PoseText previous = start;
  int inexact_keys = 0, inexact_before = 0;
  for (std::size_t i = w.first + 1; i <= w.last; ++i) {
    const std::int64_t tick = static_cast<std::int64_t>(i - w.first);
    if (!moved && i != w.last) continue;
    const CapturedPose& pose = *pose_in(src.rows[i], &object);
    const CapturedPose& before = *pose_in(src.rows[i - 1], &object);
    const PoseText key = moved ? fit_key(previous, pose.transform) : start;
    if (moved && !key.exact) ++inexact_keys;
    if (!same_transform(pose.interpolation, before.transform)) ++inexact_before;
    keys.item(JsonList(JsonList::Kind::Object, false)
                  .member("tick", json_integer(tick))
                  .member("position", vec(key.position))
                  .member("rotation_deg", vec(key.rotation_deg))
                  .text());
    previous = key;
  }
  if (inexact_keys > 0) not_exact(summary, pose_note(index, (std::to_string(inexact_keys) + " keyframe poses").c_str()));
  if (inexact_before > 0) {
    not_exact(summary, "/world/" + std::to_string(index) + ": on " + std::to_string(inexact_before) +
                           " ticks its interpolation transform was not its pose of the tick before (see the game-loop contract)");
  }
  if (!object.isKinematicObject()) {
    for (std::size_t i = w.first; i <= w.last; ++i) {
      if (src.rows[i].snapshot.state.ground_object == &object) {
        not_exact(summary, "/world/" + std::to_string(index) +
                               "]: a dynamic body, replayed as kinematic, and the character stood on it");
        break;
      }
    }
  }
  world.item(JsonList(JsonList::Kind::Object, true, 2)
                 .member("shape", shape.json)
                 .member("position", vec(start.position))
                 .member("rotation_deg", vec(start.rotation_deg))
                 .member("motion", JsonList(JsonList::Kind::Object, true, 3)
                                       .member("type", "\"keyframes\"")
                                       .member("keys", keys.text())
                                       .text())
                 .text());
  ++summary.moving_bodies;
  return true;
}

/// A dynamic body (a btRigidBody with a mass): its state at the window's
/// first row (shape, pose, mass, friction, restitution, damping,
/// velocities), for the scenario's dynamics world to simulate from there.
/// Named dynamic<N> (a dynamic body's columns are named after it).
bool dynamic_body_item(const ScenarioSource& src, const Window& w, const btRigidBody& body, int index, int number,
                       JsonList& world, CaptureSummary& summary) {
  const ShapeText shape = shape_text(*body.getCollisionShape());
  if (!shape.supported || shape.triangles > 0) {
    ++summary.skipped_bodies;
    not_exact(summary, "a dynamic body near the path was left out: " +
                           (shape.supported ? std::string("meshes are static only") : shape.note));
    return false;
  }
  const std::string at = "/world/" + std::to_string(index) + ": ";
  if (!shape.exact) not_exact(summary, at + shape.note);
  const CapturedPose& first = *pose_in(src.rows[w.first], &body);
  const PoseText start = fit_pose(first.transform);
  if (!start.exact) not_exact(summary, pose_note(index, "its first pose"));
  const double mass = 1.0 / body.getInvMass();
  if (1.0 / mass != body.getInvMass()) not_exact(summary, at + "its mass, written as 1 / its inverse mass, does not give that inverse mass back");
  // The scenario world steps its dynamic bodies itself (docs/format.md §1.1,
  // src/dynamics/: its own contacts, solver and integration, the same bits on
  // every CPU), not with the game's Bullet dynamics: the same rules, not the
  // same bits.
  not_exact(summary, at + "a dynamic body is stepped by the scenario world's own dynamics, not by the game's "
                          "(Bullet's solver): it and the character where they meet follow it closely, not to the bit");
  if (!same_vector(body.getGravity(), src.context.gravity)) {
    not_exact(summary, at + "its gravity is not the world's (the scenario world gives every body its gravity)");
  }
  if (src.rows[w.first].tick > 0) {  // not the recorder's first row
    not_exact(summary, at + "a dynamic body restarts from its state at the window's first row: the contacts and "
                            "solver state Bullet kept from before are not in the scenario");
  }
  JsonList item(JsonList::Kind::Object, true, 2);
  item.member("name", json_string("dynamic" + std::to_string(number)))
      .member("shape", shape.json)
      .member("position", vec(start.position))
      .member("rotation_deg", vec(start.rotation_deg))
      .member("mass", json_number(mass));
  member_unless(item, "friction", body.getFriction(), 0.5);
  member_unless(item, "restitution", body.getRestitution(), 0.0);
  member_unless(item, "linear_damping", body.getLinearDamping(), 0.0);
  member_unless(item, "angular_damping", body.getAngularDamping(), 0.0);
  if (!first.linear_velocity.isZero()) item.member("velocity", vec(first.linear_velocity));
  if (!first.angular_velocity.isZero()) item.member("angular_velocity", vec(first.angular_velocity));
  world.item(item.text());
  ++summary.dynamic_bodies;
  return true;
}

/// The input as the replay's keyframes rebuild it (simulate.cpp InputTrack):
/// the stick only counts without a wished velocity.
struct Replayed {
  bool wish = false;
  double right = 0, forward = 0, wish_x = 0, wish_z = 0, yaw = 0;
  bool jump = false;
};

bool same_number(double a, double b) { return a == b && std::signbit(a) == std::signbit(b); }

Status check_input(const CharacterInput& in, std::int64_t tick) {
  const std::string at = "input of tick " + std::to_string(tick) + ": ";
  if (!std::isfinite(in.yaw_deg) || std::fabs(in.yaw_deg) > kMaxAngleDeg) {
    return Status::failure(at + "yaw_deg " + json_number(in.yaw_deg) + " is not a finite angle within 1e6 degrees");
  }
  if (in.use_wish_velocity) {
    if (!(std::fabs(in.wish_velocity.x()) <= kMaxSpeed && std::fabs(in.wish_velocity.z()) <= kMaxSpeed)) {
      return Status::failure(at + "wish velocity beyond 1e4 m/s (the scenario format's limit)");
    }
  } else if (!(std::fabs(in.move_right) <= 1 && std::fabs(in.move_forward) <= 1)) {
    return Status::failure(at + "stick [" + json_number(in.move_right) + ", " + json_number(in.move_forward) +
                           "] outside [-1, 1] (the scenario format's range)");
  }
  return Status();
}

Expected<std::string> input_json(const ScenarioSource& src, const Window& w) {
  JsonList keys(JsonList::Kind::Array, true, 1);
  Replayed now;
  for (std::size_t i = w.first + 1; i <= w.last; ++i) {
    const std::int64_t tick = static_cast<std::int64_t>(i - 1 - w.first);
    const CharacterInput& in = src.rows[i].input;
    const Status valid = check_input(in, tick);
    if (!valid) return Expected<std::string>::failure(valid);
    JsonList key(JsonList::Kind::Object, false);
    key.member("tick", json_integer(tick));
    bool changed = false;
    if (in.use_wish_velocity && (!now.wish || !same_number(in.wish_velocity.x(), now.wish_x) || !same_number(in.wish_velocity.z(), now.wish_z))) {
      key.member("wish_velocity", json_numbers({in.wish_velocity.x(), in.wish_velocity.z()}));
      now.wish = true;
      now.wish_x = in.wish_velocity.x();
      now.wish_z = in.wish_velocity.z();
      now.right = now.forward = 0.0;
      changed = true;
    } else if (!in.use_wish_velocity &&
               (now.wish || !same_number(in.move_right, now.right) || !same_number(in.move_forward, now.forward))) {
      key.member("move", json_numbers({in.move_right, in.move_forward}));
      now.wish = false;
      now.right = in.move_right;
      now.forward = in.move_forward;
      changed = true;
    }
    if (!same_number(in.yaw_deg, now.yaw)) {
      key.member("yaw_deg", json_number(in.yaw_deg));
      now.yaw = in.yaw_deg;
      changed = true;
    }
    if (in.jump != now.jump) {
      key.member("jump", in.jump ? "true" : "false");
      now.jump = in.jump;
      changed = true;
    }
    if (changed) keys.item(key.text());
  }
  return keys.text();
}

/// The start and end states must be numbers the format takes.
Status check_state(const CharacterState& s, std::int64_t tick) {
  const std::string at = "the character's state at tick " + std::to_string(tick) + ": ";
  for (const btVector3* v : {&s.position, &s.velocity, &s.ground_normal}) {
    for (int i = 0; i < 3; ++i) {
      if (!std::isfinite((*v)[i])) return Status::failure(at + "not a finite number");
    }
  }
  if (!std::isfinite(s.camera_dy) || !std::isfinite(s.ground_yaw_deg)) return Status::failure(at + "not a finite number");
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(s.position[i]) > kMaxCoordinate || std::fabs(s.camera_dy) > kMaxCoordinate) {
      return Status::failure(at + "beyond 1e6 m, the format's limit for a coordinate");
    }
    if (std::fabs(s.velocity[i]) > kMaxSpeed) return Status::failure(at + "faster than 1e4 m/s, the format's speed limit");
  }
  if (std::fabs(s.ground_yaw_deg) > kMaxAngleDeg) return Status::failure(at + "ground yaw beyond 1e6 degrees");
  return Status();
}

}  // namespace

Expected<std::string> scenario_json(const ScenarioSource& src, const Window& w, CaptureSummary& summary) {
  const CapturedTick& start = src.rows[w.first];
  const CapturedTick& end = src.rows[w.last];
  summary.first_tick = start.tick;
  summary.last_tick = end.tick;
  summary.ticks = end.tick - start.tick;
  summary.tick_rate = w.tick_rate;
  summary.late_start = w.late_start;
  if (!up_survives(src.context.up)) not_exact(summary, "up " + vec(src.context.up) + " changes when normalised again");
  if (w.skipped_absent > 0) {
    summary.skipped_bodies += w.skipped_absent;
    not_exact(summary, std::to_string(w.skipped_absent) + " moving bodies near the path were left out: not in the world for the whole window");
  }

  if (src.config.level_file.empty() != !src.config.in_level_file) {
    return Expected<std::string>::failure(
        "CaptureConfig: level_file and in_level_file go together (the level file's bodies, and which objects they are)");
  }
  for (const CapturedTick* row : {&start, &end}) {
    const Status valid = check_state(row->snapshot.state, row->tick);
    if (!valid) return Expected<std::string>::failure(valid);
  }
  const Expected<std::string> input = input_json(src, w);
  if (!input) return input;

  JsonList world(JsonList::Kind::Array, true, 1);
  int index = 0;
  if (!src.config.level_file.empty()) {
    world.item(JsonList(JsonList::Kind::Object, false).member("include", json_string(src.config.level_file)).text());
    index = 1;  // notes name items of the file's "world" by JSON Pointer
  }
  long long triangles = 0;
  for (const btCollisionObject* object : w.fixed) {
    index += fixed_body(*object, *object->getCollisionShape(), object->getWorldTransform(), index, world, summary,
                        triangles);
  }
  int dynamic = 0;
  for (const btCollisionObject* object : w.moving) {
    if (const btRigidBody* body = dynamic_body(*object)) {
      if (dynamic_body_item(src, w, *body, index, dynamic, world, summary)) {
        ++index;
        ++dynamic;
      }
      continue;
    }
    if (moving_body(src, w, *object, index, world, summary)) ++index;
  }
  if (triangles > kMaxTriangles) {
    return Expected<std::string>::failure(std::to_string(triangles) + " mesh triangles near the path, more than a scenario's " +
                                          std::to_string(kMaxTriangles) + ": give the level as a level file (CaptureConfig::level_file)");
  }

  std::string description = src.config.description;
  if (description.empty()) {
    description = "Captured from a game: its ticks " + std::to_string(start.tick) + " to " + std::to_string(end.tick) +
                  " (stepslide::CaptureRecorder).";
  }
  const JsonList expect = JsonList(JsonList::Kind::Array, true, 1)
                              .item(JsonList(JsonList::Kind::Object, false)
                                        .member("tick", "\"end\"")
                                        .member("position", vec(end.snapshot.state.position))
                                        .member("tolerance", json_number(src.config.end_tolerance))
                                        .text());
  return JsonList(JsonList::Kind::Object, true, 0)
             .member("format", "\"stepslide/scenario@1\"")
             .member("name", json_string(src.config.name))
             .member("description", json_string(description))
             .member("tick_rate", json_integer(w.tick_rate))
             .member("ticks", json_integer(summary.ticks))
             .member("gravity", vec(src.context.gravity))
             .member("up", vec(src.context.up))
             .member("character", character_json(src, start.snapshot.state))
             .member("world", world.text())
             .member("input", *input)
             .member("expect", expect.text())
             .text() +
         "\n";
}

}  // namespace stepslide::capture
