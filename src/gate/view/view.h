// `stepslide view`: a run replayed in 3D as one self-contained HTML page.
// The page shows the level (every body as triangles, moving bodies at their
// pose for the tick shown), the character's shape, its path coloured by
// grounded / airborne / stepping, a reference run (golden or other
// trajectory) as a ghost with the first divergence marked, a timeline whose
// tick is in the URL fragment (#tick=120), the tick's trajectory row and step
// events, and optionally the tick's traced queries drawn in the scene with
// the words `stepslide trace` prints. three.js and its OrbitControls are
// inlined from Debian's libjs-three (gate/view/three.h); the page refers to no
// other file and makes no network request.
// Library code: returns text, writes nothing (but write_view_pages).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gate/core/check.h"
#include "gate/core/diff.h"
#include "gate/view/three.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"
#include "scenario/trajectory.h"
#include "stepslide/expected.h"

namespace stepslide {

struct ViewRequest {
  const Scenario* scenario = nullptr;  ///< required
  /// The run to show, rows 0..ticks. When null, or when `trace` is set, the
  /// scenario is simulated here (with the trace recorded on the same run).
  const Trajectory* run = nullptr;
  /// The failed expectations of `run`, listed in the page (when simulated
  /// here, the simulation's own are listed instead).
  const std::vector<ExpectationFailure>* expectation_failures = nullptr;
  /// A reference run drawn as a ghost, e.g. the golden; null for none.
  const Trajectory* reference = nullptr;
  std::string reference_label;      ///< where it came from, e.g. its path
  bool reference_is_golden = true;  ///< "golden" in the page, else "other"
  /// Ticks shown, inclusive; last_tick -1 means the scenario's last.
  std::int64_t first_tick = 0;
  std::int64_t last_tick = -1;
  /// Also record and draw every query of the ticks shown (record_trace).
  bool trace = false;
  /// The scripts to inline; null loads them with load_three_js().
  const view::ThreeJs* three = nullptr;
};

struct ViewResult {
  std::string html;
  /// The run against the reference with the gate's default rules (absent
  /// without a reference).
  std::optional<DiffResult> diff;
  /// The scenario's failed expectations, when the run was simulated here.
  std::vector<ExpectationFailure> expectation_failures;
};

/// The page for `request`. Fails (with a message naming the file and what
/// was expected) when the reference does not belong to the scenario
/// (check_view_reference), when the ticks are outside [0, ticks], or when
/// three.js cannot be read. Deterministic: the same inputs (and the same
/// three.js files) give the same bytes.
Expected<ViewResult> view_html(const ViewRequest& request);

/// Whether `trajectory` (read from `label`) is a run of `scenario`: columns
/// x, y and z, one row per tick 0..ticks, and, when it has them, a tick
/// column counting rows and a time column of tick / tick_rate (within the
/// gate's time tolerance). The failure says which.
Status check_view_reference(const Scenario& scenario, const Trajectory& trajectory, const std::string& label);

/// "A..B" with 0 <= A <= B <= ticks, as given to --ticks.
Expected<std::pair<std::int64_t, std::int64_t>> parse_tick_range(const std::string& text, std::int64_t ticks);

/// The view page's file name for a scenario name: the name made safe as
/// output_file_name does, then ".view.html".
std::string view_file_name(const std::string& scenario_name);

/// For `check --report DIR`: writes DIR/<name>.view.html (the run over its
/// golden) for each failed outcome with a run to show (CheckOutcome::detail),
/// atomically, three.js read once. Returns the file name written per outcome
/// ("" for none; a second scenario of the same name gets "-2" and so on)
/// with the first error met (then the pages are not all written).
struct ViewPages {
  std::vector<std::string> files;  ///< one per outcome, relative to DIR
  std::string error;               ///< "" when every page was written
};
ViewPages write_view_pages(const std::string& dir, const std::vector<CheckOutcome>& outcomes,
                           const view::ThreeJs* three = nullptr);

}  // namespace stepslide
