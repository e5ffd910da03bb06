// `stepslide`: command-line parsing only. Each subcommand's behaviour lives in
// commands.cpp and the library; this file declares options and help text.
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

#include "commands.h"
#include "trace_command.h"
#include "view_command.h"
#include "fuzz_command.h"
#include "gate/gate.h"

namespace {

using namespace stepslide::cli;

constexpr const char* kExitCodes =
    "Exit codes: 0 success; 1 a regression, a failed expectation or a mismatch; 2 invalid input or usage.";

/// Adds the shared comparison options of `check` and `diff`.
void add_tolerance_options(CLI::App* command, std::vector<std::string>* tolerances, bool* exact) {
  command
      ->add_option("--tol", *tolerances,
                   "COLUMN=ABS: absolute tolerance for one column, e.g. --tol y=1e-4; repeatable; "
                   "applied after --exact")
      ->allow_extra_args(false)
      ->type_name("COLUMN=ABS");
  command->add_flag("--exact", *exact, "compare every column with tolerance 0 (then --tol overrides)");
}

void add_root_options(CLI::App* command, std::string* scenario_root, std::string* golden_dir) {
  command->add_option("--scenario-root", *scenario_root, "root that golden paths are relative to")
      ->capture_default_str();
  command->add_option("--golden-dir", *golden_dir, "golden root: ROOT/a/b.json <-> GOLDEN/a/b.csv")
      ->capture_default_str();
}

/// --controller: ours, or Bullet's btKinematicCharacterController as the reference.
void add_controller_option(CLI::App* command, std::string* controller, const std::string& what) {
  command->add_option("--controller", *controller, "stepslide (ours) or bullet (btKinematicCharacterController)" + what)
      ->check(CLI::IsMember({"stepslide", "bullet"}))
      ->capture_default_str();
}

CLI::App* add_run(CLI::App& app, RunArgs& args) {
  CLI::App* run = app.add_subcommand("run", "Simulate scenarios and write their trajectories as CSV.");
  run->add_option("SCENARIO", args.scenarios, "scenario files, or directories searched for *.json")->required();
  CLI::Option* out = run->add_option("--out", args.out, "write the one scenario's CSV here; '-' is stdout");
  run->add_option("--out-dir", args.out_dir, "write <scenario name>.csv files here")
      ->capture_default_str()
      ->excludes(out);
  add_controller_option(run, &args.controller, "; bullet's CSV has the same columns, 0 where it has no equivalent");
  run->add_flag("--stats", args.stats,
                "also print microseconds and sweeps per tick for each scenario (wall time of the controller's "
                "updates; the CSV is unchanged)");
  run->footer(
      "Every scenario is validated before anything is written: if one is invalid, its errors are printed and "
      "no file is written. Output is written atomically (never a partial file) with '#' metadata lines "
      "(format, scenario hash, build). One summary line per scenario goes to stdout (stderr with --out -), "
      "followed by any failed expectations; the trajectory is still written when expectations fail.\n" +
      std::string(kExitCodes));
  return run;
}

CLI::App* add_check(CLI::App& app, CheckArgs& args) {
  CLI::App* check = app.add_subcommand("check", "Simulate scenarios and compare them with their goldens.");
  check->add_option("PATH", args.paths, "scenario files or directories (default: the scenario root)");
  add_root_options(check, &args.scenario_root, &args.golden_dir);
  check->add_option("--junit", args.junit, "also write a JUnit XML report to this file");
  check->add_option("-j,--jobs", args.jobs, "scenarios checked in parallel (0: one per core); output is the same")
      ->capture_default_str();
  add_tolerance_options(check, &args.tolerances, &args.exact);
  check->add_flag("--self-check", args.self_check,
                  "also run every scenario twice in this process (the second pass in reverse order) and report "
                  "any difference as NONDETERMINISTIC, apart from regressions, before the closing line; exit 1 if any");
  add_controller_option(check, &args.controller,
                        "; goldens record stepslide only, so bullet is checked against each scenario's "
                        "expectations alone (no goldens, no orphans)");
  check->add_option("--report", args.report_dir,
                    "also write DIR/index.html: every scenario's status and, per failure, a plot of the run over "
                    "its golden, the first divergence and the worst error per column (one self-contained page)")
      ->type_name("DIR");
  check->add_option("--color", args.color, "colour PASS/FAIL: auto (on a terminal, unless NO_COLOR is set), "
                                            "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  check->footer(
      "Prints 'PASS <scenario>' per passing scenario and, per failure, a report: the first divergent tick and "
      "column with expected and actual values and context rows, the worst error per column, and failed "
      "expectations; a note comes first when the golden was written by a different build. A missing golden "
      "fails. With no PATH (the whole root) and no sharding, a golden with no scenario fails too. Ends with "
      "'N passed, N failed'.\n"
      "Sharding: GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX or TEST_TOTAL_SHARDS/TEST_SHARD_INDEX select every "
      "TOTAL-th scenario of the sorted list; TEST_SHARD_STATUS_FILE is touched when set.\n"
      "On a terminal, a progress line on stderr shows how far the run is; never when stderr is not a terminal "
      "or the CI environment variable is set.\n" +
      std::string(kExitCodes) + " An invalid scenario or unreadable golden gives 2.");
  return check;
}

CLI::App* add_bless(CLI::App& app, BlessArgs& args) {
  CLI::App* bless = app.add_subcommand("bless", "Write goldens from the current build's trajectories.");
  bless->add_option("PATH", args.paths, "scenario files or directories (default: the scenario root)");
  add_root_options(bless, &args.scenario_root, &args.golden_dir);
  bless->add_flag("--force", args.force, "bless even when the CI environment variable is set");
  add_controller_option(bless, &args.controller, "; goldens record stepslide only, so bullet is refused");
  bless->footer(
      "Goldens are written atomically and only when their bytes change; each is reported as new, changed "
      "(with the first difference), metadata only, or unchanged. Refuses to run when CI is set (use --force). "
      "Every scenario is validated first: if one is invalid, nothing is written (exit 2). A scenario whose "
      "own expectations fail is not blessed (exit 1); the others still are.\n" +
      std::string(kExitCodes));
  return bless;
}

CLI::App* add_diff(CLI::App& app, DiffArgs& args) {
  CLI::App* diff = app.add_subcommand("diff", "Compare two trajectory CSV files with the rules of check.");
  diff->add_option("EXPECTED", args.expected, "the reference trajectory, e.g. a golden")->required();
  diff->add_option("ACTUAL", args.actual, "the trajectory compared with it")->required();
  add_tolerance_options(diff, &args.tolerances, &args.exact);
  diff->footer("Metadata ('#' lines) is not compared.\n" + std::string(kExitCodes) +
               " 0: equal within tolerance; 1: different; 2: a file cannot be read or parsed.");
  return diff;
}

CLI::App* add_validate(CLI::App& app, std::vector<std::string>& paths) {
  CLI::App* validate = app.add_subcommand("validate", "Check scenario files without simulating them.");
  validate->add_option("SCENARIO", paths, "scenario files, or directories searched for *.json")->required();
  validate->footer(
      "Prints 'ok FILE' per valid scenario; every error goes to stderr as 'FILE: /json/path: message'.\n" +
      std::string(kExitCodes) + " 2 when any scenario is invalid.");
  return validate;
}

CLI::App* add_plot(CLI::App& app, PlotArgs& args) {
  CLI::App* plot = app.add_subcommand("plot", "Draw a scenario's run as an SVG: top and side views of the level "
                                              "and the trajectory.");
  plot->add_option("SCENARIO", args.scenario, "the scenario file")->required();
  CLI::Option* golden = plot->add_option("--golden", args.golden, "also draw this golden trajectory and mark the "
                                                                  "first tick where the run differs from it");
  plot->add_option("--against", args.against, "like --golden, for any other trajectory CSV (e.g. another build's)")
      ->excludes(golden);
  plot->add_option("--out", args.out, "the SVG file to write; '-' is stdout")->required();
  add_tolerance_options(plot, &args.tolerances, &args.exact);
  plot->footer(
      "The top view shows every body's outline seen from above, shaded by height (moving bodies dashed at tick 0 "
      "and solid at the end); the side view shows the height of the feet against the horizontal distance "
      "travelled (against time when the run barely moves), over the ground found under the feet. Both mark a "
      "tick every few ticks, steps up and down, and airborne stretches (dashed). The file is self-contained and "
      "written atomically.\n" +
      std::string(kExitCodes) + " 1: the picture was written but the run differs from the reference or fails "
                                "an expectation.");
  return plot;
}

CLI::App* add_settings(CLI::App& app, bool& json) {
  CLI::App* settings = app.add_subcommand("settings", "List the controller settings with defaults and units.");
  settings->add_flag("--json", json, "print a JSON array instead of a table");
  settings->footer("The names are those of a scenario's character.settings object.\n" + std::string(kExitCodes));
  return settings;
}

int dispatch(int argc, char** argv) {
  CLI::App app{"stepslide: a deterministic headless simulator and regression gate for a kinematic character "
               "controller on Bullet Physics.",
               "stepslide"};
  app.set_version_flag("--version", version_text());
  FuzzArgs fuzz_args;
  CLI::App* fuzz = add_fuzz(app, fuzz_args);
  TraceArgs trace_args;
  CLI::App* trace = add_trace(app, trace_args);
  ViewArgs view_args;
  CLI::App* view = add_view(app, view_args);
  app.require_subcommand(1);
  app.footer(std::string(kExitCodes) + "\nRun 'stepslide COMMAND --help' for a command's options.");

  RunArgs run_args;
  CheckArgs check_args;
  BlessArgs bless_args;
  DiffArgs diff_args;
  std::vector<std::string> validate_paths;
  PlotArgs plot_args;
  bool settings_json = false;
  CLI::App* run = add_run(app, run_args);
  CLI::App* check = add_check(app, check_args);
  CLI::App* bless = add_bless(app, bless_args);
  CLI::App* diff = add_diff(app, diff_args);
  CLI::App* validate = add_validate(app, validate_paths);
  CLI::App* plot = add_plot(app, plot_args);
  CLI::App* settings = add_settings(app, settings_json);

  if (argc <= 1) {  // no command: show what there is, but as a usage error
    std::cerr << app.help();
    return stepslide::kExitInvalid;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, version or the error
    return code == 0 ? stepslide::kExitOk : stepslide::kExitInvalid;
  }
  if (run->parsed()) return run_command(run_args);
  if (check->parsed()) return check_command(check_args);
  if (bless->parsed()) return bless_command(bless_args);
  if (diff->parsed()) return diff_command(diff_args);
  if (validate->parsed()) return validate_command(validate_paths);
  if (plot->parsed()) return plot_command(plot_args);
  if (settings->parsed()) return settings_command(settings_json);
  if (trace->parsed()) return trace_command(trace_args);
  if (view->parsed()) return view_command(view_args);
  if (fuzz->parsed()) return fuzz_command(fuzz_args);
  return stepslide::kExitInvalid;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "error: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "error: internal error\n";
  }
  return stepslide::kExitInvalid;
}
