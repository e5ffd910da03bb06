#include "gate/commands/run.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/commands/project_settings.h"
#include "gate/core/command_inputs.h"
#include "gate/core/csv.h"
#include "gate/core/discovery.h"
#include "gate/core/filter.h"
#include "gate/core/run_hash.h"
#include "gate/core/scenario_file.h"
#include "gate/core/text.h"

namespace stepslide {

namespace {

/// The scenarios to run, where each one's CSV goes, and how to simulate.
struct RunPlan {
  std::string warnings;  ///< filters that matched nothing
  std::vector<LoadedScenario> loaded;  ///< the valid scenarios, in order
  std::vector<std::string> outputs;  ///< one per scenario; "-" is stdout
  /// The invalid scenarios' errors: they are reported and not run, the valid ones run.
  std::string invalid;
  std::size_t invalid_count = 0;
  SimulationOptions simulation;
};

std::string output_for(const RunRequest& request, const LoadedScenario& scenario, const std::string& folder) {
  if (!request.out.empty()) return request.out;
  return (std::filesystem::path(request.out_dir) / folder / output_file_name(scenario.load.scenario->name))
      .lexically_normal()
      .generic_string();
}

/// The folder all of `paths` lie in (lexically, from their absolute forms).
std::filesystem::path common_folder(const std::vector<std::filesystem::path>& paths) {
  std::filesystem::path common = paths.front();
  for (const auto& p : paths) {
    std::filesystem::path shared;
    auto a = common.begin(), b = p.begin();
    for (; a != common.end() && b != p.end() && *a == *b; ++a, ++b) shared /= *a;
    common = shared;
  }
  return common;
}

/// Where each scenario writes. With --out-dir, scenarios that share a name
/// keep the folders they lie in under their common folder, so each gets its
/// own file; refused when two would still write the same file.
Expected<std::vector<std::string>> run_outputs(const RunRequest& request, const std::vector<LoadedScenario>& loaded) {
  namespace fs = std::filesystem;
  std::map<std::string, std::vector<std::size_t>> by_name;
  for (std::size_t i = 0; i < loaded.size(); ++i) by_name[output_file_name(loaded[i].load.scenario->name)].push_back(i);
  std::vector<std::string> folders(loaded.size());
  if (request.out.empty()) {
    for (const auto& [name, indices] : by_name) {
      if (indices.size() < 2) continue;
      std::vector<fs::path> dirs;
      for (std::size_t i : indices) dirs.push_back(fs::absolute(loaded[i].path).lexically_normal().parent_path());
      const fs::path common = common_folder(dirs);
      for (std::size_t k = 0; k < indices.size(); ++k) {
        folders[indices[k]] = dirs[k].lexically_relative(common).generic_string();
      }
    }
  }
  std::vector<std::string> outputs;
  std::map<std::string, std::string> owner;
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    const LoadedScenario& scenario = loaded[i];
    const std::string output = output_for(request, scenario, folders[i]);
    const auto [it, inserted] = owner.emplace(output, scenario.path);
    if (!inserted) {
      return Expected<std::vector<std::string>>::failure(
          error_line(it->second + " and " + scenario.path + " would both write " + output +
                     " (they have the same name; rename one, or run them separately with --out)"));
    }
    outputs.push_back(output);
  }
  return outputs;
}

Expected<RunPlan> plan_run(const RunRequest& request) {
  using Result = Expected<RunPlan>;
  RunPlan plan;
  const Expected<ControllerKind> controller = controller_option(request.controller);
  if (!controller) return Result::failure(controller.error());
  plan.simulation.controller = *controller;
  plan.simulation.measure_time = request.stats;
  if (request.stats && request.repeat < 1) {
    return Result::failure(error_line("--repeat " + std::to_string(request.repeat) + ": expected 1 or more runs"));
  }
  const Expected<ScenarioFilter> filter = parse_filters(request.filters);
  if (!filter) return Result::failure(error_line(filter.error()));
  const Expected<std::vector<std::string>> paths = paths_or_root(request.scenarios, request.scenario_root);
  if (!paths) return Result::failure(paths.error());
  const Expected<std::vector<std::string>> found = scenario_files(*paths);
  if (!found) return Result::failure(found.error());
  const Expected<FilteredFiles> files = select_scenario_files(*found, request.scenario_root, *filter);
  if (!files) return Result::failure(files.error());
  plan.warnings = files->warnings;
  if (!request.out.empty() && files->files.size() != 1) {
    return Result::failure(error_line("--out takes exactly one scenario, got " + std::to_string(files->files.size()) +
                                      "; use --out-dir for several"));
  }
  std::vector<LoadedScenario> loaded;
  for (const std::string& file : files->files) {
    LoadedScenario scenario = load_scenario_keeping_bytes(file);
    if (scenario.valid()) {
      loaded.push_back(std::move(scenario));
    } else {
      plan.invalid += format_load_errors(scenario.load);
      ++plan.invalid_count;
    }
  }
  Expected<std::vector<std::string>> outputs = run_outputs(request, loaded);
  if (!outputs) return Result::failure(outputs.error());
  for (const std::string& output : *outputs) {
    if (output == "-") continue;
    if (const Status apart = not_an_input(output, files->files); !apart) return Result::failure(error_line(apart.error()));
  }
  plan.loaded = std::move(loaded);
  plan.outputs = outputs.take();
  return plan;
}

/// The summary, the stats when asked, and the failed expectations.
std::string item_report(const LoadedScenario& scenario, const SimulationResult& sim, const std::string& output,
                        const RunItem& item, ControllerKind controller) {
  const Scenario& s = *scenario.load.scenario;
  std::string report = run_summary_line(s, sim) + (output == "-" ? "" : " -> " + output) + "\n";
  if (!item.hash.empty()) report += hash_line({item.hash_name, item.hash});
  if (!item.update_seconds.empty()) {
    report += "stats " + run_stats_line(s, item.update_seconds, sim.total_sweeps, controller) + "\n";
  }
  return report + format_expectation_failures(scenario.path, sim.expectation_failures);
}

/// The time of `repeat - 1` more runs of the scenario after `first`.
std::vector<double> time_runs(const Scenario& scenario, const SimulationResult& first, const RunPlan& plan,
                              int repeat) {
  std::vector<double> seconds{first.update_seconds};
  for (int i = 1; i < repeat; ++i) seconds.push_back(simulate(scenario, plan.simulation).update_seconds);
  return seconds;
}

/// Simulates one scenario and writes its CSV (or hands it back for stdout).
RunItem run_one(const LoadedScenario& scenario, const std::string& output, const RunPlan& plan,
                const RunRequest& request) {
  RunItem item;
  item.scenario = scenario.path;
  // Listed as `check --hash` lists it: relative to the scenario root.
  item.hash_name = hash_name(scenario.path, request.scenario_root);
  bool non_finite = false;
  const Expected<SimulationResult> sim =
      simulate_with_metadata(scenario, request.fingerprint, plan.simulation, &non_finite);
  if (!sim) {
    item.error = error_line(sim.error());
    item.internal_error = non_finite;
    return item;
  }
  const std::string csv = to_csv(sim->trajectory);
  if (output == "-") {
    item.csv = csv;
  } else if (const Status written = write_file_atomic(output, csv); !written) {
    item.error = error_line("cannot write " + output + ": " + written.error());
    return item;
  }
  if (request.hash) item.hash = trajectory_hash(sim->trajectory);
  if (request.stats) item.update_seconds = time_runs(*scenario.load.scenario, *sim, plan, request.repeat);
  item.report = item_report(scenario, *sim, output, item, plan.simulation.controller);
  item.expectations_failed = !sim->expectation_failures.empty();
  return item;
}

/// The suite's hash line over every item, in file order.
std::string suite_hash(const std::vector<RunItem>& items) {
  std::vector<NamedHash> hashes;
  for (const RunItem& item : items) hashes.push_back({item.hash_name, item.hash});
  return suite_hash_line(hashes);
}

}  // namespace

RunResult run_scenarios(const RunRequest& as_given) {
  RunResult result;
  const Expected<RunRequest> with_file = with_project(as_given);
  const Expected<RunPlan> plan = with_file ? plan_run(*with_file) : Expected<RunPlan>::failure(with_file.error());
  if (!plan) {
    result.errors = plan.error();
    result.exit_code = kExitInvalid;
    return result;
  }
  const RunRequest& request = *with_file;
  result.warnings = plan->warnings;
  if (plan->invalid_count > 0) {
    // With nothing valid to run, the errors alone say it all.
    result.errors = plan->invalid;
    if (!plan->loaded.empty()) result.errors += error_line(std::to_string(plan->invalid_count) + " invalid scenario" +
                                               (plan->invalid_count == 1 ? "" : "s") + " not run; ran the " +
                                               std::to_string(plan->loaded.size()) + " valid");
    result.exit_code = kExitInvalid;
  }
  for (std::size_t i = 0; i < plan->loaded.size(); ++i) {
    result.items.push_back(run_one(plan->loaded[i], plan->outputs[i], *plan, request));
    const RunItem& item = result.items.back();
    if (request.on_item) request.on_item(item);
    if (item.internal_error) {
      result.exit_code = kExitInternal;
    } else if (!item.error.empty() && result.exit_code != kExitInternal) {
      result.exit_code = kExitInvalid;
    }
    if (item.expectations_failed && result.exit_code == kExitOk) result.exit_code = kExitFailure;
  }
  if (request.hash) result.suite_hash = suite_hash(result.items);
  return result;
}

std::string run_stats_line(const Scenario& scenario, const std::vector<double>& update_seconds,
                           std::int64_t total_sweeps, ControllerKind controller) {
  const double ticks = static_cast<double>(std::max<std::int64_t>(scenario.ticks, 1));
  std::vector<double> sorted = update_seconds;
  if (sorted.empty()) sorted.push_back(0.0);
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  char text[160];
  std::snprintf(text, sizeof text, ": min %.3g us/tick, median %.3g us/tick over %zu run%s, %.3g sweeps/tick (",
                sorted.front() * 1e6 / ticks, median * 1e6 / ticks, n, n == 1 ? "" : "s",
                static_cast<double>(total_sweeps) / ticks);
  return scenario.name + text + controller_name(controller) + ")";
}

std::string run_summary_line(const Scenario& scenario, const SimulationResult& result) {
  const Trajectory& t = result.trajectory;
  auto last = [&](const char* column) -> std::string {
    const int index = t.column_index(column);
    if (index < 0 || t.rows.empty() || static_cast<std::size_t>(index) >= t.rows.back().size()) return "?";
    return readable_number(t.rows.back()[static_cast<std::size_t>(index)]);
  };
  const std::size_t failed = result.expectation_failures.size();
  return scenario.name + ": " + std::to_string(scenario.ticks) + " ticks, feet (" + last("x") + ", " + last("y") +
         ", " + last("z") + "), grounded " + last("grounded") + ", " + std::to_string(result.total_sweeps) +
         " sweeps, expectations " + (failed == 0 ? std::string("ok") : std::to_string(failed) + " failed");
}

}  // namespace stepslide
