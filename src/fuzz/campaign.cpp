#include "fuzz/campaign.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <utility>

#include "base/file_io.h"
#include "fuzz/shrink.h"
#include "scenario/json/readable_json.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;

/// Level walks name the level relative to the findings' directory, and
/// load from there; the level may lie outside it.
std::string label_for(const FuzzOptions& options, std::uint64_t seed) {
  const std::string name = "fuzz_seed_" + std::to_string(seed) + ".json";
  return options.level ? (std::filesystem::path(options.out_dir) / name).generic_string() : name;
}

LoadOptions load_options(const FuzzOptions& options) {
  LoadOptions load;
  load.allow_outside = options.level != nullptr;
  return load;
}

/// How many start points a level walk draws before giving up on its seed.
constexpr int kStartAttempts = 8;

std::size_t count_of(const Json& document, const char* key) {
  return document.contains(key) && document[key].is_array() ? document[key].size() : 0;
}

std::string shrink_note(const Json& before, const Json& after, int runs) {
  auto pair = [](std::size_t a, std::size_t b) { return std::to_string(a) + " -> " + std::to_string(b); };
  return "bodies " + pair(count_of(before, "world"), count_of(after, "world")) + ", input keys " +
         pair(count_of(before, "input"), count_of(after, "input")) + ", ticks " +
         pair(before.value("ticks", std::size_t{0}), after.value("ticks", std::size_t{0})) + " (" +
         std::to_string(runs) + " runs)";
}

/// The first violation of `kind` in `document`, or none when it passes or
/// does not load.
std::optional<Violation> violation_in(const Json& document, const std::string& label, const LoadOptions& load_with,
                                      InvariantKind kind, bool check_rerun,
                                      const std::function<void(const TickView&)>& before_check) {
  const LoadResult load = load_scenario_text(document.dump(), label, load_with);
  if (!load.scenario) return std::nullopt;
  InvariantOptions options;
  options.check_rerun = check_rerun;
  options.before_check = before_check;
  const InvariantReport report = check_invariants(*load.scenario, options);
  const Violation* v = report.first(kind);
  return v ? std::optional<Violation>(*v) : std::nullopt;
}

/// True when `stepslide run` on `document` fails an expectation.
bool expectations_fail(const Json& document, const std::string& label, const LoadOptions& load_with) {
  const LoadResult load = load_scenario_text(document.dump(), label, load_with);
  if (!load.scenario) return false;
  try {
    return !simulate(*load.scenario).expectation_failures.empty();
  } catch (...) {
    return false;
  }
}

/// Shrinks (when asked), adds the description and expectation, saves.
FuzzFinding record_finding(const FuzzOptions& options, std::uint64_t seed, const Json& generated,
                           const Violation& seen) {
  const std::string label = label_for(options, seed);
  const LoadOptions load_with = load_options(options);
  const bool rerun = seen.kind == InvariantKind::Nondeterministic || seen.kind == InvariantKind::Rollback;
  Json scenario = generated;
  Violation violation = seen;
  std::string note = "not shrunk";
  if (options.shrink) {
    const FailsAt fails_at = [&](const Json& candidate) -> std::optional<std::int64_t> {
      const std::optional<Violation> v = violation_in(candidate, label, load_with, seen.kind, rerun, options.before_check);
      return v ? std::optional<std::int64_t>(v->tick) : std::nullopt;
    };
    const ShrinkResult shrunk = shrink_scenario(generated, seen.tick, fails_at);
    note = "shrunk: " + shrink_note(generated, shrunk.scenario, shrunk.attempts);
    if (const std::optional<Violation> v =
            violation_in(shrunk.scenario, label, load_with, seen.kind, rerun, options.before_check)) {
      scenario = shrunk.scenario;
      violation = *v;
    }
  }

  FuzzFinding finding;
  finding.seed = seed;
  finding.violation = violation;
  finding.shrink_note = note;
  const Json document = finding_document(scenario, seed, violation, note, label, load_with);
  const std::string file = (std::filesystem::path(options.out_dir) /
                            ("seed" + std::to_string(seed) + "_" + invariant_name(violation.kind) + ".json"))
                               .generic_string();
  finding.save_error = write_file_atomic(file, readable_json(document) + "\n").error();
  if (finding.save_error.empty()) finding.file = file;
  return finding;
}

/// What checking one world gave.
struct WorldOutcome {
  bool checked = false;  ///< false when the generated scenario did not load
  bool unplaced = false;  ///< a level walk found no start the loader accepted
  std::vector<InvariantKind> kinds;  ///< every kind of violation seen
  std::int64_t ticks = 0;
  std::optional<FuzzFinding> finding;
  std::vector<std::string> errors;  ///< generator errors, in the order met
  std::exception_ptr thrown;        ///< what a worker thread caught, rethrown on the calling thread
};

/// Generates, loads, checks and (on a violation) shrinks and saves one world.
/// A level walk for `seed` that loads: the first of its start points the
/// loader accepts (placing the character fails inside a wall or under a low
/// ceiling). Any other refusal is the generator's fault, reported as such.
std::pair<Json, LoadResult> load_level_walk(const FuzzOptions& options, std::uint64_t seed) {
  const std::string label = label_for(options, seed);
  std::pair<Json, LoadResult> walk;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    walk.first = generate_level_walk(*options.level, seed, attempt, options.world);
    walk.second = load_scenario_text(walk.first.dump(), label, load_options(options));
    if (walk.second.scenario) return walk;
    const bool placing = !walk.second.errors.empty() && format_error(walk.second.errors.front()).find("/character/place") != std::string::npos;
    if (!placing) return walk;
  }
  return walk;
}

WorldOutcome check_world(const FuzzOptions& options, std::uint64_t seed) {
  WorldOutcome outcome;
  Json generated;
  LoadResult load;
  if (options.level) {
    std::tie(generated, load) = load_level_walk(options, seed);
    const bool placing = !load.scenario && !load.errors.empty() &&
                         format_error(load.errors.front()).find("/character/place") != std::string::npos;
    if (placing) {
      outcome.unplaced = true;
      return outcome;
    }
  } else {
    generated = generate_fuzz_scenario(seed, options.world);
    load = load_scenario_text(generated.dump(), label_for(options, seed));
  }
  if (!load.scenario) {
    outcome.errors.push_back("seed " + std::to_string(seed) + ": generated an invalid scenario: " +
                             (load.errors.empty() ? "?" : format_error(load.errors.front())));
    return outcome;
  }
  if (options.keep_all) {
    const std::string file =
        (std::filesystem::path(options.out_dir) / ("seed" + std::to_string(seed) + ".json")).generic_string();
    const std::string error = write_file_atomic(file, readable_json(generated) + "\n").error();
    if (!error.empty()) outcome.errors.push_back("cannot write " + file + ": " + error);
  }
  InvariantOptions check;
  check.before_check = options.before_check;
  const InvariantReport report = check_invariants(*load.scenario, check);
  outcome.checked = true;
  outcome.ticks = report.ticks_checked;
  for (const Violation& v : report.violations) outcome.kinds.push_back(v.kind);
  if (!report.ok()) outcome.finding = record_finding(options, seed, generated, report.violations.front());
  return outcome;
}

/// Outcomes that worker threads put in any order and the calling thread
/// takes in seed order. Only the outcomes ahead of the one awaited are held.
class OrderedOutcomes {
 public:
  void put(std::int64_t i, WorldOutcome outcome) {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.emplace(i, std::move(outcome));
    ready_.notify_all();
  }

  /// Waits for outcome `i`, then hands it over.
  WorldOutcome take(std::int64_t i) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return waiting_.count(i) > 0; });
    auto found = waiting_.find(i);
    WorldOutcome outcome = std::move(found->second);
    waiting_.erase(found);
    return outcome;
  }

 private:
  std::map<std::int64_t, WorldOutcome> waiting_;
  std::mutex mutex_;
  std::condition_variable ready_;
};

/// Checks worlds 0..count-1 (seed + i) and calls `options.on_progress(i)`
/// and then `use(i, outcome)` on the calling thread for each, in order of
/// i, with `options.jobs` threads checking at once. A world's outcome
/// depends on its seed alone, so the sequence of calls is the same for every
/// number of threads; so is an exception, thrown where the world is reached.
void for_each_world(const FuzzOptions& options, std::int64_t count,
                    const std::function<void(std::int64_t, WorldOutcome)>& use) {
  const auto seed_of = [&](std::int64_t i) { return options.seed + static_cast<std::uint64_t>(i); };
  int jobs = options.jobs;
  if (jobs < 1) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::int64_t threads = std::min<std::int64_t>(jobs, count);
  if (threads <= 1) {
    for (std::int64_t i = 0; i < count; ++i) {
      if (options.on_progress) options.on_progress(i);
      use(i, check_world(options, seed_of(i)));
    }
    return;
  }
  OrderedOutcomes outcomes;
  std::atomic<std::int64_t> next{0};
  auto work = [&] {
    for (std::int64_t i = next++; i < count; i = next++) {
      WorldOutcome outcome;
      try {
        outcome = check_world(options, seed_of(i));
      } catch (...) {
        outcome.thrown = std::current_exception();
      }
      outcomes.put(i, std::move(outcome));
    }
  };
  std::vector<std::thread> pool;
  for (std::int64_t t = 0; t < threads; ++t) pool.emplace_back(work);
  auto join_all = [&] {
    for (std::thread& thread : pool) thread.join();
  };
  try {
    for (std::int64_t i = 0; i < count; ++i) {
      if (options.on_progress) options.on_progress(i);
      WorldOutcome outcome = outcomes.take(i);
      if (outcome.thrown) std::rethrow_exception(outcome.thrown);
      use(i, std::move(outcome));
    }
  } catch (...) {
    next = count;  // hand out no more worlds, let the running ones end
    join_all();
    throw;
  }
  join_all();
}

}  // namespace

nlohmann::ordered_json finding_document(nlohmann::ordered_json scenario, std::uint64_t seed, const Violation& violation,
                                        const std::string& shrink_note, const std::string& label,
                                        const LoadOptions& load_with) {
  const std::string kind = invariant_name(violation.kind);
  scenario["name"] = "fuzz_seed" + std::to_string(seed) + "_" + kind;
  scenario["description"] = "Found by `stepslide fuzz --seed " + std::to_string(seed) + " --count 1` (" +
                            shrink_note + "): " + kind + " at tick " + std::to_string(violation.tick) + ": " +
                            violation.message + ". Replay with `stepslide fuzz --replay FILE`.";
  scenario.erase("expect");

  const LoadResult load = load_scenario_text(scenario.dump(), label, load_with);
  const bool y_up = load.scenario && load.scenario->up == Vec3{0, 1, 0};
  const Json ticks = Json::array({violation.tick, violation.tick});
  Json check;
  if (violation.kind == InvariantKind::Overlap && violation.tick > 0) {
    check = Json{{"ticks", ticks}, {"max_penetration", violation.limit}};
  } else if (violation.kind == InvariantKind::Rise && y_up && violation.tick > 0) {
    check = Json{{"ticks", ticks}, {"y_between", Json::array({-ScenarioLimits::max_coordinate, violation.limit})}};
  } else if (violation.kind == InvariantKind::Tunnel && y_up && violation.tick > 0 && std::isfinite(violation.limit)) {
    check = Json{{"ticks", ticks}, {"y_between", Json::array({violation.limit, ScenarioLimits::max_coordinate})}};
  } else if (violation.kind == InvariantKind::Launch && violation.tick > 0) {
    check = Json{{"ticks", ticks}, {"max_rise_gain", violation.limit}};
  } else if (violation.kind == InvariantKind::Speed && violation.tick > 0) {
    check = Json{{"ticks", ticks}, {"max_speed", violation.limit}};
  } else if (violation.kind == InvariantKind::Apex && violation.tick > 0) {
    check = Json{{"ticks", Json::array({0, violation.tick})}, {"max_jump_apex", violation.limit}};
  }
  if (!check.is_null()) {
    Json with_check = scenario;
    with_check["expect"] = Json::array({check});
    if (expectations_fail(with_check, label, load_with)) return with_check;
  }
  return scenario;
}

std::string format_finding(const FuzzFinding& f) {
  std::string line = "seed " + std::to_string(f.seed) + ": " + invariant_name(f.violation.kind) + " at tick " +
                     std::to_string(f.violation.tick) + ": " + f.violation.message;
  if (!f.file.empty()) line += "\n  saved " + f.file + " (" + f.shrink_note + ")";
  if (!f.save_error.empty()) line += "\n  not saved: " + f.save_error;
  return line;
}

FuzzSummary run_fuzz(const FuzzOptions& options, const std::function<void(const FuzzFinding&)>& on_finding) {
  FuzzSummary summary;
  const std::int64_t count = std::max<std::int64_t>(options.count, 0);
  for_each_world(options, count, [&](std::int64_t, WorldOutcome outcome) {
    for (std::string& error : outcome.errors) summary.generator_errors.push_back(std::move(error));
    if (outcome.unplaced) ++summary.unplaced;
    if (!outcome.checked) return;
    for (const InvariantKind kind : outcome.kinds) ++summary.scenarios_by_kind[invariant_name(kind)];
    ++summary.scenarios;
    summary.ticks += outcome.ticks;
    if (!outcome.finding) return;
    summary.findings.push_back(std::move(*outcome.finding));
    if (on_finding) on_finding(summary.findings.back());
  });
  return summary;
}

}  // namespace stepslide
