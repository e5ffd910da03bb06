// `stepslide run`: simulate scenarios and write their trajectories as CSV.
#include <iostream>

#include "command.h"
#include "filter_option.h"
#include "gate/commands/run.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class RunCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* run = app.add_subcommand("run", "Simulate scenarios and write their trajectories as CSV.");
    run->add_option("SCENARIO", request_.scenarios,
                    "scenario files, or directories searched for *.json (default: the scenario root, from the "
                    "project file, else scenarios)");
    add_project_options(run, &request_.project);
    CLI::Option* out = run->add_option("--out", request_.out, "write the one scenario's CSV here; '-' is stdout");
    run->add_option("--out-dir", request_.out_dir, "write <scenario name>.csv files here")
        ->capture_default_str()
        ->excludes(out);
    add_controller_option(run, &request_.controller,
                          "; bullet's CSV has the same columns, 0 where it has no equivalent");
    CLI::Option* stats = run->add_flag(
        "--stats", request_.stats,
        "also print microseconds per tick (the minimum and the median over --repeat runs: wall time of the "
        "controller's updates) and sweeps per tick for each scenario; the CSV is unchanged");
    run->add_option("--repeat", request_.repeat, "with --stats: runs of each scenario to time")
        ->capture_default_str()
        ->needs(stats);
    run->add_flag("--hash", request_.hash,
                  "also print each run's determinism hash after its summary, 'hash fnv1a64:<16 hex digits> "
                  "<scenario>' (64-bit FNV-1a over its CSV without the # lines), and the suite's last, 'hash "
                  "fnv1a64:<hex> suite of N scenarios', as check --hash does");
    add_filter_option(run, &request_.filters);
    run->footer(
        "Every scenario is validated before anything is written: if one is invalid, its errors are printed and "
        "no file is written. Output is written atomically (never a partial file) with '#' metadata lines "
        "(format, scenario hash, build). One summary line per scenario goes to stdout (stderr with --out -), "
        "followed by any failed expectations; the trajectory is still written when expectations fail. run has "
        "no scenario root: --filter names a scenario by its path below scenarios/ without .json, or by its "
        "path.\n" +
        std::string(kExitCodes));
    return run;
  }

  int run() override {
    const bool to_stdout = request_.out == "-";
    request_.on_item = [to_stdout](const RunItem& item) {
      if (!item.error.empty()) {
        std::cerr << item.error;
        return;
      }
      if (to_stdout) std::cout << item.csv << std::flush;
      (to_stdout ? std::cerr : std::cout) << item.report << std::flush;
    };
    const RunResult result = run_scenarios(request_);
    (to_stdout ? std::cerr : std::cout) << result.suite_hash << std::flush;
    std::cerr << result.errors << result.warnings;
    return result.exit_code;
  }

 private:
  RunRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace stepslide::cli
