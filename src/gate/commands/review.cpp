#include "gate/commands/review.h"

#include <exception>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/core/diff_report.h"
#include "gate/core/metadata.h"
#include "gate/core/text.h"
#include "gate/core/tolerances.h"
#include "gate/plot/plot.h"

namespace stepslide {

namespace {

constexpr const char* kPromptAll = "accept (a), reject (r), skip (s) or quit (q)? ";
constexpr const char* kPromptNoAccept = "reject (r), skip (s) or quit (q)? ";

/// The diff a reviewer is shown: with check's default tolerances, so its
/// first divergence is the one `check` reported; exact when that sees none
/// (the change lies below the tolerances).
DiffResult review_diff(const Trajectory& golden, const Trajectory& result) {
  DiffResult diff = diff_trajectories(golden, result, default_diff_rules());
  if (diff.equal) diff = diff_trajectories(golden, result, exact_diff_rules());
  return diff;
}

/// "91 rows, feet end at (0, 1.2, -3)": a new golden, which has nothing to
/// be compared with.
std::string result_outline(const Trajectory& t) {
  std::string text = std::to_string(t.rows.size()) + (t.rows.size() == 1 ? " row" : " rows");
  const int x = t.column_index("x"), y = t.column_index("y"), z = t.column_index("z");
  if (t.rows.empty() || x < 0 || y < 0 || z < 0) return text;
  const std::size_t last = t.rows.size() - 1;
  return text + ", feet end at (" + readable_number(t.cell(last, x)) + ", " + readable_number(t.cell(last, y)) +
         ", " + readable_number(t.cell(last, z)) + ")";
}

/// What accepting the result does to the golden, in the words of check.
std::string change_text(const PendingResult& r, std::optional<Divergence>* divergence) {
  if (!r.result) return "";
  if (!r.golden_exists) return "new golden: " + result_outline(*r.result) + "\n";
  if (!r.golden) return "replaces " + r.item.golden + ", which is not a trajectory\n";
  // Whether the scenario or the build moved since the golden was blessed.
  std::string notes = scenario_change_note(*r.golden, *r.result);
  if (const std::optional<std::string> build = metadata_value(*r.result, "build")) {
    notes = build_change_note(*r.golden, *build) + notes;
  }
  const DiffResult diff = review_diff(*r.golden, *r.result);
  if (diff.equal) return notes + "metadata only: same trajectory as " + r.item.golden + "\n";
  *divergence = diff.first;
  return notes + ensure_newline(format_diff_report(diff, *r.golden, *r.result));
}

/// Draws the result over its golden beside the `.new`; the line naming it.
std::string write_picture(const PendingResult& r, const std::optional<Divergence>& divergence) {
  const std::string path = picture_path_for(r.item.pending);
  if (!r.scenario || !r.result) return "";
  std::vector<PlotTrace> traces{{"pending result", &*r.result}};
  if (r.golden && missing_plot_columns(*r.golden).empty()) traces.push_back({"golden", &*r.golden});
  try {
    if (!missing_plot_columns(*r.result).empty()) return "picture  none: the result lacks x, y or z\n";
    PlotOptions options;
    options.title = r.item.name + ": pending result over golden";
    const Status written = write_file_atomic(path, plot_svg(*r.scenario, traces, divergence, options));
    if (!written) return "picture  not written: " + path + ": " + written.error() + "\n";
  } catch (const std::exception& e) {
    return std::string("picture  not drawn: ") + e.what() + "\n";
  }
  return "picture  " + path + "\n";
}

/// Asks until a key means something the result allows; nullopt for quit or
/// the end of input. Blanks and control keys are ignored, so Enter after a
/// key, or an arrow key's escape, does nothing.
std::optional<ReviewChoice> ask(const PendingResult& r, const ReviewIo& io) {
  static const char* const kWords[] = {"accept", "reject", "skip", "quit"};
  const bool acceptable = r.refusal.empty();
  const std::string prompt = acceptable ? kPromptAll : kPromptNoAccept;
  io.show(prompt);
  while (true) {
    const std::optional<char> key = io.read_key();
    if (!key) {
      io.show("\n");
      return std::nullopt;
    }
    const auto byte = static_cast<unsigned char>(*key);
    if (byte <= 0x20 || byte == 0x7f) continue;
    const std::optional<ReviewChoice> choice = review_choice(*key);
    if (!choice) {
      io.show(std::string(1, *key) + "\n" + (acceptable ? "press a, r, s or q: " : "press r, s or q: "));
      continue;
    }
    if (*choice == ReviewChoice::Accept && !acceptable) {
      io.show("a\ncannot accept: " + r.refusal + "\n" + prompt);
      continue;
    }
    io.show(std::string(kWords[static_cast<int>(*choice)]) + "\n");
    if (*choice == ReviewChoice::Quit) return std::nullopt;
    return choice;
  }
}

/// Carries out `choice`; the exit code it earns.
int apply(ReviewChoice choice, const PendingResult& r, const ReviewIo& io, ReviewRun& run) {
  if (choice == ReviewChoice::Skip) {
    ++run.skipped;
    return kExitOk;
  }
  const bool accept = choice == ReviewChoice::Accept;
  const Expected<std::string> done = accept ? accept_pending(r) : reject_pending(r.item);
  io.show(done ? *done : done.error());
  if (!done) {
    ++run.skipped;
    return kExitInvalid;
  }
  ++(accept ? run.accepted : run.rejected);
  return kExitOk;
}

}  // namespace

std::optional<ReviewChoice> review_choice(char key) {
  switch (key) {
    case 'a': case 'A': return ReviewChoice::Accept;
    case 'r': case 'R': return ReviewChoice::Reject;
    case 's': case 'S': return ReviewChoice::Skip;
    case 'q': case 'Q': return ReviewChoice::Quit;
    default: return std::nullopt;
  }
}

std::string review_card(const PendingResult& r, std::size_t index, std::size_t total) {
  std::string card = "[" + std::to_string(index) + "/" + std::to_string(total) + "] " + r.item.name + "\n";
  card += "scenario " + r.item.scenario + "\n";
  card += "pending  " + r.item.pending + "\n";
  std::optional<Divergence> divergence;
  card += change_text(r, &divergence);
  if (!r.refusal.empty()) card += "cannot accept: " + r.refusal + "\n" + r.scenario_errors;
  return card + write_picture(r, divergence);
}

ReviewRun run_review(const ReviewRequest& request, const ReviewIo& io) {
  ReviewRun run;
  const Expected<ScenarioFilter> filter = parse_filters(request.filters);
  const Roots roots{request.scenario_root, request.golden_dir};
  const Expected<std::vector<PendingItem>> items =
      filter ? select_pending(request.paths, roots, *filter)
             : Expected<std::vector<PendingItem>>::failure(error_line(filter.error()));
  if (!items) {
    run.errors = items.error();
    run.exit_code = kExitInvalid;
    return run;
  }
  if (items->empty()) {
    const std::string filtered = request.filters.empty() ? "" : " selected by the filters";
    run.closing = "no pending results" + filtered + (request.paths.empty() ? " under " + request.golden_dir : " there");
    return run;
  }
  for (std::size_t i = 0; i < items->size(); ++i) {
    const PendingResult result = read_pending((*items)[i], roots);
    io.show((i > 0 ? "\n" : "") + review_card(result, i + 1, items->size()));
    const std::optional<ReviewChoice> choice = ask(result, io);
    if (!choice) {
      run.skipped += items->size() - i;
      break;
    }
    run.exit_code = std::max(run.exit_code, apply(*choice, result, io, run));
  }
  run.closing = "review: " + std::to_string(run.accepted) + " accepted, " + std::to_string(run.rejected) +
                " rejected, " + std::to_string(run.skipped) + " skipped";
  if (run.skipped > 0) run.closing += " (still pending)";
  return run;
}

}  // namespace stepslide
