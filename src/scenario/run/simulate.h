// The fixed-step runner: scenario in, trajectory out, expectations checked.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/expect/expectations.h"
#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide {

/// How far a new stance's shape itself may overlap the world and still be
/// taken (docs/format.md §1, `crouch_shape`): a rounding, so feet a nanometre
/// inside the floor do not delay a change by a tick (the gate's position
/// tolerance). The fuzzer's `crouch_fit` invariant allows the same.
constexpr double kStanceFitTolerance = 1e-6;

class World;
class CharacterController;
struct SteeringNote;
struct CharacterInput;
struct TickReport;

/// Another character of "characters", as an observer sees it after a row.
struct OtherCharacterView {
  const std::string& name;
  CharacterController& controller;
  const CharacterInput& input;  ///< the input that produced this row
  const TickReport& report;
  const SteeringNote* steering = nullptr;
};

/// What an observer sees after row `tick` is written (tick 0: after reset,
/// with an empty report and the input of tick 0).
struct TickView {
  std::int64_t tick = 0;
  const World& world;
  CharacterController& controller;
  const CharacterInput& input;  ///< the input that produced this row
  const TickReport& report;
  /// What steering worked out for that input; null when no steering keyframe drove it.
  const SteeringNote* steering = nullptr;
  /// The other characters, in update order (file order); empty with one.
  std::vector<OtherCharacterView> others = {};
};

/// Which controller moves the character.
enum class ControllerKind {
  Stepslide,  ///< ours (controller.h); the only one goldens record
  Bullet,     ///< Bullet's btKinematicCharacterController, the reference (reference_controller.h)
};
/// "stepslide" or "bullet".
const char* controller_name(ControllerKind kind);
/// The kind named `name` (as controller_name gives it), or nullopt.
std::optional<ControllerKind> controller_from_name(const std::string& name);

struct SimulationOptions {
  /// Compute the per-tick overlap depth even when no expectation asks for it.
  bool always_measure_penetration = false;
  /// The controller to run. `on_tick` is called for Stepslide only.
  ControllerKind controller = ControllerKind::Stepslide;
  /// Time the controller's updates (wall clock) into
  /// SimulationResult::update_seconds, for reports and benchmarks. The
  /// trajectory never depends on it.
  bool measure_time = false;
  /// Called after every row, for checks that need more than the trajectory
  /// (`stepslide fuzz`); it must not change the simulation.
  std::function<void(const TickView&)> on_tick;
  /// Rollback check, ours only: at ticks this seed picks, the runner saves
  /// the controller's state (save_state) and the input's, steps 1 to 16
  /// ticks, puts the controller, the world's kinematic poses (with their
  /// broadphase bounds) and the input back to the saved tick, and steps
  /// those ticks again. The rows kept
  /// (and shown to `on_tick`) are the second pass's; where they differ
  /// from the first, SimulationResult::rollback_mismatch says so. Unset:
  /// no rollback, the run of `stepslide run`.
  std::optional<std::uint64_t> rollback_seed;
};

struct SimulationResult {
  Trajectory trajectory;  ///< the columns of columns.h, one row per tick from 0, no metadata
  std::vector<ExpectationFailure> expectation_failures;
  std::int64_t total_sweeps = 0;
  /// Set when a row held a NaN or an infinity: "tick N: column x is nan (the
  /// controller's state overflowed)". The run stopped there: `trajectory`
  /// holds the rows before it and no expectation was checked. The loader's
  /// limits are meant to make this impossible, so it is a product bug
  /// (docs/format.md §3, exit code 3), never a result.
  std::string error;
  /// Wall time spent inside the controller's updates; 0 unless
  /// SimulationOptions::measure_time.
  double update_seconds = 0.0;
  /// With SimulationOptions::rollback_seed: how many times the run was
  /// rewound, and the first replayed cell that differed from the first
  /// pass ("tick N: column x: A then B"), or "".
  int rollbacks = 0;
  std::string rollback_mismatch;
};

/// Runs `scenario` from row 0 to row `ticks`, or until a row holds a
/// non-finite value (SimulationResult::error). Deterministic: same binary,
/// same scenario, same bytes.
SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options = {});

}  // namespace stepslide
