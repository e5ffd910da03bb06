// The failure report of `stepslide check --report DIR`: one self-contained
// HTML page a CI job uploads as its artifact. Library code: returns text.
#pragma once

#include <string>
#include <vector>

#include "gate/core/check.h"

namespace stepslide {

struct ReportOptions {
  std::string title = "stepslide check";
  std::string command;  ///< the command line that produced the run, shown under the title ("" to omit)
  /// Per outcome: the file name of its 3D view page beside the report
  /// (write_view_pages in view.h), linked from its section; "" for none.
  std::vector<std::string> view_pages;
  /// Shown instead of the links when the view pages could not be written.
  std::string view_note;
};

/// An HTML page (inline CSS and SVG; no scripts, no external references but
/// the links to the view pages beside it) that
/// lists every outcome with its status and, for each failure, the first
/// divergence, the worst error per column, the failed expectations, a plot of
/// the run over its golden (when CheckOutcome::detail is set) and the text
/// report. Well-formed XML as well as HTML, so strict tools can read it.
std::string report_html(const std::vector<CheckOutcome>& outcomes, const ReportOptions& options = {});

}  // namespace stepslide
