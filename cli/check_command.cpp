// `stepslide check`: simulate scenarios and compare them with their goldens.
// The library decides what is checked and the exit code (run_check); this
// file prints, in colour on a terminal, with a progress line on stderr.
#include <iostream>
#include <unistd.h>

#include "command.h"
#include "filter_option.h"
#include "gate/commands/check_run.h"
#include "gate/core/console.h"
#include "gate/core/text.h"
#include "options.h"

namespace stepslide::cli {

namespace {

/// How far a check is, for the progress line.
struct Progress {
  std::vector<std::string> scenarios;
  std::size_t done = 0;
  std::size_t failed = 0;

  void count(const CheckOutcome& outcome) {
    ++done;
    failed += outcome.verdict == Verdict::Pass ? 0 : 1;
  }
  /// "[12/31] 1 failed | checking <the next scenario>"
  std::string text() const { return progress_text(done, scenarios.size(), failed, scenarios[done]); }
};

class CheckCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* check = app.add_subcommand("check", "Simulate scenarios and compare them with their goldens.");
    check->add_option("PATH", request_.paths, "scenario files or directories (default: the scenario root)");
    add_root_options(check, &request_.scenario_root, &request_.golden_dir);
    check->add_option("--junit", request_.junit, "also write a JUnit XML report to this file");
    check
        ->add_option("-j,--jobs", request_.jobs,
                     "scenarios checked in parallel (0: one per core; default: the project file's jobs, else 1); "
                     "output is the same")
        ->capture_default_str();
    add_tolerance_options(check, &request_.tolerances, &request_.exact);
    add_project_options(check, &request_.project);
    check->add_flag("--self-check", request_.self_check,
                    "also run every scenario twice in this process (the second pass in reverse order) and report "
                    "any difference as NONDETERMINISTIC, apart from regressions, before the closing line; exit 1 if "
                    "any");
    check->add_flag("--hash", request_.hash,
                    "also print each run's determinism hash, 'hash fnv1a64:<16 hex digits> <scenario>' (64-bit "
                    "FNV-1a over its CSV without the # lines), then the suite's, 'hash fnv1a64:<hex> suite of N "
                    "scenarios', before the closing line: two machines compare a whole suite by one line");
    check->add_option("--perturb", request_.perturb,
                      "also run every scenario N more times, each with the spawn point and every moving body's "
                      "path shifted by +-SIZE m per axis (deterministic: run k is the same shift everywhere), and "
                      "compare each with the unperturbed run under the scenario's tolerances; print STEADY, FRAGILE "
                      "or CHAOTIC per scenario with the spread per column group, then 'perturb: ...' and the "
                      "fragile list before the closing line; exit 1 for a fragile scenario not declared "
                      "\"chaotic\"; not with --exact")
        ->type_name("N");
    check->add_option("--perturb-size", request_.perturb_size, "the size of each --perturb shift, metres, in (0, 1]")
        ->type_name("SIZE")
        ->capture_default_str();
    add_controller_option(check, &request_.controller,
                          "; goldens record stepslide only, so bullet is checked against each scenario's "
                          "expectations alone (no goldens, no orphans)");
    check->add_option("--report", request_.report_dir,
                      "also write DIR/index.html: every scenario's status and, per failure, a plot of the run over "
                      "its golden, the first divergence and the worst error per column (one self-contained page); "
                      "default: the project file's report_dir, else none")
        ->type_name("DIR");
    add_filter_option(check, &request_.filters);
    check->add_option("--update", request_.update,
                      "what to do with the run of a failing scenario: auto (write GOLDEN.csv.new, except in CI), new "
                      "(write it in CI too), always (overwrite the golden, as bless; refused in CI without --force), "
                      "no (write nothing); default: STEPSLIDE_UPDATE, else auto")
        ->check(CLI::IsMember({"auto", "new", "always", "no"}))
        ->type_name("MODE");
    check->add_flag("--force", request_.force, "allow --update always (or STEPSLIDE_UPDATE=always) in CI");
    check->add_option("--color", color_, "colour PASS/FAIL: auto (on a terminal, unless NO_COLOR is set), "
                                         "always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
    check->footer(
        "Prints 'PASS <scenario>' per passing scenario and, per failure, a report: the first divergent tick and "
        "column with expected and actual values and context rows, the worst error per column, and failed "
        "expectations; a note comes first when the golden was written by a different build. Once per run, a note on "
        "stderr says how many goldens another build wrote and which fingerprint fields differ (architecture, "
        "compiler, build type, flags, Bullet), even when every check passes. A missing golden "
        "fails, and so does a scenario outside the scenario root (it has no golden; the report gives the roots "
        "that would give it one). Unsharded, a golden with no scenario fails too, among the goldens the PATHs "
        "cover (the whole golden root for none; GOLDEN/a for a folder ROOT/a; nothing for a file). Ends with "
        "'N passed, N failed'.\n"
        "Pending results: the run of a scenario that fails against its golden (or has none), when its own "
        "expectations pass, is written beside the golden as GOLDEN/a/b.csv.new for `stepslide review`, "
        "`accept` and `reject`; a scenario that passes removes its stale .new. STEPSLIDE_UPDATE (or --update): "
        "auto (default) writes .new files except in CI; new writes them in CI too; always overwrites goldens "
        "instead (refused in CI without --force); no writes nothing. CI means the CI variable is set to anything "
        "but '', 0 or false.\n"
        "Sharding: GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX or TEST_TOTAL_SHARDS/TEST_SHARD_INDEX select every "
        "TOTAL-th scenario of the sorted list; TEST_SHARD_STATUS_FILE is touched when set.\n"
        "On a terminal, a progress line on stderr shows how far the run is; never when stderr is not a terminal "
        "or in CI.\n" +
        std::string(kExitCodes) + " An invalid scenario, an unreadable golden or an unwritable pending result gives "
                                  "2.");
    return check;
  }

  int run() override {
    const std::optional<ColorMode> color_mode = parse_color_mode(color_);
    if (!color_mode) {
      std::cerr << error_line("--color " + color_ + ": expected auto, always or never");
      return kExitInvalid;
    }
    // On a terminal (never in CI) one line on stderr says how far the run is.
    ProgressLine line(std::cerr, progress_enabled(read_console_facts(STDERR_FILENO)), terminal_columns(STDERR_FILENO));
    Progress progress;
    request_.env = process_env;
    listen(color_enabled(*color_mode, read_console_facts(STDOUT_FILENO)), line, progress);
    const CheckRun run = run_check(request_);
    line.clear();
    print_ending(run);
    return run.exit_code;
  }

 private:
  /// Prints each outcome as soon as it is known, keeping the progress line
  /// below the output.
  void listen(bool color, ProgressLine& line, Progress& progress) {
    request_.listener.on_start = [&line, &progress](const std::vector<std::string>& scenarios) {
      progress.scenarios = scenarios;
      if (!scenarios.empty()) line.show(progress_text(0, scenarios.size(), 0, scenarios.front()));
    };
    request_.listener.on_outcome = [color, &line, &progress](const CheckOutcome& outcome) {
      line.clear();
      std::cout << (color ? colorize_verdicts(outcome.report) : outcome.report) << std::flush;
      progress.count(outcome);
      if (progress.done < progress.scenarios.size()) line.show(progress.text());
    };
    request_.listener.on_warning = [](const std::string& text) { std::cerr << text; };
  }

  /// What follows the outcomes: the report's page, the self-check, the
  /// closing line, and any file that could not be written.
  static void print_ending(const CheckRun& run) {
    std::cerr << run.errors;
    if (!run.errors.empty()) return;
    if (!run.report_page.empty()) std::cout << "report: " << run.report_page << "\n";
    std::cerr << run.report_error << run.report_warning;
    if (run.self_checked) {
      for (const SelfCheckOutcome& o : run.self_check) std::cout << o.report;
      std::cout << self_check_line(run.self_check) << "\n";
    }
    if (run.perturbed) {
      for (const PerturbOutcome& o : run.perturb) std::cout << o.report;
      std::cout << run.perturb_summary;
    }
    std::cout << run.hashes;
    std::cout << std::flush;
    std::cerr << run.build_note;
    std::cout << closing_line(run.outcomes) << "\n" << std::flush;
    std::cerr << run.junit_error;
  }

  CheckRequest request_;
  std::string color_ = "auto";  ///< auto, always or never
};

}  // namespace

std::unique_ptr<Command> make_check_command() { return std::make_unique<CheckCommand>(); }

}  // namespace stepslide::cli
