#include "scenario/run/simulate.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iterator>
#include <memory>
#include <sstream>
#include <type_traits>

#include "scenario/columns.h"
#include "scenario/load/convert.h"
#include "scenario/load/world.h"
#include "scenario/run/finite.h"
#include "scenario/run/input_track.h"
#include "scenario/run/reference_controller.h"
#include "scenario/run/scenario_filter.h"
#include "stepslide/controller.h"

namespace stepslide {

namespace {

/// The row for `tick`: the ground body and the feet in its frame are worked
/// out here, since only the runner knows the world; the columns read the rest.
std::vector<double> row_of(std::int64_t tick, int tick_rate, const CharacterState& s, const TickReport& report,
                           const World& world, const std::vector<EntitySample>& entities) {
  TickSample sample{tick, tick_rate, s, report};
  if (!entities.empty()) sample.entities = &entities;
  if (s.grounded && s.ground_object != nullptr && s.ground_object->getUserIndex() >= 0) {
    sample.ground_body = s.ground_object->getUserIndex();
    sample.local_feet = world.body_pose(static_cast<std::size_t>(sample.ground_body), tick).inverse() * s.position;
  }
  return read_row(sample);
}

/// The dynamic bodies as the world step left them, before the character's
/// impulses of the same tick (which only the next step turns into motion).
void sample_bodies(const World& world, std::vector<EntitySample>& entities) {
  for (std::size_t i = 0; i < entities.size(); ++i) {
    const btRigidBody& body = world.dynamic_body(i);
    entities[i] = EntitySample{body.getWorldTransform().getOrigin(), body.getWorldTransform().getRotation(),
                               body.getLinearVelocity(), body.getAngularVelocity()};
  }
}

/// The dynamic bodies' names, in file order: their column groups' prefixes.
std::vector<std::string> dynamic_names(const World& world) {
  std::vector<std::string> names;
  for (const std::size_t index : world.dynamic_bodies()) names.push_back(world.bodies()[index].name);
  return names;
}

/// The state beyond the feet and velocity that reset() cannot know
/// (docs/format.md §1 `character.state`); the defaults change nothing.
void resume(CharacterState& s, const ResumeState& state) {
  if (state.ground_normal && s.grounded) s.ground_normal = to_bt(*state.ground_normal);
  s.camera_dy = state.camera_dy;
  s.jump_was_held = state.jump_held;
  s.ground_yaw_deg = state.ground_yaw_deg;
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

/// Another character of "characters": its controller, input and filter.
struct Other {
  const CharacterDef* def;
  CharacterController* controller;
  InputTrack input;
  ScenarioFilter* filter;          ///< null when the scenario needs none
  std::vector<double> penetration;  ///< overlap depth per row, when measured
};

/// Runs `controller` (ours or the reference) through the scenario in
/// `world`, one row per tick from row 0 (after reset). With several
/// characters (ours only), `others` are updated after it each tick, in file
/// order (docs/format.md §1.7).
template <class Controller>
class Runner {
 public:
  Runner(const Scenario& scenario, const SimulationOptions& options, World& world, Controller& controller,
         ScenarioFilter* filter = nullptr, std::vector<Other>* others = nullptr)
      : filter_(filter),
        scenario_(scenario),
        options_(options),
        world_(world),
        controller_(controller),
        measure_penetration_(options.always_measure_penetration || needs_penetration(scenario)),
        input_(scenario.input, scenario.up, scenario.character.settings.walk_speed, 1.0 / scenario.tick_rate),
        others_(others != nullptr ? *others : no_others_) {}

  SimulationResult run() {
    if (filter_ != nullptr) filter_->begin_tick(to_bt(scenario_.character.position), false);
    controller_.reset(to_bt(scenario_.character.position), to_bt(scenario_.character.velocity));
    if constexpr (kOurs) resume(controller_.state(), scenario_.character.state);
    for (Other& other : others_) {
      if (other.filter != nullptr) other.filter->begin_tick(to_bt(other.def->position), false);
      other.controller->reset(to_bt(other.def->position), to_bt(other.def->velocity));
      resume(other.controller->state(), other.def->state);
    }
    std::vector<std::string> names;
    for (const Other& other : others_) names.push_back(other.def->name);
    result_.trajectory.columns = column_names_with(dynamic_names(world_), names);
    result_.trajectory.rows.reserve(static_cast<std::size_t>(scenario_.ticks) + 1);
    const TickReport none;
    other_reports_.assign(others_.size(), none);
    sample_bodies(world_, entities_);
    if (!record(0, none)) return std::move(result_);
    observe(0, 0, none);
    const double dt = 1.0 / scenario_.tick_rate;
    for (std::int64_t tick = 0; tick < scenario_.ticks;) {
      const std::int64_t span = rollback_span(tick);
      if (span > 0) {
        if (!step_twice(tick, span, dt)) return std::move(result_);
        tick += span;
        continue;
      }
      if (!step(tick, dt)) return std::move(result_);
      ++tick;
    }
    if (others_.empty()) {
      result_.expectation_failures =
          check_expectations(scenario_, result_.trajectory, penetration_, input_.pushed_rows());
    } else {
      std::vector<std::vector<double>> depths{penetration_};
      std::vector<std::vector<bool>> pushed{input_.pushed_rows()};
      for (const Other& other : others_) {
        depths.push_back(other.penetration);
        pushed.push_back(other.input.pushed_rows());
      }
      result_.expectation_failures = check_expectations(scenario_, result_.trajectory, depths, pushed);
    }
    return std::move(result_);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr bool kOurs = std::is_same_v<Controller, CharacterController>;

  /// Where the character starts the tick, for the one-way rule: its feet,
  /// and with ours its shape and pose too.
  template <class C>
  static void begin_filter_tick(ScenarioFilter& filter, C& controller, bool drop) {
    const btVector3 feet = controller.state().position;
    if constexpr (std::is_same_v<C, CharacterController>) {
      filter.begin_tick(feet, drop, controller.shape(), controller.context().transform_at(feet));
    } else {
      filter.begin_tick(feet, drop);
    }
  }

  /// False when the run stopped at a non-finite value.
  bool step(std::int64_t tick, double dt) {
    // The world moves first, then the characters, in file order (docs/format.md §1.1, §1.7).
    world_.step(tick + 1);
    sample_bodies(world_, entities_);
    const CharacterInput& input = input_.at(tick, controller_.state());
    if (filter_ != nullptr) begin_filter_tick(*filter_, controller_, input_.drop());
    if constexpr (kOurs) change_stance(controller_, scenario_.character, input_);
    const TickReport report = update(controller_, input, dt);
    result_.total_sweeps += report.sweeps;
    for (std::size_t i = 0; i < others_.size(); ++i) {
      Other& other = others_[i];
      const CharacterInput& other_input = other.input.at(tick, other.controller->state());
      if (other.filter != nullptr) begin_filter_tick(*other.filter, *other.controller, other.input.drop());
      change_stance(*other.controller, *other.def, other.input);
      other_reports_[i] = update(*other.controller, other_input, dt);
      result_.total_sweeps += other_reports_[i].sweeps;
    }
    if (!record(tick + 1, report)) return false;
    observe(tick + 1, tick, report);
    return true;
  }

  /// With a crouch_shape: asks for it while the input holds `crouch`, for the
  /// standing shape otherwise, every tick until it fits (standing up under a
  /// low ceiling keeps crouching until there is room). The shape itself may
  /// overlap the world by a rounding at most (kStanceFitTolerance): only its
  /// skin may more (docs/format.md §1.3).
  static void change_stance(CharacterController& controller, const CharacterDef& def, const InputTrack& input) {
    if (!def.crouch_shape) return;
    const ShapeDef& wanted = input.crouch() ? *def.crouch_shape : def.shape;
    controller.set_shape(character_shape_desc(wanted), kStanceFitTolerance);
  }

  /// With a rollback seed, ours only: how many ticks to step twice from
  /// `tick` (0: step once). About one tick in twelve starts a rollback of 1
  /// to 16 ticks, cut at the end of the run.
  std::int64_t rollback_span(std::int64_t tick) {
    if constexpr (!kOurs) return 0;
    if (!options_.rollback_seed) return 0;
    // Bullet's dynamics world keeps contact manifolds and solver state that
    // save_moving cannot put back, so a world with dynamic bodies is not
    // rewound (docs/embedding.md "Rollback").
    if (!world_.dynamic_bodies().empty()) return 0;
    const std::uint64_t draw = mix(*options_.rollback_seed ^ mix(static_cast<std::uint64_t>(tick) + 1));
    if (draw % 12 != 0) return 0;
    return std::min<std::int64_t>(1 + static_cast<std::int64_t>((draw >> 8) % 16), scenario_.ticks - tick);
  }

  /// SplitMix64's finaliser: a well-mixed 64-bit value of `x`.
  static std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }

  /// Steps `span` ticks from row `tick` unobserved, puts every controller
  /// (restore_state), the world (restore_moving) and the inputs back to row
  /// `tick`, and steps them again, observed: the second pass's rows are
  /// kept, and the first cell where they differ is the rollback mismatch.
  /// False when the second pass stopped at a non-finite value.
  bool step_twice(std::int64_t tick, std::int64_t span, double dt) {
    if constexpr (kOurs) {
      const ControllerSnapshot saved = controller_.save_state();
      const InputTrack saved_input = input_;
      std::vector<ControllerSnapshot> saved_others;
      std::vector<InputTrack> saved_other_inputs;
      for (const Other& other : others_) {
        saved_others.push_back(other.controller->save_state());
        saved_other_inputs.push_back(other.input);
      }
      const std::size_t saved_penetration = penetration_.size();
      const std::int64_t saved_sweeps = result_.total_sweeps;
      const World::MovingState saved_world = world_.save_moving();
      std::vector<std::vector<double>>& rows = result_.trajectory.rows;
      observing_ = false;
      for (std::int64_t k = 0; k < span && step(tick + k, dt); ++k) {
      }
      observing_ = true;
      const BroadphaseTreeState first_trees = world_.broadphase_trees();
      const auto first_begin = rows.begin() + static_cast<std::ptrdiff_t>(tick + 1);
      const std::vector<std::vector<double>> first(std::make_move_iterator(first_begin),
                                                   std::make_move_iterator(rows.end()));
      rows.erase(first_begin, rows.end());
      penetration_.resize(saved_penetration);
      result_.total_sweeps = saved_sweeps;
      result_.error.clear();
      controller_.restore_state(saved);
      input_ = saved_input;
      for (std::size_t i = 0; i < others_.size(); ++i) {
        others_[i].controller->restore_state(saved_others[i]);
        others_[i].input = saved_other_inputs[i];
        if (others_[i].penetration.size() > saved_penetration) others_[i].penetration.resize(saved_penetration);
      }
      // After the controllers, which pose their bodies: the world puts back
      // the broadphase bounds of every moving object, the characters' too.
      world_.restore_moving(saved_world);
      ++result_.rollbacks;
      bool finite = true;
      for (std::int64_t k = 0; k < span && finite; ++k) finite = step(tick + k, dt);
      compare_replay(first, tick);
      if (finite) compare_replayed_world(first_trees, tick, span);
      return finite;
    } else {
      return step(tick, dt);
    }
  }

  /// Records the first cell (to the bit) where the replayed rows after
  /// row `tick` differ from `first`, the rows the first pass made.
  void compare_replay(const std::vector<std::vector<double>>& first, std::int64_t tick) {
    if (!result_.rollback_mismatch.empty()) return;
    const std::vector<std::vector<double>>& rows = result_.trajectory.rows;
    const std::size_t replayed = rows.size() - static_cast<std::size_t>(tick + 1);
    if (replayed != first.size()) {
      result_.rollback_mismatch = "rollback at tick " + std::to_string(tick) + ": " + std::to_string(first.size()) +
                                  " rows, then " + std::to_string(replayed) + " replayed";
      return;
    }
    for (std::size_t r = 0; r < first.size(); ++r) {
      const std::vector<double>& again = rows[static_cast<std::size_t>(tick + 1) + r];
      for (std::size_t c = 0; c < again.size(); ++c) {
        if (std::memcmp(&again[c], &first[r][c], sizeof(double)) == 0) continue;
        std::ostringstream text;
        text.precision(17);
        text << "rollback at tick " << tick << ": row " << tick + 1 + static_cast<std::int64_t>(r) << " column "
             << result_.trajectory.columns[c] << ": " << first[r][c] << " then " << again[c];
        result_.rollback_mismatch = text.str();
        return;
      }
    }
  }

  /// Records, when the replayed rows matched, where the broadphase trees
  /// after the replay differ from `first`, the trees the first pass left:
  /// state the rewind did not put back shows there at once, while in the rows
  /// it may show many ticks later or never (a tie between two hits).
  void compare_replayed_world(const BroadphaseTreeState& first, std::int64_t tick, std::int64_t span) {
    if (!result_.rollback_mismatch.empty()) return;
    const std::string difference = broadphase_trees_difference(first, world_.broadphase_trees());
    if (difference.empty()) return;
    result_.rollback_mismatch = "rollback at tick " + std::to_string(tick) + ": after " + std::to_string(span) +
                                " replayed ticks the broadphase trees differ from the first pass's (" + difference +
                                ")";
  }

  /// A controller's update, timed when asked (wall time never reaches a row).
  template <class C>
  TickReport update(C& controller, const CharacterInput& input, double dt) {
    if (!options_.measure_time) return controller.update(input, dt);
    const Clock::time_point start = Clock::now();
    TickReport report = controller.update(input, dt);
    result_.update_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    return report;
  }

  /// Adds row `tick`; false (with SimulationResult::error set and the row
  /// left out) when one of its cells is not finite: no later row can mean
  /// anything, and a NaN must never reach a trajectory or a golden.
  bool record(std::int64_t tick, const TickReport& report) {
    std::vector<double> row = others_.empty() ? row_of(tick, scenario_.tick_rate, controller_.state(), report,
                                                       world_, entities_)
                                              : row_with_others(tick, report);
    const std::vector<std::string>& columns = result_.trajectory.columns;
    if (const std::optional<NonFiniteCell> bad = first_non_finite(row, columns, static_cast<std::size_t>(tick))) {
      result_.error = "tick " + std::to_string(tick) + ": column " + bad->column + " is " +
                      non_finite_text(bad->value) + " (the controller's state overflowed)";
      return false;
    }
    result_.trajectory.rows.push_back(std::move(row));
    if (measure_penetration_) {
      penetration_.push_back(controller_.penetration_depth());
      for (Other& other : others_) other.penetration.push_back(other.controller->penetration_depth());
    }
    return true;
  }

  /// Row `tick` of a run with several characters: the first's columns, each
  /// other's group, then the dynamic bodies'.
  std::vector<double> row_with_others(std::int64_t tick, const TickReport& report) {
    TickSample first = sample_of(tick, controller_.state(), report);
    if (!entities_.empty()) first.entities = &entities_;
    std::vector<TickSample> others;
    others.reserve(others_.size());
    for (std::size_t i = 0; i < others_.size(); ++i) {
      others.push_back(sample_of(tick, others_[i].controller->state(), other_reports_[i]));
    }
    return read_row(first, others);
  }

  TickSample sample_of(std::int64_t tick, const CharacterState& s, const TickReport& report) const {
    TickSample sample{tick, scenario_.tick_rate, s, report};
    if (s.grounded && s.ground_object != nullptr && s.ground_object->getUserIndex() >= 0) {
      sample.ground_body = s.ground_object->getUserIndex();
      sample.local_feet = world_.body_pose(static_cast<std::size_t>(sample.ground_body), tick).inverse() * s.position;
    }
    return sample;
  }

  /// Shows row `row`, made with the input of tick `input_tick`, to the
  /// observer; ours only.
  void observe(std::int64_t row, std::int64_t input_tick, const TickReport& report) {
    if constexpr (kOurs) {
      if (options_.on_tick && observing_) {
        const CharacterInput& input = input_.at(input_tick, controller_.state());
        TickView view{row, world_, controller_, input, report, input_.steering_note()};
        for (std::size_t i = 0; i < others_.size(); ++i) {
          Other& other = others_[i];
          const CharacterInput& other_input = other.input.at(input_tick, other.controller->state());
          view.others.push_back(OtherCharacterView{other.def->name, *other.controller, other_input,
                                                   other_reports_[i], other.input.steering_note()});
        }
        options_.on_tick(view);
      }
    }
  }

  ScenarioFilter* filter_;  ///< the scenario's layers and one-way bodies; null when it has none
  const Scenario& scenario_;
  const SimulationOptions& options_;
  World& world_;
  Controller& controller_;
  const bool measure_penetration_;
  InputTrack input_;
  std::vector<Other> no_others_;
  std::vector<Other>& others_;
  std::vector<TickReport> other_reports_;  ///< the others' reports of the last tick
  bool observing_ = true;  ///< false during a rollback's first pass
  std::vector<EntitySample> entities_{world_.dynamic_bodies().size()};  ///< the dynamic bodies, each row
  std::vector<double> penetration_;  ///< overlap depth per row, when measured
  SimulationResult result_;
};

template <class Controller>
SimulationResult run_ticks(const Scenario& scenario, const SimulationOptions& options, World& world,
                           Controller& controller, ScenarioFilter* filter = nullptr,
                           std::vector<Other>* others = nullptr) {
  return Runner<Controller>(scenario, options, world, controller, filter, others).run();
}

/// The scenario with its first character only, and without the checks on
/// the others: what the reference controller runs.
Scenario first_character_only(const Scenario& scenario) {
  Scenario alone = scenario;
  alone.others.clear();
  alone.expect.clear();
  for (const ExpectCheck& check : scenario.expect) {
    if (check.character == 0) alone.expect.push_back(check);
  }
  return alone;
}

/// Runs a scenario of several characters: a controller each, every body in
/// the world (CharacterController::add_to_world) so that each meets the
/// others, each with its own filter when the scenario needs one.
SimulationResult simulate_characters(const Scenario& scenario, const SimulationOptions& options, World& world) {
  const btVector3 up = to_bt(scenario.up);
  const btVector3 gravity = to_bt(scenario.gravity);
  const bool filtered = ScenarioFilter::needed(scenario);
  std::vector<std::unique_ptr<CharacterController>> controllers;
  std::vector<std::unique_ptr<ScenarioFilter>> filters;
  for (std::size_t i = 0; i < scenario.character_count(); ++i) {
    const CharacterDef& def = scenario.character_at(i);
    controllers.push_back(std::make_unique<CharacterController>(world.collision_world(),
                                                                character_shape_desc(def.shape), def.settings, up,
                                                                gravity));
    filters.push_back(filtered ? std::make_unique<ScenarioFilter>(scenario, def) : nullptr);
    controllers.back()->set_contact_filter(filters.back().get());
    // Each body at its start before any joins the world, so that the
    // runner's resets (in file order) see every other character there.
    controllers.back()->reset(to_bt(def.position), to_bt(def.velocity));
  }
  for (std::size_t i = 0; i < controllers.size(); ++i) {
    controllers[i]->add_to_world();
    const std::string& name = scenario.character_at(i).name;
    world.add_character(&controllers[i]->body(), name);
  }
  // Each filter learns the other characters' bodies and layers (§1.7).
  for (std::size_t i = 0; filtered && i < controllers.size(); ++i) {
    for (std::size_t j = 0; j < controllers.size(); ++j) {
      if (j != i) filters[i]->add_character_body(&controllers[j]->body(), scenario.character_at(j).layer);
    }
  }
  std::vector<Other> others;
  const double dt = 1.0 / scenario.tick_rate;
  for (std::size_t i = 1; i < controllers.size(); ++i) {
    const CharacterDef& def = scenario.character_at(i);
    others.push_back(Other{&def, controllers[i].get(),
                           InputTrack(scenario.input_of(i), scenario.up, def.settings.walk_speed, dt),
                           filters[i].get(), {}});
  }
  SimulationResult result = run_ticks(scenario, options, world, *controllers[0], filters[0].get(), &others);
  // Out of the world before it goes (the controllers go first, in reverse order).
  for (auto it = controllers.rbegin(); it != controllers.rend(); ++it) (*it)->remove_from_world();
  return result;
}

}  // namespace

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options) {
  if (!scenario.others.empty() && options.controller == ControllerKind::Bullet) {
    return simulate(first_character_only(scenario), options);
  }
  World world(scenario);
  if (!scenario.others.empty()) return simulate_characters(scenario, options, world);
  const CharacterShapeDesc shape = character_shape_desc(scenario.character.shape);
  if (options.controller == ControllerKind::Bullet) {
    ReferenceController reference(world.collision_world(), shape, scenario.character.settings, to_bt(scenario.up),
                                  to_bt(scenario.gravity));
    return run_ticks(scenario, options, world, reference);
  }
  CharacterController controller(world.collision_world(), shape, scenario.character.settings, to_bt(scenario.up),
                                 to_bt(scenario.gravity));
  if (!ScenarioFilter::needed(scenario)) return run_ticks(scenario, options, world, controller);
  ScenarioFilter filter(scenario);
  controller.set_contact_filter(&filter);
  return run_ticks(scenario, options, world, controller, &filter);
}

}  // namespace stepslide
