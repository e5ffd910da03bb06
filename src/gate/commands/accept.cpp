#include "gate/commands/accept.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "gate/core/csv.h"
#include "gate/core/diff_report.h"
#include "gate/core/fingerprint.h"
#include "gate/core/metadata.h"
#include "gate/core/scenario_file.h"
#include "gate/core/text.h"
#include "gate/core/tolerances.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;

bool is_regular_file(const std::string& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() == fs::file_type::regular;
}

/// The `.new` itself: a regular file holding a trajectory; "" or why not.
std::string read_result(PendingResult& r) {
  const std::string& pending = r.item.pending;
  if (!is_regular_file(pending)) return "it is not a regular file";
  Expected<StoredTrajectory> stored = read_stored_trajectory(pending);
  if (!stored) return "cannot read it: " + stored.error();
  if (!stored->table) return "it is not a trajectory (" + stored->table.error() + ")";
  r.result = stored->table.take();
  return "";
}

void read_golden(PendingResult& r) {
  std::error_code ec;
  r.golden_exists = fs::exists(r.item.golden, ec);
  if (!r.golden_exists) return;
  Expected<StoredTrajectory> stored = read_stored_trajectory(r.item.golden);
  if (stored && stored->table) r.golden = stored->table.take();
}

/// The scenario: it exists, loads, and is the file the result was run from.
std::string read_scenario(PendingResult& r, const Roots& roots) {
  const std::string& path = r.item.scenario;
  const std::string recheck = "run `" + command_hint("check", roots, {path}) + "` again";
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return "its scenario " + path + " does not exist; reject it with `" +
           command_hint("reject", roots, {r.item.pending}) + "`";
  }
  const LoadedScenario loaded = load_scenario_keeping_bytes(path);
  if (!loaded.valid()) {
    r.scenario_errors = format_load_errors(loaded.load);
    return "its scenario " + path + " is invalid; fix it and " + recheck;
  }
  r.scenario = *loaded.load.scenario;
  const std::optional<std::string> recorded = metadata_scenario_hash(*r.result);
  // The hash as the run writes it (scenario_file.cpp): over every file read when there are others.
  Trajectory written;
  written.metadata = trajectory_metadata(loaded.load.scenario->name, loaded.load.inputs, "");
  const std::string now = metadata_scenario_hash(written).value_or("");
  if (!recorded) return "it records no scenario hash, so it cannot be matched with " + path + "; " + recheck;
  if (*recorded != now) {
    return "its scenario " + path + " changed since `check` wrote it (" + *recorded + ", now " + now + "); " + recheck;
  }
  return "";
}

/// "no pending results" with where it looked.
std::string nothing_pending(const AcceptRequest& request) {
  const std::string filtered = request.filters.empty() ? "" : " selected by the filters";
  if (request.paths.empty()) return "no pending results" + filtered + " under " + request.golden_dir;
  return "no pending results" + filtered + " there";
}

int worse(int a, int b) { return a == kExitInvalid || b == kExitInvalid ? kExitInvalid : std::max(a, b); }

/// Accepts or rejects one item; the text and the exit code it earns.
std::pair<std::string, int> act_on(const PendingItem& item, const AcceptRequest& request, const Roots& roots) {
  if (request.reject) {
    const Expected<std::string> done = reject_pending(item);
    return done ? std::make_pair(*done, kExitOk) : std::make_pair(done.error(), kExitInvalid);
  }
  const PendingResult result = read_pending(item, roots);
  if (!result.refusal.empty()) {
    return {"not accepted " + item.pending + ": " + result.refusal + "\n" + result.scenario_errors, kExitFailure};
  }
  const Expected<std::string> done = accept_pending(result);
  return done ? std::make_pair(*done, kExitOk) : std::make_pair(done.error(), kExitInvalid);
}

}  // namespace

PendingResult read_pending(const PendingItem& item, const Roots& roots) {
  PendingResult r;
  r.item = item;
  read_golden(r);
  r.refusal = read_result(r);
  if (r.refusal.empty()) r.refusal = read_scenario(r, roots);
  return r;
}

std::string golden_change_text(const PendingResult& r) {
  if (!r.golden_exists) return "new";
  if (!r.golden) return "replaces a file that is not a trajectory";
  if (!r.result) return "";
  const DiffResult diff = diff_trajectories(*r.golden, *r.result, exact_diff_rules());
  return diff.equal ? "metadata only: same trajectory" : "changed: " + diff_summary(diff);
}

Expected<std::string> accept_pending(const PendingResult& r) {
  if (!r.refusal.empty()) return Expected<std::string>::failure(r.refusal);
  const std::string change = golden_change_text(r);
  // rename(2) replaces the golden in one step: readers see the old file or
  // the new one, never a mixture, and a symlinked golden is replaced, not
  // written through.
  if (std::rename(r.item.pending.c_str(), r.item.golden.c_str()) != 0) {
    std::error_code ec(errno, std::generic_category());
    return Expected<std::string>::failure(
        error_line("cannot move " + r.item.pending + " over " + r.item.golden + ": " + ec.message()));
  }
  std::error_code ec;
  fs::remove(picture_path_for(r.item.pending), ec);
  return "accepted " + r.item.golden + " (" + change + ")\n";
}

Expected<std::string> reject_pending(const PendingItem& item) {
  std::error_code ec;
  fs::remove(item.pending, ec);
  if (ec) return Expected<std::string>::failure(error_line("cannot remove " + item.pending + ": " + ec.message()));
  fs::remove(picture_path_for(item.pending), ec);
  return "rejected " + item.pending + "\n";
}

AcceptRun run_accept(const AcceptRequest& request) {
  AcceptRun run;
  const std::string verb = request.reject ? "reject" : "accept";
  const auto refuse = [&run](const std::string& text) {
    run.errors = text;
    run.exit_code = kExitInvalid;
    return run;
  };
  if (request.all == !request.paths.empty()) {
    return refuse(error_line(request.all ? verb + " takes PATH... or --all, not both"
                                         : verb + " needs PATH... (pending results, goldens, scenarios or folders) "
                                                  "or --all"));
  }
  const Expected<ScenarioFilter> filter = parse_filters(request.filters);
  if (!filter) return refuse(error_line(filter.error()));
  const Roots roots{request.scenario_root, request.golden_dir};
  const Expected<std::vector<PendingItem>> items = select_pending(request.paths, roots, *filter);
  if (!items) return refuse(items.error());
  for (const PendingItem& item : *items) {
    const auto [text, code] = act_on(item, request, roots);
    (code == kExitOk ? run.done : run.refused) += 1;
    run.exit_code = worse(run.exit_code, code);
    if (request.on_item) request.on_item(text, code == kExitOk);
  }
  if (items->empty()) {
    run.closing = nothing_pending(request);
  } else if (request.reject) {
    run.closing = std::to_string(run.done) + " rejected" +
                  (run.refused > 0 ? ", " + std::to_string(run.refused) + " could not be removed" : "");
  } else {
    run.closing = std::to_string(run.done) + " accepted, " + std::to_string(run.refused) + " not accepted";
  }
  return run;
}

}  // namespace stepslide
