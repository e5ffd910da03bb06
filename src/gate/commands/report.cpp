#include "gate/commands/report.h"

#include <exception>

#include "base/format.h"
#include "base/xml.h"
#include "gate/commands/check_run.h"
#include "gate/core/diff_report.h"
#include "gate/plot/plot.h"

namespace stepslide {

namespace {

// Inline, so the page is one file; no '<' or '&' in it, so it stays valid XML.
constexpr const char* kStyle = R"(
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 24px; color: #222; max-width: 1060px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 17px; margin-top: 36px; border-top: 1px solid #ccc; padding-top: 14px; }
h3 { font-size: 14px; margin-bottom: 6px; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
pre { background: #f6f6f4; padding: 10px; overflow-x: auto; border: 1px solid #e2e2de; }
table { border-collapse: collapse; font-size: 13px; }
th, td { text-align: left; padding: 3px 10px 3px 6px; border-bottom: 1px solid #e6e6e6; vertical-align: top; }
td.number { text-align: right; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.status { font-weight: bold; padding: 1px 6px; border-radius: 3px; color: #fff; }
.status.pass { background: #2e7d32; }
.status.fail { background: #c62828; }
.status.invalid { background: #6a1b9a; }
tr.fail td, tr.invalid td { background: #fdf3f3; }
.totals { font-size: 15px; margin: 10px 0 18px 0; }
.muted { color: #666; }
svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
)";

const char* status_word(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass: return "PASS";
    case Verdict::Fail: return "FAIL";
    case Verdict::Invalid: return "INVALID";
  }
  return "?";
}

const char* status_class(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Invalid: return "invalid";
  }
  return "fail";
}

std::string status_badge(Verdict verdict) {
  return std::string("<span class=\"status ") + status_class(verdict) + "\">" + status_word(verdict) + "</span>";
}

std::string anchor_for(std::size_t index) { return "scenario-" + std::to_string(index + 1); }

std::string cell(const std::string& text, bool number = false) {
  return std::string(number ? "<td class=\"number\">" : "<td>") + xml_escape_text(text) + "</td>";
}

std::string overview_table(const std::vector<CheckOutcome>& outcomes) {
  std::string html = "<table class=\"overview\">\n<tr><th>status</th><th>scenario</th><th>what failed</th></tr>\n";
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const CheckOutcome& o = outcomes[i];
    std::string name = xml_escape_text(o.name);
    if (o.verdict != Verdict::Pass) name = "<a href=\"#" + anchor_for(i) + "\">" + name + "</a>";
    html += "<tr class=\"outcome " + std::string(status_class(o.verdict)) + "\"><td>" + status_badge(o.verdict) +
            "</td><td><code>" + name + "</code></td>" + cell(o.summary) + "</tr>\n";
  }
  return html + "</table>\n";
}

std::string divergence_table(const Divergence& d) {
  std::string html = "<h3>First divergence</h3>\n<table class=\"first-divergence\">\n";
  html += "<tr><th>tick</th><th>column</th><th>expected (golden)</th><th>actual (this run)</th><th>error</th>"
          "<th>tolerance</th></tr>\n<tr>";
  const DivergenceValues v = readable_values(d);
  html += cell(readable_number(d.tick), true) + cell(d.column) +
          cell(d.expected.empty() ? "(no row)" : v.expected, true) + cell(d.actual.empty() ? "(no row)" : v.actual, true) +
          cell(readable_number(d.error), true) + cell(readable_number(d.tolerance), true);
  return html + "</tr>\n</table>\n";
}

std::string worst_table(const std::vector<ColumnWorst>& worst) {
  std::string html = "<h3>Worst error per column</h3>\n<table class=\"worst-errors\">\n";
  html += "<tr><th>column</th><th>worst error</th><th>at tick</th><th>mismatching rows</th></tr>\n";
  for (const ColumnWorst& w : worst) {
    html += "<tr>" + cell(w.column) + cell(readable_number(w.worst_error), true) +
            cell(readable_number(w.worst_tick), true) + cell(std::to_string(w.mismatches), true) + "</tr>\n";
  }
  return html + "</table>\n";
}

std::string list(const char* css_class, const std::string& heading, const std::vector<std::string>& items) {
  std::string html = "<h3>" + xml_escape_text(heading) + "</h3>\n<ul class=\"" + css_class + "\">\n";
  for (const std::string& item : items) html += "<li>" + xml_escape_text(item) + "</li>\n";
  return html + "</ul>\n";
}

/// The run drawn over its golden; a note instead when it cannot be drawn.
std::string picture(const FailureDetail& detail, std::size_t index) {
  std::vector<PlotTrace> traces{{"this run", &detail.actual}};
  if (detail.golden && missing_plot_columns(*detail.golden).empty()) traces.push_back({"golden", &*detail.golden});
  PlotOptions options;
  options.id_prefix = "p" + std::to_string(index + 1);
  options.expectation_failures = detail.expectation_failures;
  try {
    const std::optional<Divergence> divergence = traces.size() > 1 ? detail.diff.first : std::nullopt;
    return "<div class=\"plot\">\n" + plot_svg(detail.scenario, traces, divergence, options) + "</div>\n";
  } catch (const std::exception& e) {
    return "<p class=\"muted\">(no picture: " + xml_escape_text(e.what()) + ")</p>\n";
  }
}

/// The link to the run's 3D view page, or why there is none.
std::string view_link(const ReportOptions& options, std::size_t index) {
  if (index < options.view_pages.size() && !options.view_pages[index].empty()) {
    const std::string& page = options.view_pages[index];
    return "<p class=\"view-link\"><a" + xml_attribute("href", page) + ">Replay in 3D</a> <span class=\"muted\">(" +
           xml_escape_text(page) + ": the run over its golden, tick by tick)</span></p>\n";
  }
  if (options.view_note.empty()) return "";
  return "<p class=\"muted\">(no 3D view: " + xml_escape_text(options.view_note) + ")</p>\n";
}

std::string failure_section(const CheckOutcome& o, std::size_t index, const ReportOptions& options) {
  std::string html = "<section class=\"failure\" id=\"" + anchor_for(index) + "\">\n";
  html += "<h2>" + status_badge(o.verdict) + " <code>" + xml_escape_text(o.name) + "</code></h2>\n";
  if (!o.summary.empty()) html += "<p>" + xml_escape_text(o.summary) + "</p>\n";
  if (!o.golden.empty()) html += "<p class=\"muted\">golden: <code>" + xml_escape_text(o.golden) + "</code></p>\n";
  if (o.detail) {
    const FailureDetail& d = *o.detail;
    if (!d.diff.structural.empty()) html += list("structural", "Shape of the tables", d.diff.structural);
    if (d.diff.first) html += divergence_table(*d.diff.first);
    if (!d.diff.worst.empty()) html += worst_table(d.diff.worst);
    if (!d.expectation_failures.empty()) {
      std::vector<std::string> items;
      for (const ExpectationFailure& f : d.expectation_failures) {
        items.push_back(f.check + " at tick " + std::to_string(f.tick) + ": " + f.message);
      }
      html += list("expectations", "Failed expectations", items);
    }
    html += view_link(options, index);
    html += picture(d, index);
  }
  html += "<details><summary>Text report</summary>\n<pre>" + xml_escape_text(o.report) + "</pre>\n</details>\n";
  return html + "</section>\n";
}

}  // namespace

std::string report_html(const std::vector<CheckOutcome>& outcomes, const ReportOptions& options) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
  html += "<title>" + xml_escape_text(options.title + ": " + closing_line(outcomes)) + "</title>\n";
  html += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  html += "<h1>" + xml_escape_text(options.title) + "</h1>\n";
  if (!options.command.empty()) html += "<p class=\"muted\"><code>" + xml_escape_text(options.command) + "</code></p>\n";
  html += "<p class=\"totals\">" + xml_escape_text(closing_line(outcomes)) + "</p>\n";
  html += overview_table(outcomes);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].verdict != Verdict::Pass) html += failure_section(outcomes[i], i, options);
  }
  return html + "</body>\n</html>\n";
}

}  // namespace stepslide
