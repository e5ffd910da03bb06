#include "gate/commands/self_check.h"

#include <algorithm>
#include <sstream>

#include "gate/core/csv.h"
#include "scenario/run/simulate.h"

namespace stepslide {

namespace {

/// "row 12: '<first>' then '<second>'" for the first line that differs.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream in_a(a), in_b(b);
  std::string line_a, line_b;
  for (long long line = 0;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(in_a, line_a));
    const bool more_b = static_cast<bool>(std::getline(in_b, line_b));
    if (!more_a) line_a = "(end)";
    if (!more_b) line_b = "(end)";
    if (!more_a && !more_b) return "no line differs";
    if (line_a == line_b) continue;
    const std::string where = line == 0 ? "the header" : "row " + std::to_string(line - 1);
    return where + ": '" + line_a + "' then '" + line_b + "'";
  }
}

/// The run's text, or why there is none.
std::string run_or_error(const RunText& run, const LoadedScenario& loaded) {
  try {
    return run(loaded);
  } catch (const std::exception& e) {
    return std::string("(simulation threw: ") + e.what() + ")";
  }
}

}  // namespace

std::string simulation_text(const LoadedScenario& loaded) {
  const SimulationResult result = simulate(*loaded.load.scenario);
  return to_csv(result.trajectory) + format_expectation_failures(loaded.path, result.expectation_failures);
}

std::vector<SelfCheckOutcome> self_check(const std::vector<std::string>& files, const RunText& run) {
  std::vector<LoadedScenario> loaded;
  for (const std::string& file : files) {
    LoadedScenario scenario = load_scenario_keeping_bytes(file);
    if (scenario.valid()) loaded.push_back(std::move(scenario));
  }
  std::vector<std::string> first(loaded.size()), second(loaded.size());
  for (std::size_t i = 0; i < loaded.size(); ++i) first[i] = run_or_error(run, loaded[i]);
  for (std::size_t i = loaded.size(); i-- > 0;) second[i] = run_or_error(run, loaded[i]);

  std::vector<SelfCheckOutcome> outcomes;
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    SelfCheckOutcome outcome;
    outcome.scenario = loaded[i].path;
    outcome.deterministic = first[i] == second[i];
    if (!outcome.deterministic) {
      outcome.report = "NONDETERMINISTIC " + loaded[i].path +
                       ": two runs in one process differ at " + first_difference(first[i], second[i]) + "\n";
    }
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

std::string self_check_line(const std::vector<SelfCheckOutcome>& outcomes) {
  const auto bad = std::count_if(outcomes.begin(), outcomes.end(),
                                 [](const SelfCheckOutcome& o) { return !o.deterministic; });
  return "self-check: " + std::to_string(outcomes.size()) + " scenario" + (outcomes.size() == 1 ? "" : "s") +
         " run twice in one process, " + std::to_string(bad) + " nondeterministic";
}

}  // namespace stepslide
