// write_view_pages (view.h): the 3D pages `check --report DIR` links from
// its index, one per failed scenario with a run to show.
#include <filesystem>
#include <map>

#include "base/file_io.h"
#include "gate/view/view.h"

namespace stepslide {

namespace {

/// `name`, or name-2, name-3, ... when an earlier page took it.
std::string unique_name(const std::string& name, std::map<std::string, int>& taken) {
  const int n = ++taken[name];
  if (n == 1) return name;
  const std::string stem = name.substr(0, name.size() - std::string(".view.html").size());
  return stem + "-" + std::to_string(n) + ".view.html";
}

}  // namespace

ViewPages write_view_pages(const std::string& dir, const std::vector<CheckOutcome>& outcomes,
                           const view::ThreeJs* three) {
  ViewPages pages;
  pages.files.assign(outcomes.size(), "");
  std::optional<view::ThreeJs> loaded;
  std::map<std::string, int> taken;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const CheckOutcome& o = outcomes[i];
    if (o.verdict != Verdict::Fail || !o.detail) continue;
    if (three == nullptr) {
      Expected<view::ThreeJs> read = view::load_three_js();
      if (!read) {
        pages.error = read.error();
        return pages;
      }
      loaded = read.take();
      three = &*loaded;
    }
    const FailureDetail& d = *o.detail;
    ViewRequest request;
    request.scenario = &d.scenario;
    request.run = &d.actual;
    request.expectation_failures = &d.expectation_failures;
    request.three = three;
    // A golden that is not a run of this scenario (other ticks, other rate)
    // is left out; the report says why the tables differ.
    if (d.golden && check_view_reference(d.scenario, *d.golden, o.golden)) {
      request.reference = &*d.golden;
      request.reference_label = o.golden;
    }
    const Expected<ViewResult> view = view_html(request);
    const std::string name = unique_name(view_file_name(d.scenario.name), taken);
    const std::string path = (std::filesystem::path(dir) / name).lexically_normal().generic_string();
    const Status written = view ? write_file_atomic(path, view->html) : Status::failure(view.error());
    if (!written) {
      pages.error = "cannot write " + path + ": " + written.error();
      return pages;
    }
    pages.files[i] = name;
  }
  return pages;
}

}  // namespace stepslide
