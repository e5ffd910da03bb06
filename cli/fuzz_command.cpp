// `stepslide fuzz`: random worlds and input, invariants checked every tick,
// violations shrunk and saved as scenario files; `--replay` checks files.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <unistd.h>

#include "command.h"
#include "base/file_io.h"
#include "fuzz/campaign.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/replay.h"
#include "scenario/json/readable_json.h"
#include "gate/core/console.h"
#include "gate/core/discovery.h"
#include "gate/core/exit_code.h"

namespace stepslide::cli {

namespace {

struct FuzzArgs {
  std::uint64_t seed = 1;
  std::int64_t count = 100;
  std::string out_dir = "fuzz-findings";
  std::int64_t max_ticks = 360;
  bool no_shrink = false;
  bool keep = false;
  int jobs = 1;
  std::vector<std::string> replay;  ///< scenario files to check instead of generating
  std::string to_input;             ///< a scenario file to write as a libFuzzer input
  std::string from_input;           ///< a libFuzzer input to write as a scenario file
  std::string output = "-";         ///< where --to-input / --from-input write ("-": stdout)
  std::string level;                ///< walk this level (or scenario's world) instead of random worlds
};

/// Writes `text` to `path`, or to stdout for "-"; exit code.
int write_output(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text << std::flush;
    return kExitOk;
  }
  const std::string error = write_file_atomic(path, text).error();
  if (error.empty()) return kExitOk;
  std::cerr << "error: cannot write " << path << ": " << error << "\n";
  return kExitInvalid;
}

/// --to-input: the scenario as an input of the controller's libFuzzer target.
int to_input(const FuzzArgs& args) {
  const Expected<std::string> input = scenario_to_fuzz_input(args.to_input);
  if (!input.ok()) {
    std::cerr << "error: " << input.error() << "\n";
    return kExitInvalid;
  }
  return write_output(args.output, *input);
}

/// --from-input: the scenario a libFuzzer input decodes to, as it is run.
int from_input(const FuzzArgs& args) {
  const Expected<std::string> bytes = read_file(args.from_input, 64ll << 20);
  if (!bytes.ok()) {
    std::cerr << "error: " << args.from_input << ": " << bytes.error() << "\n";
    return kExitInvalid;
  }
  const Expected<nlohmann::ordered_json> document = fuzz_input_document(*bytes, args.from_input);
  if (!document.ok()) {
    std::cerr << "error: " << args.from_input << ": " << document.error() << "\n";
    return kExitInvalid;
  }
  return write_output(args.output, readable_json(*document) + "\n");
}

/// Checks each file's invariants; exit 1 when any is violated, 2 when any is invalid.
int replay_files(const std::vector<std::string>& paths) {
  const ScenarioList list = discover_scenarios(paths);
  for (const std::string& error : list.errors) std::cerr << "error: " << error << "\n";
  if (!list.errors.empty() || list.files.empty()) {
    if (list.errors.empty()) std::cerr << "error: no scenarios (*.json) found\n";
    return kExitInvalid;
  }
  const ReplayResult replayed = replay_scenarios(list.files);
  std::cerr << replayed.errors;
  std::cout << replayed.report;
  if (replayed.any_invalid) return kExitInvalid;
  return replayed.any_violation ? kExitFailure : kExitOk;
}

CLI::App* add_fuzz(CLI::App& app, FuzzArgs& args) {
  CLI::App* fuzz = app.add_subcommand("fuzz", "Check the controller's invariants on random worlds and input.");
  fuzz->add_option("--seed", args.seed, "first seed; scenario i uses seed + i")->capture_default_str();
  fuzz->add_option("--count", args.count, "number of random scenarios")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40))
      ->capture_default_str();
  fuzz->add_option("--out-dir", args.out_dir, "where violations are saved as scenario files")->capture_default_str();
  fuzz->add_option("--max-ticks", args.max_ticks, "longest generated scenario, in ticks (shortest: 120)")
      ->check(CLI::Range(std::int64_t{120}, std::int64_t{100000}))
      ->capture_default_str();
  fuzz->add_option("-j,--jobs", args.jobs,
                   "worlds checked at once, on threads (0: one per core); the output is the same for any value")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  fuzz->add_flag("--no-shrink", args.no_shrink, "save violations as generated, without shrinking them");
  fuzz->add_flag("--keep", args.keep, "also save every generated scenario as DIR/seed<N>.json, to look at or plot");
  fuzz->add_option("--replay", args.replay, "check these scenario files (or directories) instead of random ones");
  CLI::Option* to = fuzz->add_option(
      "--to-input", args.to_input, "write this scenario file as an input of the controller's libFuzzer target");
  CLI::Option* from = fuzz->add_option(
      "--from-input", args.from_input, "write the scenario this libFuzzer input decodes to, as it is run");
  to->excludes(from);
  fuzz->add_option("-o,--output", args.output, "where --to-input or --from-input write (- for stdout)")
      ->capture_default_str();
  fuzz->add_option("--level", args.level,
                   "walk random routes on this level file (or a scenario's world) instead of random worlds; walk i "
                   "uses seed + i")
      ->excludes("--replay");
  fuzz->footer(
      "Each random scenario (boxes, thin walls, ramps, stairs, spheres, pillars, hulls, meshes, heightfields, "
      "moving platforms and spinners; dynamic crates, seesaws and resting stacks, one-way platforms, layers; a "
      "random character shape, crouch shape and settings, sometimes one or two more characters; random stick, camera, jump, wish_velocity, crouch and "
      "drop input) is written as JSON, loaded back like a file and simulated on the same path as "
      "`run`. On every tick: the state is finite; unless the tick reports the character stuck, its shape "
      "overlaps the world by at most skin_width; its centre never passes through a static box or a static "
      "mesh or heightfield surface; it rises no faster than its velocity, a jump, one step, the slope limit and "
      "moving bodies allow; it falls no faster than terminal_velocity; it never passes through a dynamic box nor speeds up more than "
      "its input, a jump, gravity and the moving bodies near it allow; a stack at rest stays at rest until "
      "something comes near; its shape changes only where the new one fits; it never ends a tick inside a "
      "one-way body it was above; no two characters overlap by more than their skins (overlap, tunnel and rise are "
      "checked on every character). A second run must be byte-identical.\n"
      "A violation is shrunk (bodies, motion, input keys and fields, settings and ticks dropped while it still "
      "fails) and saved as DIR/seed<N>_<kind>.json, an ordinary scenario: `stepslide run` simulates it (for "
      "overlap, rise and a fall through a floor it carries an expectation that fails) and `stepslide fuzz "
      "--replay` checks it again. "
      "`--to-input SCENARIO -o FILE` and `--from-input FILE -o SCENARIO` convert between scenario files and "
      "inputs of the controller's libFuzzer target (fuzz/controller/; docs/fuzzing.md): an input is scenario "
      "text, or any other bytes, which drive the random-world generator's draws.\n"
      "With --level FILE (a stepslide/level@1 file, or a scenario whose world and character are kept), each "
      "scenario is a walk on that level instead: it starts on a random point of the level's walkable floors "
      "and steers through 1 to 4 others, with random stick lengths and walking speeds, turns off the route and "
      "jumps, over whatever drops the routes lead to; the same invariants are checked on every tick, plus: no "
      "upward speed gained on a tick that starts in the air, and no flight above the ballistic apex of its "
      "take-off. A finding is saved as a scenario that includes the level by a path relative to DIR. "
      "`--seed N --count 1` regenerates one scenario of a longer run. With -j N, N worlds are checked at once "
      "and findings are still printed in seed order, so the output does not depend on N.\n"
      "Exit codes: 0 no violation; 1 a violation; 2 invalid input or usage (or a generated scenario the loader "
      "refused, a fuzzer bug, or a file that cannot be written).");
  return fuzz;
}

FuzzOptions fuzz_options(const FuzzArgs& args) {
  FuzzOptions options;
  options.seed = args.seed;
  options.count = args.count;
  options.out_dir = args.out_dir;
  options.shrink = !args.no_shrink;
  options.keep_all = args.keep;
  options.jobs = args.jobs;
  options.world.max_ticks = args.max_ticks;
  return options;
}

/// "[12/100] 1 violations | seed 13"
std::string fuzz_progress_text(const FuzzArgs& args, std::int64_t done, std::size_t found) {
  return "[" + std::to_string(done) + "/" + std::to_string(args.count) + "] " +
         (found > 0 ? std::to_string(found) + " violations | " : "") + "seed " +
         std::to_string(args.seed + static_cast<std::uint64_t>(done));
}

/// "fuzz: 100 scenarios (seeds 1..100), 24000 ticks checked, 0 violations"
std::string closing_text(const FuzzArgs& args, const FuzzSummary& summary) {
  const std::uint64_t last_seed = args.seed + static_cast<std::uint64_t>(std::max<std::int64_t>(args.count, 1) - 1);
  const std::size_t found = summary.findings.size();
  return "fuzz: " + std::to_string(summary.scenarios) + " scenarios (seeds " + std::to_string(args.seed) + ".." +
         std::to_string(last_seed) + "), " + std::to_string(summary.ticks) + " ticks checked, " +
         std::to_string(found) + " violation" + (found == 1 ? "" : "s") + "\n";
}

int fuzz_command(const FuzzArgs& args) {
  if (!args.replay.empty()) return replay_files(args.replay);
  if (!args.to_input.empty()) return to_input(args);
  if (!args.from_input.empty()) return from_input(args);
  FuzzOptions options = fuzz_options(args);
  Expected<LevelFloors> level = Expected<LevelFloors>::failure("");
  if (!args.level.empty()) {
    level = read_level_floors(args.level, args.out_dir);
    if (!level) {
      std::cerr << "error: " << level.error() << "\n";
      return kExitInvalid;
    }
    options.level = &*level;
  }
  // On a terminal (never in CI) one line on stderr says how far the run is.
  ProgressLine progress(std::cerr, progress_enabled(read_console_facts(STDERR_FILENO)),
                        terminal_columns(STDERR_FILENO));
  std::size_t found = 0;
  options.on_progress = [&](std::int64_t done) { progress.show(fuzz_progress_text(args, done, found)); };
  const FuzzSummary summary = run_fuzz(options, [&](const FuzzFinding& finding) {
    progress.clear();
    ++found;
    std::cout << format_finding(finding) << "\n" << std::flush;
  });
  progress.clear();
  for (const std::string& error : summary.generator_errors) std::cerr << "error: " << error << "\n";
  std::cout << closing_text(args, summary);
  if (!summary.scenarios_by_kind.empty()) {
    std::cout << "fuzz: scenarios by kind of violation:";
    for (const auto& [kind, count] : summary.scenarios_by_kind) std::cout << " " << kind << " " << count;
    std::cout << "\n";
  }
  if (summary.unplaced > 0) {
    std::cout << "fuzz: " << summary.unplaced << " walks skipped: no start point the loader accepted\n";
  }
  if (!summary.generator_errors.empty()) return kExitInvalid;
  const bool failing = std::any_of(summary.findings.begin(), summary.findings.end(),
                                   [](const FuzzFinding& f) { return !invariant_is_open(f.violation.kind); });
  if (!summary.findings.empty() && !failing) {
    std::cout << "fuzz: only open invariants were violated (docs/fuzzing.md \"Open invariants\"): not a failure\n";
  }
  return failing ? kExitFailure : kExitOk;
}

class FuzzCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override { return add_fuzz(app, args_); }
  int run() override { return fuzz_command(args_); }

 private:
  FuzzArgs args_;
};

}  // namespace

std::unique_ptr<Command> make_fuzz_command() { return std::make_unique<FuzzCommand>(); }

}  // namespace stepslide::cli
