#include "gate/commands/perturb.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "base/format.h"
#include "gate/core/scenario_file.h"
#include "scenario/columns.h"
#include "scenario/run/simulate.h"

namespace stepslide {

namespace {

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, well mixed, and defined by its
/// arithmetic alone, so run k's offsets are the same on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// +size or -size, from the top bit (the best mixed).
  double signed_size(double size) { return (next() >> 63) != 0 ? size : -size; }

 private:
  std::uint64_t state_;
};

Vec3 offset(SplitMix64& random, double size) {
  Vec3 d{};
  for (double& c : d) c = random.signed_size(size);
  return d;
}

void shift(Vec3& point, const Vec3& by) {
  for (std::size_t i = 0; i < 3; ++i) point[i] += by[i];
}

/// Continuous columns grouped as people read them; a discrete column is its own group.
struct Group {
  const char* name;
  const char* unit;
};

std::optional<Group> continuous_group(const std::string& column) {
  if (column == "x" || column == "y" || column == "z") return Group{"position", "m"};
  if (column == "vx" || column == "vy" || column == "vz") return Group{"velocity", "m/s"};
  if (column.rfind("normal_", 0) == 0) return Group{"normal", ""};
  if (column == "step_dy" || column == "camera_dy") return Group{"step", "m"};
  if (column.rfind("local_", 0) == 0) return Group{"local", "m"};
  return std::nullopt;  // time: the same in every run
}

bool is_discrete(const std::string& column) {
  const Column* c = find_column(column);
  return c != nullptr && c->discrete;
}

ColumnSpread& entry(std::vector<ColumnSpread>& spread, const std::string& group, const std::string& unit,
                    bool discrete) {
  for (ColumnSpread& s : spread) {
    if (s.group == group) return s;
  }
  spread.push_back(ColumnSpread{group, unit, discrete, 0.0, 0});
  return spread.back();
}

/// The largest difference of column `c` between the two runs, over the rows both have.
double largest_difference(const Trajectory& a, const Trajectory& b, int ca, int cb) {
  double largest = 0.0;
  const std::size_t rows = std::min(a.rows.size(), b.rows.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const double d = std::fabs(a.cell(r, ca) - b.cell(r, cb));
    largest = std::isnan(d) ? INFINITY : std::max(largest, d);
  }
  // A run that stopped early (a non-finite value) is as far apart as it gets.
  return a.rows.size() == b.rows.size() ? largest : INFINITY;
}

std::size_t rows_differing(const Trajectory& a, const Trajectory& b, int ca, int cb) {
  std::size_t count = 0;
  const std::size_t rows = std::min(a.rows.size(), b.rows.size());
  for (std::size_t r = 0; r < rows; ++r) count += a.cell(r, ca) == b.cell(r, cb) ? 0 : 1;
  return count + std::max(a.rows.size(), b.rows.size()) - rows;
}

/// Failures of `perturbed` at a JSON path where `base` has none.
const ExpectationFailure* new_failure(const std::vector<ExpectationFailure>& base,
                                      const std::vector<ExpectationFailure>& perturbed) {
  for (const ExpectationFailure& f : perturbed) {
    const bool known = std::any_of(base.begin(), base.end(),
                                   [&](const ExpectationFailure& b) { return b.check == f.check; });
    if (!known) return &f;
  }
  return nullptr;
}

SimulationResult run_or_error(const Scenario& scenario) {
  try {
    return simulate(scenario);
  } catch (const std::exception& e) {
    SimulationResult failed;
    failed.error = std::string("the simulation threw: ") + e.what();
    return failed;
  }
}

/// Records one perturbed run against the unperturbed one.
void compare_run(int run, const SimulationResult& base, const SimulationResult& perturbed, const DiffRules& rules,
                 PerturbOutcome& outcome) {
  if (!perturbed.error.empty()) {
    ++outcome.fragile_runs;
    if (outcome.error.empty()) outcome.error = "run " + std::to_string(run) + ": " + perturbed.error;
    add_spread(base.trajectory, perturbed.trajectory, outcome.spread);
    return;
  }
  add_spread(base.trajectory, perturbed.trajectory, outcome.spread);
  // An expectation with no margin can flip while the path stays within the
  // tolerances (a bound at the spawn height itself): worth saying, but the
  // path is what another CPU would change, so only the path makes it fragile.
  const ExpectationFailure* failed = new_failure(base.expectation_failures, perturbed.expectation_failures);
  if (failed != nullptr && outcome.expectation.empty()) {
    outcome.expectation = "run " + std::to_string(run) + " fails " + format_expectation_failure(*failed);
  }
  const DiffResult diff = diff_trajectories(base.trajectory, perturbed.trajectory, rules);
  if (diff.equal) return;
  ++outcome.fragile_runs;
  if (diff.first && (!outcome.first || diff.first->row < outcome.first->row)) {
    outcome.first = diff.first;
    outcome.first_run = run;
  }
}

std::string spread_text(const std::vector<ColumnSpread>& spread) {
  std::string text;
  for (const ColumnSpread& s : spread) {
    if (s.discrete && s.rows == 0) continue;
    if (!text.empty()) text += ", ";
    if (s.discrete) {
      text += s.group + " differs in " + std::to_string(s.rows) + " row" + (s.rows == 1 ? "" : "s");
    } else {
      text += s.group + " " + format_significant(s.largest, 3) + (s.unit.empty() ? "" : " " + s.unit);
    }
  }
  return text;
}

/// "tick 212, column z: 0.51 vs 0.549 (off by 0.039, tolerance 1e-06)"
std::string divergence_text(const Divergence& d) {
  return "tick " + readable_number(d.tick) + ", column " + d.column + ": " + d.expected + " unperturbed, " +
         d.actual + " perturbed (off by " + format_significant(d.error, 3) + ", tolerance " +
         format_significant(d.tolerance, 3) + ")";
}

std::string report_for(const PerturbOutcome& o) {
  const std::string runs = std::to_string(o.runs) + " perturbed run" + (o.runs == 1 ? "" : "s");
  std::string text;
  if (!o.fragile()) {
    text = "STEADY " + o.scenario + ": " + runs + " within the tolerances";
    if (!o.chaotic.empty()) text += " (declared chaotic, so the declaration may go)";
  } else {
    text = (o.chaotic.empty() ? "FRAGILE " : "CHAOTIC ") + o.scenario + ": " + std::to_string(o.fragile_runs) +
           " of " + runs + " leave the tolerances";
  }
  text += "\n  spread: " + spread_text(o.spread) + "\n";
  if (o.first) {
    text += "  first: run " + std::to_string(o.first_run) + " at " + divergence_text(*o.first) + "\n";
  }
  if (!o.expectation.empty()) text += "  expectation without margin: " + o.expectation + "\n";
  if (!o.error.empty()) text += "  error: " + o.error + "\n";
  if (!o.chaotic.empty() && o.fragile()) text += "  declared chaotic: " + o.chaotic + "\n";
  return text;
}

/// Never throws: it runs on worker threads, where an escaping exception ends the process.
PerturbOutcome perturb_file(const std::string& file, const PerturbOptions& options) {
  const LoadedScenario loaded = load_scenario_keeping_bytes(file);
  if (!loaded.valid()) return PerturbOutcome{};
  try {
    return perturb_scenario(file, *loaded.load.scenario, options);
  } catch (const std::exception& e) {
    PerturbOutcome failed;
    failed.scenario = file;
    failed.chaotic = loaded.load.scenario->chaotic;
    failed.runs = options.runs;
    failed.fragile_runs = options.runs;
    failed.error = std::string("perturbing threw: ") + e.what();
    failed.report = report_for(failed);
    return failed;
  }
}

}  // namespace

Scenario perturbed_scenario(const Scenario& scenario, int run, double size) {
  Scenario out = scenario;
  SplitMix64 random(kPerturbSeed + static_cast<std::uint64_t>(run));
  shift(out.character.position, offset(random, size));
  for (BodyDef& body : out.world) {
    if (body.motion.type == MotionType::None) continue;
    const Vec3 d = offset(random, size);
    shift(body.position, d);
    for (MotionKey& key : body.motion.keys) shift(key.position, d);
  }
  // The other characters' spawn points last, so that a scenario with one
  // character is shifted as before.
  for (OtherCharacter& other : out.others) shift(other.def.position, offset(random, size));
  return out;
}

void add_spread(const Trajectory& base, const Trajectory& perturbed, std::vector<ColumnSpread>& spread) {
  for (std::size_t c = 0; c < base.columns.size(); ++c) {
    const std::string& column = base.columns[c];
    const int other = perturbed.column_index(column);
    if (other < 0) continue;
    if (is_discrete(column)) {
      if (column == "tick") continue;
      entry(spread, column, "", true).rows += rows_differing(base, perturbed, static_cast<int>(c), other);
    } else if (const std::optional<Group> group = continuous_group(column)) {
      ColumnSpread& s = entry(spread, group->name, group->unit, false);
      s.largest = std::max(s.largest, largest_difference(base, perturbed, static_cast<int>(c), other));
    }
  }
  // Continuous groups first (as the table has them), then the discrete columns.
  std::stable_partition(spread.begin(), spread.end(), [](const ColumnSpread& s) { return !s.discrete; });
}

PerturbOutcome perturb_scenario(const std::string& path, const Scenario& scenario, const PerturbOptions& options) {
  PerturbOutcome outcome;
  outcome.scenario = path;
  outcome.chaotic = scenario.chaotic;
  outcome.runs = options.runs;
  const DiffRules rules = rules_for(options.rules, options.tolerances,
                                    scenario_directory(path, options.scenario_root), scenario.tolerance);
  const SimulationResult base = run_or_error(scenario);
  if (!base.error.empty()) {
    // `check` already fails this scenario; there is nothing steady to spread from.
    outcome.error = "the unperturbed run: " + base.error;
    outcome.fragile_runs = options.runs;
  } else {
    for (int run = 1; run <= options.runs; ++run) {
      compare_run(run, base, run_or_error(perturbed_scenario(scenario, run, options.size)), rules, outcome);
    }
  }
  outcome.report = report_for(outcome);
  return outcome;
}

std::vector<PerturbOutcome> perturb_scenarios(const std::vector<std::string>& files, const PerturbOptions& options) {
  std::vector<PerturbOutcome> outcomes(files.size());
  int jobs = options.jobs;
  if (jobs < 1) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) outcomes[i] = perturb_file(files[i], options);
  };
  std::vector<std::thread> pool;
  const std::size_t threads = std::min(static_cast<std::size_t>(jobs), files.size());
  if (threads <= 1) {
    work();
  } else {
    for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
    for (std::thread& thread : pool) thread.join();
  }
  // Invalid scenarios left their slot empty.
  outcomes.erase(std::remove_if(outcomes.begin(), outcomes.end(),
                                [](const PerturbOutcome& o) { return o.scenario.empty(); }),
                 outcomes.end());
  return outcomes;
}

std::string perturb_summary(const std::vector<PerturbOutcome>& outcomes, const PerturbOptions& options) {
  std::size_t fragile = 0, chaotic = 0;
  std::string failing;
  for (const PerturbOutcome& o : outcomes) {
    fragile += o.fragile() ? 1 : 0;
    chaotic += o.fragile() && !o.chaotic.empty() ? 1 : 0;
    if (o.fails()) failing += " " + o.scenario;
  }
  std::string text = "perturb: " + std::to_string(outcomes.size()) + " scenario" +
                     (outcomes.size() == 1 ? "" : "s") + ", " + std::to_string(options.runs) + " perturbed run" +
                     (options.runs == 1 ? "" : "s") + " each (+-" + readable_number(options.size) + " m), " +
                     std::to_string(fragile) + " fragile (" + std::to_string(chaotic) + " declared chaotic)\n";
  if (!failing.empty()) text += "fragile:" + failing + "\n";
  return text;
}

}  // namespace stepslide
