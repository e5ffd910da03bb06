// `stepslide review`: the pending results one by one, as `cargo insta review`
// walks snapshots. For each: what accepting it changes (the first divergence
// and the worst error per column, or that the golden is new), why it may not
// be accepted when it may not, and a picture of it over its golden
// (`GOLDEN.csv.new.svg`, removed again on accept or reject); then a key:
// a accept, r reject, s skip, q quit. The terminal itself (raw keys) is the
// CLI's; this loop only asks for keys and shows text, so tests drive it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gate/commands/accept.h"
#include "gate/core/exit_code.h"

namespace stepslide {

enum class ReviewChoice { Accept, Reject, Skip, Quit };

/// 'a', 'r', 's', 'q' (either case); nullopt for any other key.
std::optional<ReviewChoice> review_choice(char key);

/// Where the loop shows text and gets keys.
struct ReviewIo {
  std::function<void(const std::string& text)> show;
  /// The next key; nullopt at the end of input (counts as quit).
  std::function<std::optional<char>()> read_key;
};

/// The `review` command's options, as given.
struct ReviewRequest {
  std::vector<std::string> paths;  ///< as select_pending takes them; empty: all
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  std::vector<std::string> filters;  ///< --filter
};

struct ReviewRun {
  /// 2 for a usage error or a result that could not be moved or removed; a
  /// picture that could not be drawn is only a line of the card.
  int exit_code = kExitOk;
  std::string errors;       ///< stderr text of a usage error; nothing was shown
  std::size_t accepted = 0;
  std::size_t rejected = 0;
  std::size_t skipped = 0;  ///< including those left by quitting
  std::string closing;      ///< "review: 1 accepted, 0 rejected, 2 skipped" or "no pending results ..."
};

/// Walks the pending results `request` selects, in path order.
ReviewRun run_review(const ReviewRequest& request, const ReviewIo& io);

/// The text shown for one pending result (number `index` of `total`), and
/// writes its picture beside it.
std::string review_card(const PendingResult& result, std::size_t index, std::size_t total);

}  // namespace stepslide
