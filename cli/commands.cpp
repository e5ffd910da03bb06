// Subcommands: argument checks, printing and exit codes. The work itself is
// in the library (gate.h, simulate.h, trajectory.h), so this stays thin.
#include "commands.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include <unistd.h>

#include "gate/console.h"
#include "base/file_io.h"
#include "gate/fingerprint.h"
#include "gate/gate.h"
#include "gate/self_check.h"
#include "gate/junit.h"
#include "gate/plot.h"
#include "gate/report.h"
#include "gate/view.h"
#include "stepslide/settings.h"
#include "scenario/trajectory.h"

namespace stepslide::cli {

namespace {

namespace fs = std::filesystem;

int usage_error(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  return kExitInvalid;
}

/// Expands PATH arguments; prints each problem. nullopt when any path is bad
/// or nothing was found.
std::optional<std::vector<std::string>> scenario_files(const std::vector<std::string>& paths) {
  const ScenarioList list = discover_scenarios(paths);
  for (const std::string& error : list.errors) std::cerr << "error: " << error << "\n";
  if (!list.errors.empty()) return std::nullopt;
  if (list.files.empty()) {
    std::string where;
    for (const std::string& path : paths) where += (where.empty() ? "" : ", ") + path;
    std::cerr << "error: no scenarios (*.json) found in " << where << "\n";
    return std::nullopt;
  }
  return list.files;
}

/// Loads every scenario first, so that one invalid file stops the command
/// before anything is written. Prints every error to stderr.
std::optional<std::vector<LoadedScenario>> load_all_or_report(const std::vector<std::string>& files) {
  std::vector<LoadedScenario> loaded;
  bool all_valid = true;
  for (const std::string& file : files) {
    loaded.push_back(load_scenario(file));
    if (!loaded.back().valid()) {
      std::cerr << format_load_errors(loaded.back().load);
      all_valid = false;
    }
  }
  if (!all_valid) return std::nullopt;
  return loaded;
}

/// PATH arguments, or the scenario root when there are none; nullopt (after
/// saying why) when that root is missing, which usually means the wrong cwd.
std::optional<std::vector<std::string>> paths_or_root(const std::vector<std::string>& paths,
                                                      const std::string& scenario_root) {
  if (!paths.empty()) return paths;
  std::error_code ec;
  if (!fs::is_directory(scenario_root, ec)) {
    usage_error("scenario root '" + scenario_root +
                "' is not a directory: run stepslide from the project directory, pass --scenario-root DIR, "
                "or name scenario files");
    return std::nullopt;
  }
  return std::vector<std::string>{scenario_root};
}

std::optional<DiffRules> rules_or_report(bool exact, const std::vector<std::string>& tolerances) {
  std::string error;
  std::optional<DiffRules> rules = make_diff_rules(exact, tolerances, &error);
  if (!rules) usage_error(error);
  return rules;
}

/// Where `run` writes each scenario; nullopt (after printing why) when two
/// scenarios would write the same file.
std::optional<std::vector<std::string>> run_outputs(const RunArgs& args, const std::vector<LoadedScenario>& loaded) {
  std::vector<std::string> outputs;
  std::map<std::string, std::string> owner;
  for (const LoadedScenario& scenario : loaded) {
    const std::string output = !args.out.empty()
                                   ? args.out
                                   : (fs::path(args.out_dir) / output_file_name(scenario.load.scenario->name))
                                         .lexically_normal()
                                         .generic_string();
    const auto [it, inserted] = owner.emplace(output, scenario.path);
    if (!inserted) {
      usage_error(it->second + " and " + scenario.path + " would both write " + output +
                  " (they have the same name; rename one, or run them separately with --out)");
      return std::nullopt;
    }
    outputs.push_back(output);
  }
  return outputs;
}

/// The --controller value; nullopt (after saying why) when it names none.
std::optional<ControllerKind> controller_or_report(const std::string& name) {
  const std::optional<ControllerKind> kind = controller_from_name(name);
  if (!kind) usage_error("--controller " + name + ": expected stepslide or bullet");
  return kind;
}

/// Writes DIR/index.html and a 3D view page per failure; prints where, or
/// why not. False on failure (a missing libjs-three only leaves the view pages out).
bool write_report(const std::string& dir, const std::vector<CheckOutcome>& outcomes) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string page = (fs::path(dir) / "index.html").lexically_normal().generic_string();
  ReportOptions options;
  const ViewPages views = ec ? ViewPages{} : write_view_pages(dir, outcomes);
  options.view_pages = views.files;
  options.view_note = views.error;
  if (!views.error.empty()) std::cerr << "warning: report without 3D views: " << views.error << "\n";
  const std::string error = ec ? ec.message() : write_file_atomic(page, report_html(outcomes, options)).error();
  if (!error.empty()) {
    std::cerr << "error: cannot write " << page << ": " << error << "\n";
    return false;
  }
  std::cout << "report: " << page << "\n";
  return true;
}

std::string setting_value_text(const SettingInfo& info, double value) {
  return info.is_integer ? std::to_string(static_cast<long long>(value)) : format_number(value);
}

}  // namespace

// ---------------------------------------------------------------------------

int run_command(const RunArgs& args) {
  const std::optional<ControllerKind> controller = controller_or_report(args.controller);
  if (!controller) return kExitInvalid;
  SimulationOptions simulation;
  simulation.controller = *controller;
  simulation.measure_time = args.stats;
  const std::optional<std::vector<std::string>> files = scenario_files(args.scenarios);
  if (!files) return kExitInvalid;
  if (!args.out.empty() && files->size() != 1) {
    return usage_error("--out takes exactly one scenario, got " + std::to_string(files->size()) +
                       "; use --out-dir for several");
  }
  const std::optional<std::vector<LoadedScenario>> loaded = load_all_or_report(*files);
  if (!loaded) return kExitInvalid;
  const std::optional<std::vector<std::string>> outputs = run_outputs(args, *loaded);
  if (!outputs) return kExitInvalid;

  const bool to_stdout = args.out == "-";
  std::ostream& report = to_stdout ? std::cerr : std::cout;
  const std::string fingerprint = build_fingerprint();
  int code = kExitOk;
  for (std::size_t i = 0; i < loaded->size(); ++i) {
    const LoadedScenario& scenario = (*loaded)[i];
    std::string error;
    const std::optional<SimulationResult> sim = simulate_with_metadata(scenario, fingerprint, &error, simulation);
    if (!sim) {
      std::cerr << "error: " << error << "\n";
      code = kExitInvalid;
      continue;
    }
    const std::string csv = to_csv(sim->trajectory);
    if (to_stdout) {
      std::cout << csv << std::flush;
    } else if (const std::string write_error = write_file_atomic((*outputs)[i], csv).error(); !write_error.empty()) {
      std::cerr << "error: cannot write " << (*outputs)[i] << ": " << write_error << "\n";
      code = kExitInvalid;
      continue;
    }
    report << run_summary_line(*scenario.load.scenario, *sim) << (to_stdout ? "" : " -> " + (*outputs)[i]) << "\n";
    if (args.stats) report << "stats " << run_stats_line(*scenario.load.scenario, *sim, *controller) << "\n";
    report << format_expectation_failures(scenario.path, sim->expectation_failures) << std::flush;
    if (!sim->expectation_failures.empty() && code == kExitOk) code = kExitFailure;
  }
  return code;
}

int check_command(const CheckArgs& args) {
  const std::optional<DiffRules> rules = rules_or_report(args.exact, args.tolerances);
  if (!rules) return kExitInvalid;
  if (args.jobs < 0) return usage_error("-j " + std::to_string(args.jobs) + ": expected 0 (one per core) or more");
  const std::optional<ControllerKind> controller = controller_or_report(args.controller);
  if (!controller) return kExitInvalid;

  std::string shard_error;
  const std::optional<Shard> shard = shard_from_env([](const char* name) { return std::getenv(name); }, &shard_error);
  if (!shard) return usage_error(shard_error);
  if (const std::string touch_error = touch_shard_status_file(*shard); !touch_error.empty()) {
    std::cerr << "warning: cannot create the shard status file " << touch_error << "\n";
  }

  const std::optional<std::vector<std::string>> paths = paths_or_root(args.paths, args.scenario_root);
  if (!paths) return kExitInvalid;
  const std::optional<std::vector<std::string>> files = scenario_files(*paths);
  if (!files) return kExitInvalid;

  GateOptions options;
  options.scenario_root = args.scenario_root;
  options.golden_dir = args.golden_dir;
  options.rules = *rules;
  options.fingerprint = build_fingerprint();
  options.controller = *controller;

  options.keep_failure_detail = !args.report_dir.empty();
  const std::optional<ColorMode> color_mode = parse_color_mode(args.color);
  if (!color_mode) return usage_error("--color " + args.color + ": expected auto, always or never");
  const bool color = color_enabled(*color_mode, read_console_facts(STDOUT_FILENO));
  auto print = [color](const std::string& report) {
    std::cout << (color ? colorize_verdicts(report) : report) << std::flush;
  };

  const std::vector<std::string> mine = select_shard(*files, *shard);
  // On a terminal (never in CI) one line on stderr says how far the run is.
  ProgressLine progress(std::cerr, progress_enabled(read_console_facts(STDERR_FILENO)),
                        terminal_columns(STDERR_FILENO));
  std::size_t done = 0, failed = 0;
  if (!mine.empty()) progress.show(progress_text(0, mine.size(), 0, mine.front()));
  std::vector<CheckOutcome> outcomes = check_scenarios(mine, options, args.jobs, [&](const CheckOutcome& o) {
    progress.clear();
    print(o.report);
    ++done;
    failed += o.verdict == Verdict::Pass ? 0 : 1;
    if (done < mine.size()) progress.show(progress_text(done, mine.size(), failed, mine[done]));
  });
  progress.clear();

  // Orphans are only knowable when every scenario under the root was seen
  // (and only matter when goldens are compared).
  if (names_whole_root(args.paths, args.scenario_root) && !shard->active() &&
      *controller == ControllerKind::Stepslide) {
    for (const std::string& golden : find_orphan_goldens(*files, args.scenario_root, args.golden_dir)) {
      outcomes.push_back(orphan_outcome(golden, options));
      print(outcomes.back().report);
    }
  }
  const bool report_ok = args.report_dir.empty() || write_report(args.report_dir, outcomes);
  // --self-check: nondeterminism is reported apart from regressions.
  std::vector<SelfCheckOutcome> self_checked;
  if (args.self_check) {
    self_checked = self_check(mine);
    for (const SelfCheckOutcome& o : self_checked) std::cout << o.report;
    std::cout << self_check_line(self_checked) << "\n";
  }
  std::cout << closing_line(outcomes) << "\n" << std::flush;

  int code = report_ok ? exit_code_for(outcomes) : kExitInvalid;
  const bool nondeterministic = std::any_of(self_checked.begin(), self_checked.end(),
                                            [](const SelfCheckOutcome& o) { return !o.deterministic; });
  if (nondeterministic && code == kExitOk) code = kExitFailure;
  if (!args.junit.empty()) {
    const std::string error = write_file_atomic(args.junit, junit_xml("stepslide check", junit_cases(outcomes))).error();
    if (!error.empty()) {
      std::cerr << "error: cannot write " << args.junit << ": " << error << "\n";
      code = kExitInvalid;
    }
  }
  return code;
}

int bless_command(const BlessArgs& args) {
  const std::optional<ControllerKind> controller = controller_or_report(args.controller);
  if (!controller) return kExitInvalid;
  if (*controller != ControllerKind::Stepslide) {
    return usage_error(std::string("bless --controller ") + controller_name(*controller) +
                       ": goldens record the stepslide controller only; use `check --controller " +
                       controller_name(*controller) + "` to evaluate its expectations");
  }
  const char* ci = std::getenv("CI");
  if (ci != nullptr && *ci != '\0' && !args.force) {
    return usage_error(std::string("refusing to bless: the CI environment variable is set (CI=") + ci +
                       "); goldens are blessed by a person who has looked at the change, not by a CI job. "
                       "Use --force to bless anyway.");
  }
  const std::optional<std::vector<std::string>> paths = paths_or_root(args.paths, args.scenario_root);
  if (!paths) return kExitInvalid;
  const std::optional<std::vector<std::string>> files = scenario_files(*paths);
  if (!files) return kExitInvalid;
  const std::optional<std::vector<LoadedScenario>> loaded = load_all_or_report(*files);
  if (!loaded) return kExitInvalid;

  GateOptions options;
  options.scenario_root = args.scenario_root;
  options.golden_dir = args.golden_dir;
  options.fingerprint = build_fingerprint();
  int code = kExitOk;
  for (const LoadedScenario& scenario : *loaded) {
    const BlessOutcome outcome = bless_scenario(scenario, options);
    (outcome.verdict == Verdict::Pass ? std::cout : std::cerr) << outcome.report << std::flush;
    if (outcome.verdict == Verdict::Invalid) code = kExitInvalid;
    if (outcome.verdict == Verdict::Fail && code == kExitOk) code = kExitFailure;
  }
  if (names_whole_root(args.paths, args.scenario_root)) {
    for (const std::string& golden : find_orphan_goldens(*files, args.scenario_root, args.golden_dir)) {
      std::cout << "note: " << golden << " has no scenario; `stepslide check` fails on it until it is deleted\n";
    }
  }
  return code;
}

int diff_command(const DiffArgs& args) {
  const std::optional<DiffRules> rules = rules_or_report(args.exact, args.tolerances);
  if (!rules) return kExitInvalid;
  std::optional<Trajectory> sides[2];
  const std::string* names[2] = {&args.expected, &args.actual};
  for (int i = 0; i < 2; ++i) {
    const Expected<std::string> text = read_file(*names[i]);
    std::string error = text.error();
    if (text) sides[i] = parse_csv(*text, &error);
    if (!sides[i]) return usage_error(*names[i] + ": " + error);
  }
  const DiffResult diff = diff_trajectories(*sides[0], *sides[1], *rules);
  if (diff.equal) {
    std::cout << "no differences: " << args.actual << " matches " << args.expected << "\n";
    return kExitOk;
  }
  const std::optional<std::string> build_a = metadata_value(*sides[0], "build");
  const std::optional<std::string> build_b = metadata_value(*sides[1], "build");
  std::cout << args.actual << " differs from " << args.expected << "\n";
  if (build_a && build_b && *build_a != *build_b) {
    std::cout << "note: the files were written by different builds: " << *build_a << " (" << args.expected
              << ") and " << *build_b << " (" << args.actual << ")\n";
  }
  std::string report = format_diff_report(diff, *sides[0], *sides[1]);
  if (!report.empty() && report.back() != '\n') report += '\n';
  std::cout << report;
  return kExitFailure;
}

int validate_command(const std::vector<std::string>& paths) {
  const std::optional<std::vector<std::string>> files = scenario_files(paths);
  if (!files) return kExitInvalid;
  int code = kExitOk;
  for (const std::string& file : *files) {
    const LoadedScenario loaded = load_scenario(file);
    if (loaded.valid()) {
      std::cout << "ok " << file << "\n";
    } else {
      std::cerr << format_load_errors(loaded.load);
      code = kExitInvalid;
    }
  }
  return code;
}

int plot_command(const PlotArgs& args) {
  const std::optional<DiffRules> rules = rules_or_report(args.exact, args.tolerances);
  if (!rules) return kExitInvalid;
  const LoadedScenario loaded = load_scenario(args.scenario);
  if (!loaded.valid()) {
    std::cerr << format_load_errors(loaded.load);
    return kExitInvalid;
  }
  const std::string& reference_path = args.golden.empty() ? args.against : args.golden;
  std::optional<Trajectory> reference;
  if (!reference_path.empty()) {
    const Expected<std::string> text = read_file(reference_path);
    std::string error = text.error();
    if (text) reference = parse_csv(*text, &error);
    if (!reference) return usage_error(reference_path + ": " + error);
    const std::vector<std::string> missing = missing_plot_columns(*reference);
    if (!missing.empty()) {
      std::string names;
      for (const std::string& name : missing) names += (names.empty() ? "" : ", ") + name;
      return usage_error(reference_path + ": expected columns x, y and z to plot, missing " + names);
    }
  }
  std::string error;
  const std::optional<SimulationResult> sim = simulate_with_metadata(loaded, build_fingerprint(), &error);
  if (!sim) return usage_error(error);

  std::optional<DiffResult> diff;
  if (reference) diff = diff_trajectories(*reference, sim->trajectory, *rules);
  std::vector<PlotTrace> traces{{"this run", &sim->trajectory}};
  if (reference) traces.push_back({(args.golden.empty() ? "reference: " : "golden: ") + reference_path, &*reference});
  const std::string svg = plot_svg(*loaded.load.scenario, traces, diff ? diff->first : std::nullopt);

  const bool to_stdout = args.out == "-";
  if (to_stdout) {
    std::cout << svg << std::flush;
  } else if (const std::string write_error = write_file_atomic(args.out, svg).error(); !write_error.empty()) {
    return usage_error("cannot write " + args.out + ": " + write_error);
  }
  std::ostream& report = to_stdout ? std::cerr : std::cout;
  report << "plotted " << loaded.path << (to_stdout ? "" : " -> " + args.out);
  if (diff && diff->equal) report << "; matches " << reference_path;
  if (diff && !diff->equal) {
    report << "; differs from " << reference_path << ": "
           << diff_summary(format_diff_report(*diff, *reference, sim->trajectory, 0));
  }
  report << "\n" << format_expectation_failures(loaded.path, sim->expectation_failures) << std::flush;
  const bool failed = (diff && !diff->equal) || !sim->expectation_failures.empty();
  return failed ? kExitFailure : kExitOk;
}

int settings_command(bool json) {
  const ControllerSettings defaults;
  const std::vector<SettingInfo>& table = setting_table();
  if (json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const SettingInfo& info : table) {
      nlohmann::ordered_json row;
      row["name"] = info.name;
      row["type"] = info.is_integer ? "integer" : "real";
      if (info.is_integer) {
        row["default"] = static_cast<long long>(get_setting(defaults, info));
      } else {
        row["default"] = get_setting(defaults, info);
      }
      row["unit"] = info.unit;
      row["min"] = info.min_value;
      row["max"] = info.max_value;
      row["description"] = info.description;
      out.push_back(row);
    }
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows = {{"setting", "default", "unit", "range", "description"}};
  for (const SettingInfo& info : table) {
    rows.push_back({info.name, setting_value_text(info, get_setting(defaults, info)), info.unit,
                    "[" + setting_value_text(info, info.min_value) + ", " + setting_value_text(info, info.max_value) +
                        "]",
                    info.description});
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    std::cout << line << "\n";
  }
  return kExitOk;
}

std::string version_text() { return "stepslide " + build_info().version + "\nbuild: " + build_fingerprint(); }

}  // namespace stepslide::cli
