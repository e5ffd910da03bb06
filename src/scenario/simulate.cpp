#include "scenario/simulate.h"

#include "scenario/convert.h"

#include <chrono>
#include <type_traits>

#include "stepslide/controller.h"
#include "scenario/columns.h"
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

/// The row for `tick`: the ground body and the feet in its frame are worked
/// out here, since only the runner knows the world; the columns read the rest.
std::vector<double> row_of(std::int64_t tick, int tick_rate, const CharacterState& s, const TickReport& report,
                           const World& world) {
  TickSample sample{tick, tick_rate, s, report};
  if (s.grounded && s.ground_object != nullptr && s.ground_object->getUserIndex() >= 0) {
    sample.ground_body = s.ground_object->getUserIndex();
    sample.local_feet = world.body_pose(static_cast<std::size_t>(sample.ground_body), tick).inverse() * s.position;
  }
  return read_row(sample);
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

  const bool measure_penetration = options.always_measure_penetration || needs_penetration(scenario);
  std::vector<double> penetration;

  Trajectory& t = result.trajectory;
  t.columns = column_names();
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
  result.expectation_failures = check_expectations(scenario, t, penetration);
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
