#include "fuzz/replay.h"

#include "fuzz/invariants.h"
#include "scenario/load/load.h"

namespace stepslide {

namespace {

/// The verdict lines for one valid scenario.
std::string replay_lines(const std::string& file, const InvariantReport& report) {
  if (report.ok()) return "ok " + file + " (" + std::to_string(report.ticks_checked) + " ticks)\n";
  std::string lines;
  for (const Violation& v : report.violations) {
    lines += "VIOLATION " + file + ": " + invariant_name(v.kind) + " at tick " + std::to_string(v.tick) + ": " +
             v.message + "\n";
  }
  return lines;
}

}  // namespace

ReplayResult replay_scenarios(const std::vector<std::string>& files) {
  ReplayResult result;
  std::size_t ok = 0, violating = 0, invalid = 0;
  for (const std::string& file : files) {
    const LoadResult load = load_scenario_file(file);
    if (!load.scenario) {
      result.errors += format_load_errors(load);
      result.any_invalid = true;
      ++invalid;
      continue;
    }
    const InvariantReport report = check_invariants(*load.scenario);
    result.report += replay_lines(file, report);
    result.any_violation = result.any_violation || report.failing();
    ++(report.ok() ? ok : violating);
  }
  result.report += "replayed " + std::to_string(files.size()) + (files.size() == 1 ? " file: " : " files: ") +
                   std::to_string(ok) + " ok, " + std::to_string(violating) + " with violations, " +
                   std::to_string(invalid) + " invalid\n";
  return result;
}

}  // namespace stepslide
