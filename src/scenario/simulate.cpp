#include "scenario/simulate.h"

#include "scenario/convert.h"

#include <chrono>
#include <cmath>
#include <sstream>
#include <type_traits>

#include "stepslide/controller.h"
#include "scenario/reference_controller.h"
#include "scenario/world.h"

namespace stepslide {

namespace {

CharacterShapeDesc character_shape(const ShapeDef& def) {
  CharacterShapeDesc desc;
  desc.radius = def.radius;
  desc.height = def.height;
  desc.half_extents = to_bt(def.half_extents);
  switch (def.type) {
    case ShapeType::Sphere: desc.kind = CharacterShapeDesc::Kind::Sphere; break;
    case ShapeType::Cylinder: desc.kind = CharacterShapeDesc::Kind::Cylinder; break;
    case ShapeType::Box: desc.kind = CharacterShapeDesc::Kind::Box; break;
    default: desc.kind = CharacterShapeDesc::Kind::Capsule; break;
  }
  return desc;
}

/// Keyframed input: a field keeps its value until a later keyframe changes it;
/// `move` and `wish_velocity` clear each other.
class InputTrack {
 public:
  explicit InputTrack(const std::vector<InputKey>& keys) : keys_(keys) {}

  const CharacterInput& at(std::int64_t tick) {
    while (next_ < keys_.size() && keys_[next_].tick <= tick) apply(keys_[next_++]);
    return current_;
  }

 private:
  void apply(const InputKey& key) {
    if (key.move) {
      current_.move_right = (*key.move)[0];
      current_.move_forward = (*key.move)[1];
      current_.use_wish_velocity = false;
    }
    if (key.wish_velocity) {
      current_.wish_x = (*key.wish_velocity)[0];
      current_.wish_z = (*key.wish_velocity)[1];
      current_.use_wish_velocity = true;
      current_.move_right = current_.move_forward = 0.0;
    }
    if (key.yaw_deg) current_.yaw_deg = *key.yaw_deg;
    if (key.jump) current_.jump = *key.jump;
  }

  const std::vector<InputKey>& keys_;
  std::size_t next_ = 0;
  CharacterInput current_;
};

/// Columns after SPEC §2's fixed ones: whether the character was stuck
/// (could not be pushed clear: crushed or wedged), which body it stands on
/// (index into the scenario's world, -1 for none) and where its feet are in
/// that body's frame, so riding a platform reads as a steady local position.
const std::vector<std::string>& extension_columns() {
  static const std::vector<std::string> columns = {"stuck", "ground_body", "local_x", "local_y", "local_z"};
  return columns;
}

std::vector<double> row_of(std::int64_t tick, int tick_rate, const CharacterState& s, const TickReport& report,
                           const World& world) {
  int ground_body = -1;
  btVector3 local(0, 0, 0);
  if (s.grounded && s.ground_object != nullptr && s.ground_object->getUserIndex() >= 0) {
    ground_body = s.ground_object->getUserIndex();
    local = world.body_pose(static_cast<std::size_t>(ground_body), tick).inverse() * s.position;
  }
  return {static_cast<double>(tick),
          static_cast<double>(tick) / tick_rate,
          s.position.x(),
          s.position.y(),
          s.position.z(),
          s.velocity.x(),
          s.velocity.y(),
          s.velocity.z(),
          s.grounded ? 1.0 : 0.0,
          s.ground_normal.x(),
          s.ground_normal.y(),
          s.ground_normal.z(),
          report.step_dy,
          s.camera_dy,
          static_cast<double>(report.sweeps),
          static_cast<double>(report.slide_iters),
          static_cast<double>(report.depen_iters),
          report.depenetration_converged ? 0.0 : 1.0,
          static_cast<double>(ground_body),
          local.x(),
          local.y(),
          local.z()};
}

std::string number(double v) { return format_number(v); }

void check_expectations(const Scenario& scenario, const Trajectory& t, const std::vector<double>& penetration,
                        std::vector<ExpectationFailure>& failures) {
  const int x = t.column_index("x"), y = t.column_index("y"), z = t.column_index("z");
  const int grounded = t.column_index("grounded");
  const int stuck = t.column_index("stuck");
  const std::int64_t last_tick = scenario.ticks;
  for (const ExpectCheck& check : scenario.expect) {
    auto fail = [&](std::int64_t tick, const std::string& message) {
      failures.push_back({check.json_path, tick, message});
    };
    switch (check.kind) {
      case ExpectCheck::Kind::Position: {
        const std::int64_t tick = check.tick_is_end ? last_tick : check.tick;
        const auto& row = t.rows[static_cast<std::size_t>(tick)];
        const double actual[3] = {row[static_cast<std::size_t>(x)], row[static_cast<std::size_t>(y)],
                                  row[static_cast<std::size_t>(z)]};
        double squared = 0.0;
        for (int i = 0; i < 3; ++i) {
          if (check.position[static_cast<std::size_t>(i)]) {
            const double d = actual[i] - *check.position[static_cast<std::size_t>(i)];
            squared += d * d;
          }
        }
        const double distance = std::sqrt(squared);
        if (!(distance <= check.tolerance)) {
          std::ostringstream m;
          m << "feet at (" << number(actual[0]) << ", " << number(actual[1]) << ", " << number(actual[2])
            << ") are " << number(distance) << " m from the expected position, more than the tolerance "
            << number(check.tolerance);
          fail(tick, m.str());
        }
        break;
      }
      case ExpectCheck::Kind::Grounded:
      case ExpectCheck::Kind::Stuck:
      case ExpectCheck::Kind::YBetween:
      case ExpectCheck::Kind::MaxPenetration: {
        const std::int64_t last = check.last_is_end ? last_tick : check.last;
        for (std::int64_t tick = check.first; tick <= last; ++tick) {
          const auto& row = t.rows[static_cast<std::size_t>(tick)];
          std::ostringstream m;
          if (check.kind == ExpectCheck::Kind::Grounded || check.kind == ExpectCheck::Kind::Stuck) {
            const bool is_grounded = check.kind == ExpectCheck::Kind::Grounded;
            const char* flag = is_grounded ? "grounded" : "stuck";
            const bool want = is_grounded ? check.grounded : check.stuck;
            const bool is = row[static_cast<std::size_t>(is_grounded ? grounded : stuck)] != 0.0;
            if (is == want) continue;
            m << "expected " << flag << " " << (want ? "true" : "false") << ", got " << (is ? "true" : "false");
          } else if (check.kind == ExpectCheck::Kind::YBetween) {
            const double feet = row[static_cast<std::size_t>(y)];
            if (feet >= check.y_lo && feet <= check.y_hi) continue;
            m << "feet height " << number(feet) << " outside [" << number(check.y_lo) << ", " << number(check.y_hi)
              << "]";
          } else {
            const double depth = penetration[static_cast<std::size_t>(tick)];
            if (depth <= check.max_penetration) continue;
            m << "shape overlaps the world by " << number(depth) << " m, more than " << number(check.max_penetration);
          }
          fail(tick, m.str());
          break;  // the first failing tick of a range says enough
        }
        break;
      }
    }
  }
}

}  // namespace

const char* controller_name(ControllerKind kind) {
  return kind == ControllerKind::Bullet ? "bullet" : "stepslide";
}

std::optional<ControllerKind> controller_from_name(const std::string& name) {
  for (ControllerKind kind : {ControllerKind::Stepslide, ControllerKind::Bullet}) {
    if (name == controller_name(kind)) return kind;
  }
  return std::nullopt;
}

namespace {

/// Runs `controller` (ours or the reference) through the scenario in `world`.
template <class Controller>
SimulationResult run_ticks(const Scenario& scenario, const SimulationOptions& options, World& world,
                           Controller& controller) {
  using Clock = std::chrono::steady_clock;
  constexpr bool kOurs = std::is_same_v<Controller, CharacterController>;
  SimulationResult result;
  controller.reset(to_bt(scenario.character.position), to_bt(scenario.character.velocity));

  bool measure_penetration = options.always_measure_penetration;
  for (const ExpectCheck& check : scenario.expect) {
    measure_penetration |= check.kind == ExpectCheck::Kind::MaxPenetration;
  }
  std::vector<double> penetration;

  Trajectory& t = result.trajectory;
  t.columns = fixed_columns();
  t.columns.insert(t.columns.end(), extension_columns().begin(), extension_columns().end());
  t.rows.reserve(static_cast<std::size_t>(scenario.ticks) + 1);
  t.rows.push_back(row_of(0, scenario.tick_rate, controller.state(), TickReport{}, world));
  if (measure_penetration) penetration.push_back(controller.penetration_depth());

  InputTrack input(scenario.input);
  if constexpr (kOurs) {
    if (options.on_tick) {
      const TickReport none;
      options.on_tick(TickView{0, world, controller, input.at(0), none});
    }
  }
  const double dt = 1.0 / scenario.tick_rate;
  for (std::int64_t tick = 0; tick < scenario.ticks; ++tick) {
    // The world moves first, then the character (SPEC §1.1).
    world.set_time(tick + 1);
    const Clock::time_point start = options.measure_time ? Clock::now() : Clock::time_point{};
    const TickReport report = controller.update(input.at(tick), dt);
    if (options.measure_time) result.update_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    result.total_sweeps += report.sweeps;
    t.rows.push_back(row_of(tick + 1, scenario.tick_rate, controller.state(), report, world));
    if (measure_penetration) penetration.push_back(controller.penetration_depth());
    if constexpr (kOurs) {
      if (options.on_tick) options.on_tick(TickView{tick + 1, world, controller, input.at(tick), report});
    }
  }
  check_expectations(scenario, t, penetration, result.expectation_failures);
  return result;
}

}  // namespace

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options) {
  World world(scenario);
  const CharacterShapeDesc shape = character_shape(scenario.character.shape);
  if (options.controller == ControllerKind::Bullet) {
    ReferenceController reference(world.collision_world(), shape, scenario.character.settings, to_bt(scenario.up),
                                  to_bt(scenario.gravity));
    return run_ticks(scenario, options, world, reference);
  }
  CharacterController controller(world.collision_world(), shape, scenario.character.settings, to_bt(scenario.up),
                                 to_bt(scenario.gravity));
  return run_ticks(scenario, options, world, controller);
}

}  // namespace stepslide
