// `stepslide check --perturb N`: which goldens are fragile? Each scenario is
// run N more times, each time with its spawn point and every moving body's
// path shifted by a tiny, deterministic offset, and each perturbed run is
// compared with the unperturbed one under the scenario's own tolerances. A
// scenario whose perturbed runs leave those tolerances is fragile: its golden records one
// side of a knife edge, and another CPU or compiler can land on the other
// side. A scenario may declare itself chaotic ("chaotic": "why"), which
// reports its spread without failing it. The runner is not touched: only the
// loaded Scenario data is shifted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "gate/core/tolerances.h"
#include "scenario/scenario.h"

namespace stepslide {

/// The default size of a perturbation: 1e-9 m, a thousandth of the default
/// position tolerance (1e-6 m), far below anything a level is built to.
inline constexpr double kDefaultPerturbation = 1e-9;

/// The scenario of perturbed run `run` (1, 2, ...): every coordinate of the
/// spawn point (the feet, after "place") and of each moving body's placement
/// moves by +size or -size. A moving body's whole path moves with it (its
/// position and every keyframe's position), so a keyframed body is shifted,
/// not bent. The signs come from SplitMix64 seeded with kPerturbSeed + run:
/// three for the character, then three per moving body in world order, so
/// run k is the same offset on every machine and in every invocation, and N
/// runs are a prefix of N + 1. Static bodies, rotations, input and
/// velocities are left as they are.
Scenario perturbed_scenario(const Scenario& scenario, int run, double size = kDefaultPerturbation);

/// The fixed seed the runs' offsets derive from (documented in docs/format.md §3.2).
inline constexpr std::uint64_t kPerturbSeed = 0x5eedf00d15;

/// How far the perturbed runs spread from the unperturbed one, over one group
/// of columns: the largest |perturbed - unperturbed| of any column in the group
/// (continuous groups), or the number of rows where a column differs at all
/// (a discrete column, its own group).
struct ColumnSpread {
  std::string group;  ///< "position" (x y z), "velocity", "normal", "step" (step_dy camera_dy), "local", or a discrete column
  std::string unit;   ///< "m", "m/s", "" (normal and discrete columns)
  bool discrete = false;
  double largest = 0.0;    ///< continuous: the largest difference over every run, row and column of the group
  std::size_t rows = 0;    ///< discrete: rows differing, summed over the runs
};

struct PerturbOutcome {
  std::string scenario;  ///< the path as given
  std::string chaotic;   ///< the scenario's declared reason; "" when not declared
  int runs = 0;
  std::vector<ColumnSpread> spread;  ///< every continuous group, then each discrete column that differed
  /// The perturbed runs that left the tolerances, or could not run.
  int fragile_runs = 0;
  /// The earliest divergence (lowest tick; of equal ticks, the lowest run)
  /// and its run, when a run left the tolerances.
  std::optional<Divergence> first;
  int first_run = 0;
  /// "run 2 fails /expect/1 at tick 240: ..." for the first expectation a
  /// perturbed run fails that the unperturbed run passes; "" when none. Said,
  /// but not fragile by itself: the path may stay within the tolerances while
  /// an expectation written with no margin flips.
  std::string expectation;
  /// Why a run could not be compared (a simulation error); "" normally.
  std::string error;
  std::string report;  ///< the lines to print, ending in '\n'
  bool fragile() const { return fragile_runs > 0; }
  /// Fragile and not declared chaotic: this fails `check`.
  bool fails() const { return fragile() && chaotic.empty(); }
};

struct PerturbOptions {
  int runs = 0;                         ///< perturbed runs per scenario
  double size = kDefaultPerturbation;   ///< metres
  int jobs = 1;                         ///< scenarios at once; 0: one per core
  std::string scenario_root = "scenarios";  ///< for the per-directory tolerances
  DiffRules rules = default_diff_rules();
  ToleranceLayers tolerances;           ///< over `rules`, with each scenario's own block
};

/// Perturbs every valid scenario of `files` (invalid ones are skipped: `check`
/// reports them), in input order whatever `jobs`. Never throws.
std::vector<PerturbOutcome> perturb_scenarios(const std::vector<std::string>& files, const PerturbOptions& options);

/// One scenario, already loaded.
PerturbOutcome perturb_scenario(const std::string& path, const Scenario& scenario, const PerturbOptions& options);

/// The spread of `perturbed` around `base`, folded into `spread` (one entry
/// per group, kept in table order; see ColumnSpread).
void add_spread(const Trajectory& base, const Trajectory& perturbed, std::vector<ColumnSpread>& spread);

/// "perturb: 56 scenarios, 4 perturbed runs each (+-1e-09 m), 2 fragile (1 declared chaotic)\n"
/// followed, when any fails, by "fragile: a.json b.json\n".
std::string perturb_summary(const std::vector<PerturbOutcome>& outcomes, const PerturbOptions& options);

}  // namespace stepslide
