// What the picture tests share: the repository's scenarios and goldens, the
// strict XML reader, and a temp directory to run the binary in with copies of
// scenarios and goldens.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "gate/gate.h"
#include "scenario/json/reader.h"
#include "scenario/load/load.h"
#include "support/chromium.h"
#include "support/temp_dir.h"
#include "support/xml_check.h"

namespace stepslide::test {

using xml_check::element;
using xml_check::Node;

inline const std::string kSource = STEPSLIDE_SOURCE_DIR;

inline std::string slurp(const fs::path& path) { return read_text(path); }

inline std::vector<std::string> every_scenario() { return discover_scenarios({kSource + "/scenarios"}).files; }

inline std::string golden_of(const std::string& scenario) {
  return golden_path_for(scenario, kSource + "/scenarios", kSource + "/golden").value();
}

inline Scenario load_or_die(const std::string& path) {
  const LoadResult load = load_scenario_file(path);
  if (!load.scenario) throw std::runtime_error(path + " does not load: " + format_load_errors(load));
  return *load.scenario;
}

inline std::optional<Trajectory> read_trajectory(const std::string& path) {
  Expected<Trajectory> t = read_trajectory_file(path);
  return t ? std::optional<Trajectory>(t.take()) : std::nullopt;
}

inline std::unique_ptr<Node> parse_xml(const std::string& text) {
  xml_check::Reader reader(text);
  std::unique_ptr<Node> root = reader.read();
  EXPECT_TRUE(root) << reader.error();
  return root;
}

inline const Node* only(const Node& root, const std::function<bool(const Node&)>& match, const char* what) {
  const std::vector<const Node*> found = root.find_all(match);
  EXPECT_EQ(found.size(), 1u) << what;
  return found.empty() ? nullptr : found.front();
}

inline std::size_t count(const Node& root, const std::function<bool(const Node&)>& match) {
  return root.find_all(match).size();
}

/// A temp directory with copies of the repository's scenarios and goldens.
class CommandTest : public TempDirTest {
 protected:
  /// Copies a scenario and its golden from the repository into the temp dir.
  void copy_case(const std::string& rel, bool with_golden = true) const {
    fs::create_directories((dir_ / "scenarios" / rel).parent_path());
    fs::copy_file(kSource + "/scenarios/" + rel, dir_ / "scenarios" / rel);
    if (!with_golden) return;
    const std::string golden_rel = fs::path(rel).replace_extension(".csv").string();
    fs::create_directories((dir_ / "golden" / golden_rel).parent_path());
    fs::copy_file(kSource + "/golden/" + golden_rel, dir_ / "golden" / golden_rel);
  }

  /// A repository scenario plotted over its golden, and its screenshot at the
  /// SVG's own size.
  struct PlotShot {
    std::unique_ptr<Node> svg;
    std::optional<Image> image;
  };
  PlotShot plot_and_screenshot(const std::string& chromium, const std::string& scenario_rel) const {
    const std::string scenario = kSource + "/scenarios/" + scenario_rel;
    const RunResult r = run("plot '" + scenario + "' --golden '" + golden_of(scenario) + "' --out plot.svg");
    EXPECT_EQ(r.code, 0) << r.err;
    PlotShot shot;
    shot.svg = parse_xml(slurp(dir_ / "plot.svg"));
    if (!shot.svg) return shot;
    const int width = std::stoi(shot.svg->attribute("width")), height = std::stoi(shot.svg->attribute("height"));
    shot.image = screenshot(chromium, dir_ / "plot.svg", width, height, dir_);
    return shot;
  }
};

/// The scenario's text with max_step_height lowered (too low for its stairs).
inline std::string with_low_step(const std::string& scenario_path) {
  strict_json::ParsedJson parsed = strict_json::parse_json(slurp(scenario_path), 64, 10);
  if (!parsed.ok) throw std::runtime_error("cannot parse " + scenario_path);
  nlohmann::ordered_json document = strict_json::to_nlohmann(parsed.document.root);
  document["character"]["settings"]["max_step_height"] = 0.15;
  return document.dump(2);
}

}  // namespace stepslide::test
