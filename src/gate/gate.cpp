#include "gate/gate.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "base/file_io.h"
#include "gate/fingerprint.h"

namespace stepslide {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultScenarioRoot = "scenarios";
constexpr const char* kDefaultGoldenDir = "golden";

// ---------------------------------------------------------------------------
// Paths

/// "scenarios/./a//b.json/" → "scenarios/a/b.json"; "" → ".".
std::string normal_path(const fs::path& path) {
  std::string text = path.lexically_normal().generic_string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text.empty() ? "." : text;
}

/// Absolute and lexically normal, for comparing paths spelled differently.
fs::path absolute_normal(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;
  std::string text = normal_path(absolute);
  return fs::path(text);
}

bool is_hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name[0] == '.';
}

/// Every regular file below `dir` whose name ends in `extension`, skipping
/// hidden entries. Unreadable folders become errors, not silent gaps.
void collect_files(const fs::path& dir, const std::string& extension, std::vector<std::string>* files,
                   std::vector<std::string>* errors) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec);
  if (ec) {
    if (errors) errors->push_back(normal_path(dir) + ": cannot read directory: " + ec.message());
    return;
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path& path = it->path();
    if (is_hidden(path)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && path.extension() == extension) files->push_back(normal_path(path));
  }
  if (ec && errors) errors->push_back(normal_path(dir) + ": cannot read directory: " + ec.message());
}

/// `path` relative to `root` when it lies inside it. Tries the spelling given
/// first, then the resolved one, so a symlinked root still matches.
std::optional<fs::path> relative_inside(const fs::path& path, const fs::path& root) {
  auto inside = [](const fs::path& p, const fs::path& r) -> std::optional<fs::path> {
    const fs::path rel = p.lexically_relative(r);
    if (rel.empty() || rel == "." || *rel.begin() == "..") return std::nullopt;
    return rel;
  };
  if (auto rel = inside(absolute_normal(path), absolute_normal(root))) return rel;
  std::error_code ec1, ec2;
  const fs::path real_path = fs::weakly_canonical(path, ec1);
  const fs::path real_root = fs::weakly_canonical(root, ec2);
  if (ec1 || ec2) return std::nullopt;
  return inside(real_path, real_root);
}

std::string ensure_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

/// Metadata is line-oriented: control characters would break it.
std::string one_line(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) c = ' ';
  }
  return out;
}

std::string trim(const std::string& text) {
  const char* space = " \t\r\n";
  const std::size_t first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  const std::size_t last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

/// Quotes a shell word only when it needs it, for copy-pastable hints.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+=:,@", c) != nullptr;
  });
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// The command that blesses `scenario` into the same golden this check used.
std::string bless_command(const std::string& scenario, const GateOptions& options) {
  std::string command = "stepslide bless";
  if (normal_path(options.scenario_root) != kDefaultScenarioRoot) {
    command += " --scenario-root " + shell_word(options.scenario_root);
  }
  if (normal_path(options.golden_dir) != kDefaultGoldenDir) {
    command += " --golden-dir " + shell_word(options.golden_dir);
  }
  return command + " " + shell_word(scenario);
}

// ---------------------------------------------------------------------------
// Numbers from the environment and the command line

/// A whole decimal integer and nothing else.
std::optional<long long> parse_integer(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::size_t start = (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (start == text.size()) return std::nullopt;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  }
  return std::strtoll(text.c_str(), nullptr, 10);
}

std::optional<double> parse_real(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

/// One shard variable pair, e.g. GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX.
struct ShardPair {
  bool set = false;
  long long total = 1;
  long long index = 0;
};

std::optional<ShardPair> read_shard_pair(const EnvLookup& env, const std::string& total_name,
                                         const std::string& index_name, std::string* error) {
  auto value = [&](const std::string& name) -> std::optional<std::string> {
    const char* text = env(name.c_str());
    if (text == nullptr || *text == '\0') return std::nullopt;
    return std::string(text);
  };
  const std::optional<std::string> total_text = value(total_name);
  const std::optional<std::string> index_text = value(index_name);
  if (!total_text && !index_text) return ShardPair{};
  if (!total_text || !index_text) {
    *error = (total_text ? index_name : total_name) + " is not set but " + (total_text ? total_name : index_name) +
             " is: set both or neither";
    return std::nullopt;
  }
  const std::optional<long long> total = parse_integer(*total_text);
  const std::optional<long long> index = parse_integer(*index_text);
  if (!total || *total < 1 || *total > 1000000) {
    *error = total_name + "='" + *total_text + "': expected an integer from 1 to 1000000";
    return std::nullopt;
  }
  if (!index || *index < 0 || *index >= *total) {
    *error = index_name + "='" + *index_text + "': expected an integer from 0 to " + std::to_string(*total - 1) +
             " (" + total_name + "=" + std::to_string(*total) + ")";
    return std::nullopt;
  }
  return ShardPair{true, *total, *index};
}

// ---------------------------------------------------------------------------
// Reports

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string format_expectation_failure(const ExpectationFailure& f) {
  return f.check + " at tick " + std::to_string(f.tick) + ": " + f.message;
}

/// "note: the scenario changed since ..." when the golden's recorded hash
/// differs from the scenario's: tells whether the scenario or the code moved.
std::string scenario_change_note(const Trajectory& golden, const Trajectory& actual) {
  const std::optional<std::string> old_hash = metadata_scenario_hash(golden);
  const std::optional<std::string> new_hash = metadata_scenario_hash(actual);
  if (!old_hash || !new_hash || *old_hash == *new_hash) return "";
  return "note: the scenario file changed since the golden was blessed (" + *old_hash + ", now " + *new_hash + ")\n";
}

CheckOutcome invalid_outcome(CheckOutcome outcome, const std::string& headline, const std::string& details) {
  outcome.verdict = Verdict::Invalid;
  outcome.summary = headline;
  outcome.report = "FAIL " + outcome.name + ": " + headline + "\n" + ensure_newline(details);
  return outcome;
}

/// Reads and parses a golden. On failure sets `error` to a message naming it.
std::optional<Trajectory> read_golden(const std::string& golden, std::string* error) {
  const Expected<std::string> text = read_file(golden);
  if (!text) {
    *error = "cannot read golden " + golden + ": " + text.error();
    return std::nullopt;
  }
  std::string parse_error;
  std::optional<Trajectory> parsed = parse_csv(*text, &parse_error);
  if (!parsed) *error = golden + ": " + parse_error + " (not a trajectory file)";
  return parsed;
}

/// Keeps what a failed check saw, when a report is going to draw it.
void keep_detail(CheckOutcome* outcome, const GateOptions& options, const Scenario& scenario,
                 const SimulationResult& sim, const Trajectory* golden, const DiffResult& diff) {
  if (!options.keep_failure_detail) return;
  auto detail = std::make_shared<FailureDetail>();
  detail->scenario = scenario;
  detail->actual = sim.trajectory;
  if (golden) detail->golden = *golden;
  detail->diff = diff;
  detail->expectation_failures = sim.expectation_failures;
  outcome->detail = std::move(detail);
}

/// Fills in a check of a scenario whose golden exists or is missing; the
/// scenario has already loaded and simulated.
void judge(CheckOutcome* outcome, const Scenario& scenario, const SimulationResult& sim, const GateOptions& options) {
  const std::string& path = outcome->scenario;
  const std::vector<ExpectationFailure>& failed = sim.expectation_failures;
  const std::string expectation_text = format_expectation_failures(path, failed);
  const std::string first_expectation = failed.empty() ? "" : format_expectation_failure(failed.front());

  std::error_code ec;
  if (!fs::exists(outcome->golden, ec)) {
    const std::string missing =
        "missing golden " + outcome->golden + " (run `" + bless_command(path, options) + "`)";
    outcome->verdict = Verdict::Fail;
    outcome->summary = missing;
    outcome->report = "FAIL " + path + ": " + missing + "\n" + expectation_text;
    keep_detail(outcome, options, scenario, sim, nullptr, DiffResult{});
    return;
  }
  std::string error;
  const std::optional<Trajectory> golden = read_golden(outcome->golden, &error);
  if (!golden) {
    *outcome = invalid_outcome(*outcome, error, "");
    return;
  }
  const DiffResult diff = diff_trajectories(*golden, sim.trajectory, options.rules);
  if (diff.equal && failed.empty()) {
    outcome->verdict = Verdict::Pass;
    outcome->report = "PASS " + path + "\n";
    return;
  }
  const std::string diff_report =
      ensure_newline(format_diff_report(diff, *golden, sim.trajectory, options.context_rows));
  std::vector<std::string> problems;
  if (!diff.equal) problems.push_back("trajectory differs from golden " + outcome->golden);
  if (!failed.empty()) problems.push_back(plural(failed.size(), "expectation") + " failed");

  std::string report = "FAIL " + path + ": " + problems.front() + (problems.size() > 1 ? "; " + problems[1] : "") + "\n";
  if (!diff.equal) {
    report += build_change_note(*golden, options.fingerprint);
    report += scenario_change_note(*golden, sim.trajectory);
    report += diff_report;
    if (failed.empty()) report += "hint: if this change is intended, run `" + bless_command(path, options) + "`\n";
  }
  report += expectation_text;
  outcome->verdict = Verdict::Fail;
  outcome->summary = diff.equal ? first_expectation : diff_summary(diff_report);
  outcome->report = report;
  keep_detail(outcome, options, scenario, sim, &*golden, diff);
}

/// A check of another controller than ours: its scenario's expectations only,
/// since goldens record ours.
void judge_expectations_only(CheckOutcome* outcome, const SimulationResult& sim, ControllerKind controller) {
  const std::string& path = outcome->scenario;
  const std::vector<ExpectationFailure>& failed = sim.expectation_failures;
  const std::string mode = std::string("controller ") + controller_name(controller) + ", expectations only";
  if (failed.empty()) {
    outcome->verdict = Verdict::Pass;
    outcome->report = "PASS " + path + " (" + mode + ")\n";
    return;
  }
  outcome->verdict = Verdict::Fail;
  outcome->summary = format_expectation_failure(failed.front());
  outcome->report = "FAIL " + path + ": " + plural(failed.size(), "expectation") + " failed (" + mode + ")\n" +
                    format_expectation_failures(path, failed);
}

void check_into(CheckOutcome* outcome, const GateOptions& options) {
  const LoadedScenario loaded = load_scenario(outcome->scenario);
  if (!loaded.valid()) {
    const std::string first = loaded.load.errors.empty() ? "invalid" : format_error(loaded.load.errors.front());
    *outcome = invalid_outcome(*outcome, "invalid scenario", format_load_errors(loaded.load));
    outcome->summary = first;
    return;
  }
  std::string error;
  SimulationOptions simulation;
  simulation.controller = options.controller;
  const std::optional<SimulationResult> sim = simulate_with_metadata(loaded, options.fingerprint, &error, simulation);
  if (!sim) {
    *outcome = invalid_outcome(*outcome, error, "");
    return;
  }
  if (options.controller != ControllerKind::Stepslide) {
    judge_expectations_only(outcome, *sim, options.controller);
    return;
  }
  judge(outcome, *loaded.load.scenario, *sim, options);
}

/// Bless reports any change at all, however small.
DiffRules exact_rules() {
  std::string unused;
  return make_diff_rules(true, {}, &unused).value_or(default_diff_rules());
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// ---------------------------------------------------------------------------
// Discovery and golden paths

ScenarioList discover_scenarios(const std::vector<std::string>& paths) {
  ScenarioList list;
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (path.empty() || !fs::exists(status)) {
      list.errors.push_back((path.empty() ? std::string("''") : path) + ": no such file or directory");
    } else if (fs::is_directory(status)) {
      collect_files(path, ".json", &list.files, &list.errors);
    } else {
      list.files.push_back(normal_path(path));
    }
  }
  std::sort(list.files.begin(), list.files.end());
  list.files.erase(std::unique(list.files.begin(), list.files.end()), list.files.end());
  return list;
}

bool names_whole_root(const std::vector<std::string>& paths, const std::string& scenario_root) {
  if (paths.empty()) return true;
  const fs::path root = absolute_normal(scenario_root);
  return std::any_of(paths.begin(), paths.end(), [&](const std::string& p) { return absolute_normal(p) == root; });
}

std::string golden_path_for(const std::string& scenario, const std::string& scenario_root,
                            const std::string& golden_dir) {
  fs::path rel = relative_inside(scenario, scenario_root).value_or(fs::path(scenario).filename());
  rel.replace_extension(".csv");
  return normal_path(fs::path(golden_dir) / rel);
}

std::vector<std::string> find_orphan_goldens(const std::vector<std::string>& scenarios,
                                             const std::string& scenario_root, const std::string& golden_dir) {
  std::set<std::string> mapped;
  for (const std::string& scenario : scenarios) {
    mapped.insert(absolute_normal(golden_path_for(scenario, scenario_root, golden_dir)).generic_string());
  }
  std::vector<std::string> goldens;
  std::error_code ec;
  if (!fs::is_directory(golden_dir, ec)) return goldens;
  collect_files(golden_dir, ".csv", &goldens, nullptr);
  std::vector<std::string> orphans;
  for (const std::string& golden : goldens) {
    if (mapped.count(absolute_normal(golden).generic_string()) == 0) orphans.push_back(golden);
  }
  std::sort(orphans.begin(), orphans.end());
  return orphans;
}

// ---------------------------------------------------------------------------
// Sharding

std::optional<Shard> shard_from_env(const EnvLookup& env, std::string* error) {
  std::string local_error;
  if (error == nullptr) error = &local_error;
  const std::optional<ShardPair> gtest = read_shard_pair(env, "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX", error);
  if (!gtest) return std::nullopt;
  const std::optional<ShardPair> bazel = read_shard_pair(env, "TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", error);
  if (!bazel) return std::nullopt;
  if (gtest->set && bazel->set && (gtest->total != bazel->total || gtest->index != bazel->index)) {
    *error = "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS (" + std::to_string(gtest->index) + "/" +
             std::to_string(gtest->total) + ") and TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (" +
             std::to_string(bazel->index) + "/" + std::to_string(bazel->total) + ") disagree";
    return std::nullopt;
  }
  const ShardPair& pair = gtest->set ? *gtest : *bazel;
  Shard shard;
  shard.total = static_cast<int>(pair.total);
  shard.index = static_cast<int>(pair.index);
  const char* status_file = env("TEST_SHARD_STATUS_FILE");
  if (status_file != nullptr) shard.status_file = status_file;
  return shard;
}

std::vector<std::string> select_shard(const std::vector<std::string>& files, const Shard& shard) {
  std::vector<std::string> mine;
  const std::size_t total = static_cast<std::size_t>(std::max(shard.total, 1));
  const std::size_t index = static_cast<std::size_t>(std::max(shard.index, 0));
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i % total == index) mine.push_back(files[i]);
  }
  return mine;
}

std::string touch_shard_status_file(const Shard& shard) {
  if (shard.status_file.empty()) return "";
  std::FILE* file = std::fopen(shard.status_file.c_str(), "a");
  if (file == nullptr) return shard.status_file + ": " + std::strerror(errno);
  std::fclose(file);
  return "";
}

// ---------------------------------------------------------------------------
// Metadata

std::vector<std::string> trajectory_metadata(const std::string& scenario_name, const std::string& scenario_bytes,
                                             const std::string& fingerprint) {
  return {
      " stepslide trajectory 1",
      " scenario " + one_line(scenario_name) + " fnv1a64:" + fnv1a64_hex(scenario_bytes),
      " build " + one_line(fingerprint),
  };
}

std::optional<std::string> metadata_value(const Trajectory& t, const std::string& key) {
  for (const std::string& raw : t.metadata) {
    const std::string line = trim(raw);
    if (line == key) return std::string();
    if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 && line[key.size()] == ' ') {
      return trim(line.substr(key.size() + 1));
    }
  }
  return std::nullopt;
}

std::optional<std::string> metadata_scenario_hash(const Trajectory& t) {
  const std::optional<std::string> value = metadata_value(t, "scenario");
  if (!value) return std::nullopt;
  const std::size_t space = value->rfind(' ');
  const std::string last = space == std::string::npos ? *value : value->substr(space + 1);
  if (last.rfind("fnv1a64:", 0) != 0) return std::nullopt;
  return last;
}

std::string build_change_note(const Trajectory& golden, const std::string& fingerprint) {
  const std::optional<std::string> old_build = metadata_value(golden, "build");
  if (!old_build || *old_build == one_line(fingerprint)) return "";
  return "note: golden was written by a different build: " + *old_build + " (now: " + fingerprint + ")\n";
}

// ---------------------------------------------------------------------------
// Comparison options

std::optional<DiffRules> make_diff_rules(bool exact, const std::vector<std::string>& tolerances, std::string* error) {
  DiffRules rules = default_diff_rules();
  if (exact) {
    for (ColumnRule& rule : rules.rules) rule.abs_tolerance = 0.0;
    rules.default_tolerance = 0.0;
  }
  std::set<std::string> known(fixed_columns().begin(), fixed_columns().end());
  for (const ColumnRule& rule : rules.rules) known.insert(rule.column);

  for (const std::string& option : tolerances) {
    const std::size_t equals = option.find('=');
    const std::string column = trim(option.substr(0, equals));
    if (equals == std::string::npos || column.empty()) {
      *error = "--tol '" + option + "': expected COLUMN=ABS, for example --tol y=1e-4";
      return std::nullopt;
    }
    if (known.count(column) == 0) {
      std::string names;
      for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
      *error = "--tol '" + option + "': unknown column '" + column + "' (known: " + names + ")";
      return std::nullopt;
    }
    const std::optional<double> value = parse_real(trim(option.substr(equals + 1)));
    if (!value || !std::isfinite(*value) || *value < 0.0) {
      *error = "--tol '" + option + "': expected a finite number >= 0 after '='";
      return std::nullopt;
    }
    rules.set(column, *value);
  }
  return rules;
}

std::string diff_summary(const std::string& report) {
  const std::string marker = "first divergence at tick";
  std::size_t start = report.find("\n" + marker);
  start = report.compare(0, marker.size(), marker) == 0 ? 0 : (start == std::string::npos ? 0 : start + 1);
  return report.substr(start, report.find('\n', start) - start);
}

// ---------------------------------------------------------------------------
// Loading and simulating

LoadedScenario load_scenario(const std::string& path) {
  LoadedScenario loaded;
  loaded.path = path;
  try {
    Expected<std::string> bytes = read_file(path, ScenarioLimits::max_file_bytes);
    if (!bytes) {
      loaded.load.errors.push_back(LoadError{path, "", bytes.error()});
      return loaded;
    }
    loaded.bytes = std::move(*bytes);
    loaded.load = load_scenario_text(loaded.bytes, path);
  } catch (const std::exception& e) {
    loaded.load.scenario.reset();
    loaded.load.errors.push_back(LoadError{path, "", std::string("cannot load: ") + e.what()});
  }
  return loaded;
}

std::string format_load_errors(const LoadResult& load) {
  std::string text;
  for (const LoadError& error : load.errors) text += format_error(error) + "\n";
  return text;
}

std::string format_expectation_failures(const std::string& file, const std::vector<ExpectationFailure>& failures) {
  std::string text;
  for (const ExpectationFailure& failure : failures) text += file + ": " + format_expectation_failure(failure) + "\n";
  return text;
}

std::optional<SimulationResult> simulate_with_metadata(const LoadedScenario& loaded, const std::string& fingerprint,
                                                       std::string* error, const SimulationOptions& options) {
  if (!loaded.valid()) {
    *error = loaded.path + ": invalid scenario";
    return std::nullopt;
  }
  try {
    SimulationResult result = simulate(*loaded.load.scenario, options);
    result.trajectory.metadata = trajectory_metadata(loaded.load.scenario->name, loaded.bytes, fingerprint);
    if (options.controller != ControllerKind::Stepslide) {
      result.trajectory.metadata.push_back(std::string(" controller ") + controller_name(options.controller));
    }
    return result;
  } catch (const std::exception& e) {
    *error = loaded.path + ": simulation failed: " + e.what();
  } catch (...) {
    *error = loaded.path + ": simulation failed";
  }
  return std::nullopt;
}

std::string run_stats_line(const Scenario& scenario, const SimulationResult& result, ControllerKind controller) {
  const double ticks = static_cast<double>(std::max<std::int64_t>(scenario.ticks, 1));
  char text[96];
  std::snprintf(text, sizeof text, ": %.3g us/tick, %.3g sweeps/tick (", result.update_seconds * 1e6 / ticks,
                static_cast<double>(result.total_sweeps) / ticks);
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

std::string output_file_name(const std::string& scenario_name) {
  std::string name;
  for (char c : scenario_name) {
    const bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    name += safe ? c : '_';
  }
  if (name.empty() || name[0] == '.') name = "_" + name;
  return name + ".csv";
}

// ---------------------------------------------------------------------------
// check

CheckOutcome check_scenario(const std::string& scenario, const GateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  CheckOutcome outcome;
  outcome.name = scenario;
  outcome.scenario = scenario;
  try {
    outcome.golden = golden_path_for(scenario, options.scenario_root, options.golden_dir);
    check_into(&outcome, options);
  } catch (const std::exception& e) {
    outcome = invalid_outcome(outcome, std::string("internal error: ") + e.what(), "");
  }
  outcome.seconds = seconds_since(start);
  return outcome;
}

CheckOutcome orphan_outcome(const std::string& golden, const GateOptions& options) {
  CheckOutcome outcome;
  outcome.name = golden;
  outcome.golden = golden;
  outcome.verdict = Verdict::Fail;
  std::string expected_scenario;
  if (std::optional<fs::path> rel = relative_inside(golden, options.golden_dir)) {
    rel->replace_extension(".json");
    expected_scenario = " (expected " + normal_path(fs::path(options.scenario_root) / *rel) + ")";
  }
  outcome.summary = "orphan golden: no scenario maps to it" + expected_scenario;
  outcome.report = "FAIL " + golden + ": " + outcome.summary + "; delete it or restore its scenario\n";
  return outcome;
}

std::vector<CheckOutcome> check_scenarios(const std::vector<std::string>& scenarios, const GateOptions& options,
                                          int jobs, const std::function<void(const CheckOutcome&)>& on_ready) {
  std::vector<CheckOutcome> outcomes;
  outcomes.reserve(scenarios.size());
  if (jobs < 1) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t threads = std::min(static_cast<std::size_t>(jobs), scenarios.size());
  if (threads <= 1) {
    for (const std::string& scenario : scenarios) {
      outcomes.push_back(check_scenario(scenario, options));
      if (on_ready) on_ready(outcomes.back());
    }
    return outcomes;
  }

  // Workers fill slots in any order; this thread hands them out in input order.
  std::vector<std::optional<CheckOutcome>> slots(scenarios.size());
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < scenarios.size(); i = next++) {
      CheckOutcome outcome = check_scenario(scenarios[i], options);
      std::lock_guard<std::mutex> lock(mutex);
      slots[i] = std::move(outcome);
      ready.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
  auto join_all = [&] {
    for (std::thread& thread : pool) thread.join();
  };
  try {
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait(lock, [&] { return slots[i].has_value(); });
        outcomes.push_back(std::move(*slots[i]));
        slots[i].reset();
      }
      if (on_ready) on_ready(outcomes.back());
    }
  } catch (...) {
    next = scenarios.size();  // stop handing out work, then let running checks end
    join_all();
    throw;
  }
  join_all();
  return outcomes;
}

std::string closing_line(const std::vector<CheckOutcome>& outcomes) {
  const auto passed = std::count_if(outcomes.begin(), outcomes.end(),
                                    [](const CheckOutcome& o) { return o.verdict == Verdict::Pass; });
  const auto failed = static_cast<std::ptrdiff_t>(outcomes.size()) - passed;
  return std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";
}

int exit_code_for(const std::vector<CheckOutcome>& outcomes) {
  int code = kExitOk;
  for (const CheckOutcome& outcome : outcomes) {
    if (outcome.verdict == Verdict::Invalid) return kExitInvalid;
    if (outcome.verdict == Verdict::Fail) code = kExitFailure;
  }
  return code;
}

std::vector<JUnitCase> junit_cases(const std::vector<CheckOutcome>& outcomes) {
  std::vector<JUnitCase> cases;
  for (const CheckOutcome& outcome : outcomes) {
    JUnitCase c;
    c.name = outcome.name;
    c.classname = outcome.scenario.empty() ? "stepslide.golden" : "stepslide.scenario";
    c.time_seconds = outcome.seconds;
    c.failed = outcome.verdict != Verdict::Pass;
    if (c.failed) {
      c.failure_message = outcome.summary;
      c.failure_text = outcome.report;
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// ---------------------------------------------------------------------------
// bless

BlessOutcome bless_scenario(const LoadedScenario& loaded, const GateOptions& options) {
  BlessOutcome outcome;
  outcome.golden = golden_path_for(loaded.path, options.scenario_root, options.golden_dir);
  if (!loaded.valid()) {
    outcome.verdict = Verdict::Invalid;
    outcome.report = format_load_errors(loaded.load);
    return outcome;
  }
  std::string error;
  const std::optional<SimulationResult> sim = simulate_with_metadata(loaded, options.fingerprint, &error);
  if (!sim) {
    outcome.verdict = Verdict::Invalid;
    outcome.report = error + "\n";
    return outcome;
  }
  if (!sim->expectation_failures.empty()) {
    outcome.verdict = Verdict::Fail;
    outcome.report = "not blessed " + outcome.golden + ": " + loaded.path + " fails " +
                     plural(sim->expectation_failures.size(), "expectation") +
                     " (a golden must not record behaviour its own scenario rejects)\n" +
                     format_expectation_failures(loaded.path, sim->expectation_failures);
    return outcome;
  }
  const std::string text = to_csv(sim->trajectory);

  std::string detail;
  std::error_code ec;
  if (fs::exists(outcome.golden, ec)) {
    std::string read_error;
    const Expected<std::string> old_text = read_file(outcome.golden);
    std::optional<Trajectory> old;
    if (old_text) old = parse_csv(*old_text, &read_error);
    if (old_text && *old_text == text) {
      outcome.change = GoldenChange::Unchanged;
      outcome.report = "blessed " + outcome.golden + " (unchanged)\n";
      return outcome;
    }
    const DiffResult diff = old ? diff_trajectories(*old, sim->trajectory, exact_rules())
                                : DiffResult{};
    if (old && diff.equal) {
      outcome.change = GoldenChange::MetadataOnly;
      detail = "metadata only: same trajectory";
    } else {
      outcome.change = GoldenChange::Changed;
      detail = old ? "changed: " + diff_summary(format_diff_report(diff, *old, sim->trajectory, 0))
                   : "changed: the old file was unreadable";
    }
  } else {
    outcome.change = GoldenChange::New;
    detail = "new";
  }
  const Status written = write_file_atomic(outcome.golden, text);
  if (!written) {
    outcome.verdict = Verdict::Invalid;
    outcome.report = "cannot write " + outcome.golden + ": " + written.error() + "\n";
    return outcome;
  }
  outcome.report = "blessed " + outcome.golden + " (" + detail + ")\n";
  return outcome;
}

}  // namespace stepslide
