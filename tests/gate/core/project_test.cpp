// The project file as a library (gate/core/project.h, project_settings.h): finding
// it upward, reading it with every error at its JSON Pointer, resolving its
// paths, the schema agreeing with the loader, and merging it into a request
// under what the command line gave.
#include "gate/core/project.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "gate/commands/project_settings.h"
#include "scenario/json/reader.h"
#include "scenario/load/schema_check.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

const std::string kSource = STEPSLIDE_SOURCE_DIR;
const std::string kKnown =
    "(known: camera_dy, depen_iters, ground_body, grounded, local_x, local_y, local_z, normal_x, normal_y, normal_z, "
    "slide_iters, step_dy, stuck, sweeps, tick, time, vx, vy, vz, x, y, z)";

class ProjectFile : public test::WorkingDirTest {
 protected:
  /// The errors of a project file with `members` after its format, written as
  /// p.json in the working directory.
  std::string errors_of(const std::string& members) {
    const std::string text = R"({"format": "stepslide/project@1")" + (members.empty() ? "" : ", " + members) + "}";
    const Expected<Project> project = load_project_text(text, "p.json");
    return project ? "" : project.error();
  }
  /// True when some folder above the test's holds a stepslide.json, which
  /// would make "nothing found" untestable here.
  bool project_above() const {
    for (fs::path dir = dir_.parent_path(); dir.has_relative_path(); dir = dir.parent_path()) {
      if (fs::exists(dir / kProjectFileName)) return true;
    }
    return fs::exists(fs::path("/") / kProjectFileName);
  }
};

const char* const kMinimal = R"({"format": "stepslide/project@1"})";

// ---------------------------------------------------------------------------
// Finding the file

TEST_F(ProjectFile, SearchGoesUpFromTheStartAndSpellsThePathFromIt) {
  write("stepslide.json", kMinimal);
  write("a/b/c/.keep", "");
  EXPECT_EQ(find_project_file("."), "stepslide.json");
  EXPECT_EQ(find_project_file("a/b/c"), "a/b/c/../../../stepslide.json");
  EXPECT_EQ(find_project_file((dir_ / "a/b").string()), (fs::weakly_canonical(dir_) / "stepslide.json").string());
  write("a/stepslide.json", kMinimal);
  EXPECT_EQ(find_project_file("a/b/c"), "a/b/c/../../stepslide.json") << "the nearest one wins";
  fs::current_path(dir_ / "a/b/c");
  EXPECT_EQ(find_project_file("."), "../../stepslide.json");
  fs::current_path(dir_);
}

TEST_F(ProjectFile, SearchStopsAtTheFilesystemRoot) {
  if (project_above()) GTEST_SKIP() << "a stepslide.json above " << dir_;
  write("a/.keep", "");
  EXPECT_EQ(find_project_file("a"), std::nullopt);
  EXPECT_EQ(find_project_file("/"), std::nullopt);
}

TEST_F(ProjectFile, SelectReadsNoneTheOneFoundOrTheOneNamed) {
  write("stepslide.json", R"({"format": "stepslide/project@1", "jobs": 3})");
  write("conf/other.json", R"({"format": "stepslide/project@1", "jobs": 5})");
  ProjectUse use;
  Expected<std::optional<Project>> p = select_project(use);
  ASSERT_TRUE(p) << p.error();
  EXPECT_FALSE(p->has_value()) << "a library caller reads no file unless it asks";
  use.mode = ProjectUse::Mode::Search;
  p = select_project(use);
  ASSERT_TRUE(p && p->has_value()) << p.error();
  EXPECT_EQ((*p)->file, "stepslide.json");
  EXPECT_EQ((*p)->jobs, 3);
  use.mode = ProjectUse::Mode::File;
  use.file = "conf/other.json";
  p = select_project(use);
  ASSERT_TRUE(p && p->has_value()) << p.error();
  EXPECT_EQ((*p)->jobs, 5);
  use.file = "conf/missing.json";
  p = select_project(use);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), "conf/missing.json: cannot open: No such file or directory\n");
}

// ---------------------------------------------------------------------------
// Reading it

TEST_F(ProjectFile, ReadsEverySettingWithPathsFromItsFolder) {
  write("proj/cases/terrain/steep/.keep", "");
  write("proj/stepslide.json", R"({
    "$schema": "../schema/project.schema.json",
    "format": "stepslide/project@1",  // comments are allowed, as in scenarios
    "scenario_root": "cases", "golden_dir": "expected/", "report_dir": "/tmp/somewhere/report",
    "jobs": 4,
    "tolerances": {"x": 1e-4, "local_*": 1e-3, "v*": {"abs": 1e-4, "rel": 1e-6}},
    "directories": {"terrain": {"tolerances": {"y": 0.5}}, "./terrain/steep/": {"tolerances": {"y": {"rel": 0.1}}}}
  })");
  const Expected<Project> p = load_project_file("proj/stepslide.json");
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->file, "proj/stepslide.json");
  EXPECT_EQ(p->scenario_root, "proj/cases");
  EXPECT_EQ(p->golden_dir, "proj/expected");
  EXPECT_EQ(p->report_dir, "/tmp/somewhere/report") << "an absolute path stays as it is";
  EXPECT_EQ(p->jobs, 4);
  ASSERT_EQ(p->tolerances.tolerances.size(), 3u);
  EXPECT_EQ(p->tolerances.tolerances[2].pattern, "v*");
  EXPECT_EQ(p->tolerances.tolerances[2].abs, 1e-4);
  EXPECT_EQ(p->tolerances.tolerances[2].rel, 1e-6);
  EXPECT_EQ(p->tolerances.tolerances[2].json_path, "/tolerances/v*");
  ASSERT_EQ(p->tolerances.directories.size(), 2u);
  EXPECT_EQ(p->tolerances.directories[0].directory, "terrain/");
  EXPECT_EQ(p->tolerances.directories[1].directory, "terrain/steep/");
  EXPECT_EQ(p->tolerances.directories[1].tolerances.at(0).rel, 0.1);
}

TEST_F(ProjectFile, AMinimalFileSetsNothing) {
  const Expected<Project> p = load_project_text(kMinimal, "stepslide.json");
  ASSERT_TRUE(p) << p.error();
  EXPECT_FALSE(p->scenario_root || p->golden_dir || p->report_dir || p->jobs);
  EXPECT_TRUE(p->tolerances.tolerances.empty());
  EXPECT_TRUE(p->tolerances.directories.empty());
}

TEST_F(ProjectFile, PathsFromAFileFoundAboveStartThere) {
  write("stepslide.json", R"({"format": "stepslide/project@1", "scenario_root": "cases", "golden_dir": "../g"})");
  const Expected<Project> p = load_project_file("../" + dir_.filename().string() + "/stepslide.json");
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->scenario_root, "../" + dir_.filename().string() + "/cases");
  EXPECT_EQ(p->golden_dir, "../g");
}

TEST_F(ProjectFile, TheDocumentItselfMustBeAProject) {
  EXPECT_EQ(load_project_text("", "p.json").error(), "p.json: empty file: expected a JSON object\n");
  EXPECT_EQ(load_project_text("[1]", "p.json").error(), "p.json: expected an object, got an array\n");
  EXPECT_EQ(load_project_text("{}", "p.json").error(), "p.json: missing required key \"format\"\n");
  EXPECT_EQ(load_project_text(R"({"format": "stepslide/scenario@1"})", "p.json").error(),
            "p.json: /format: expected \"stepslide/project@1\", got \"stepslide/scenario@1\"\n");
  EXPECT_EQ(load_project_text(R"({"format": "stepslide/project@1", "jobs": 1, "jobs": 2})", "p.json").error(),
            "p.json: /jobs: duplicate key \"jobs\"\n");
  EXPECT_EQ(load_project_text(R"({"format": "stepslide/project@1",})", "p.json").error().rfind(
                "p.json: invalid JSON at line 1, column ", 0),
            0u);
  const std::string huge(ProjectLimits::max_file_bytes + 1, ' ');
  EXPECT_EQ(load_project_text(huge, "p.json").error(), "p.json: file too large: 1048577 bytes (limit 1048576)\n");
}

TEST_F(ProjectFile, EveryProblemOfTheTopLevelAtItsPointer) {
  EXPECT_EQ(errors_of(R"("colour": "red", "scenario_root": "", "golden_dir": 3, "report_dir": "a\u0000b",
                         "jobs": -1, "$schema": false)"),
            "p.json: /colour: unknown key \"colour\"\n"
            "p.json: /scenario_root: expected a path, got an empty string\n"
            "p.json: /golden_dir: expected a string, got 3\n"
            "p.json: /report_dir: expected a path, got a string holding NUL\n"
            "p.json: /jobs: expected an integer >= 0, got -1\n"
            "p.json: /$schema: expected a string, got false\n");
  EXPECT_EQ(errors_of(R"("jobs": 1025)"), "p.json: /jobs: expected an integer <= 1024, got 1025\n");
  EXPECT_EQ(errors_of(R"("jobs": 2.5)"), "p.json: /jobs: expected an integer, got 2.5\n");
}

TEST_F(ProjectFile, EveryProblemOfTheTolerancesAtItsPointer) {
  EXPECT_EQ(errors_of(R"("tolerances": {"x": -1, "foo": 1, "foo_*": 1e-3, "y": {"abs": 1, "lol": 2}, "z": {},
                                         "vx": {"rel": -1}, "time": "1e-3", "*l_x": 1, "loc*": 2})"),
            "p.json: /tolerances/x: expected a number >= 0, got -1\n"
            "p.json: /tolerances/foo: unknown column \"foo\" " + kKnown + "\n" +
            "p.json: /tolerances/foo_*: glob \"foo_*\" matches no column " + kKnown + "\n" +
            "p.json: /tolerances/y/lol: unknown key \"lol\"\n"
            "p.json: /tolerances/z: expected \"abs\" and/or \"rel\"\n"
            "p.json: /tolerances/vx/rel: expected a number >= 0, got -1\n"
            "p.json: /tolerances/time: expected a number >= 0 or an object with \"abs\" and/or \"rel\", got "
            "\"1e-3\"\n"
            "p.json: /tolerances/loc*: \"loc*\" and \"*l_x\" match column local_x equally specifically with "
            "different tolerances; add a key for local_x itself or make one of them more specific\n");
  EXPECT_EQ(errors_of(R"("tolerances": 1e-3)"), "p.json: /tolerances: expected an object, got 0.001\n");
}

TEST_F(ProjectFile, EveryProblemOfTheDirectoriesAtItsPointer) {
  write("scenarios/terrain/.keep", "");
  write("scenarios/stairs.json", "{}");
  EXPECT_EQ(errors_of(R"("directories": {"terain/": {"tolerances": {}}, "/abs": {"tolerances": {}},
                                          "../up": {"tolerances": {}}, ".": {"tolerances": {}},
                                          "terrain": {"tolerances": {"x": 1}}, "terrain/": {"tolerances": {}},
                                          "stairs.json": {"tolerances": {}}})"),
            "p.json: /directories/terain~1: no directory scenarios/terain (a key names a directory below the "
            "scenario root, scenarios)\n"
            "p.json: /directories/~1abs: expected a directory relative to the scenario root, got an absolute path\n"
            "p.json: /directories/..~1up: expected a directory inside the scenario root, got \"../up\"\n"
            "p.json: /directories/.: expected a directory below the scenario root; for every scenario, use the "
            "top-level \"tolerances\"\n"
            "p.json: /directories/terrain~1: names the same directory as an earlier key, \"terrain/\"\n"
            "p.json: /directories/stairs.json: no directory scenarios/stairs.json (a key names a directory below "
            "the scenario root, scenarios)\n");
  EXPECT_EQ(errors_of(R"("directories": {"terrain/": {"tolerance": {"x": 1}}, "terrain/x": 1})"),
            "p.json: /directories/terrain~1: missing required key \"tolerances\"\n"
            "p.json: /directories/terrain~1/tolerance: unknown key \"tolerance\"\n"
            "p.json: /directories/terrain~1x: no directory scenarios/terrain/x (a key names a directory below the "
            "scenario root, scenarios)\n"
            "p.json: /directories/terrain~1x: expected an object, got 1\n");
  EXPECT_EQ(errors_of(R"("directories": {"terrain/": {"tolerances": {"nope": 1}}})"),
            "p.json: /directories/terrain~1/tolerances/nope: unknown column \"nope\" " + kKnown + "\n");
  EXPECT_EQ(errors_of(R"("scenario_root": "elsewhere", "directories": {"terrain/": {"tolerances": {}}})"),
            "p.json: /directories/terrain~1: no directory elsewhere/terrain (a key names a directory below the "
            "scenario root, elsewhere)\n")
      << "directories are looked up under the file's own scenario root";
}

// ---------------------------------------------------------------------------
// The schema and the repository's own file

JsonSchema project_schema() {
  std::string error;
  std::optional<JsonSchema> schema = JsonSchema::compile(
      JsonSchema::Json::parse(test::read_text(kSource + "/schema/project.schema.json")), &error);
  if (!schema) throw std::runtime_error("schema/project.schema.json: " + error);
  return *schema;
}

JsonSchema::Json parsed(const std::string& text) {
  strict_json::ParsedJson p = strict_json::parse_json(text, 64, 10);
  EXPECT_TRUE(p.ok && p.issues.empty()) << text;
  return strict_json::to_nlohmann(p.document.root);
}

TEST_F(ProjectFile, TheRepositoryHasOneThatKeepsTheDefaults) {
  const std::string text = test::read_text(kSource + "/stepslide.json");
  const Expected<Project> p = load_project_text(text, kSource + "/stepslide.json");
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->scenario_root, kSource + "/scenarios");
  EXPECT_EQ(p->golden_dir, kSource + "/golden");
  EXPECT_TRUE(p->tolerances.tolerances.empty()) << "the built-in tolerances stay the defaults";
  EXPECT_TRUE(p->tolerances.directories.empty());
  EXPECT_EQ(project_schema().validate(parsed(text)).size(), 0u);
}

TEST_F(ProjectFile, TheSchemaAgreesWithTheLoaderOnTheShape) {
  write("scenarios/terrain/.keep", "");
  const JsonSchema schema = project_schema();
  const std::vector<std::pair<std::string, bool>> variants = {
      {R"("scenario_root": "scenarios", "golden_dir": "g", "report_dir": "r", "jobs": 0)", true},
      {R"("tolerances": {"x": 0, "v*": {"rel": 1e-6}, "y": {"abs": 1, "rel": 2}})", true},
      {R"("directories": {"terrain/": {"tolerances": {"x": 1}}})", true},
      {R"("colour": 1)", false},
      {R"("scenario_root": "")", false},
      {R"("scenario_root": 1)", false},
      {R"("jobs": -1)", false},
      {R"("jobs": 1025)", false},
      {R"("jobs": 1.5)", false},
      {R"("tolerances": {"x": -1})", false},
      {R"("tolerances": {"x": {}})", false},
      {R"("tolerances": {"x": {"abs": 1, "lol": 1}})", false},
      {R"("tolerances": [])", false},
      {R"("directories": {"terrain/": {}})", false},
      {R"("directories": {"terrain/": {"tolerances": {}, "jobs": 1}})", false},
      {R"("directories": {"terrain/": {"tolerances": {"x": "1"}}})", false},
  };
  for (const auto& [members, valid] : variants) {
    const std::string text = R"({"format": "stepslide/project@1", )" + members + "}";
    strict_json::ParsedJson doc = strict_json::parse_json(text, 64, 10);
    if (!doc.ok) continue;  // not JSON: the parser's business
    const Expected<Project> p = load_project_text(text, "p.json");
    EXPECT_EQ(static_cast<bool>(p), valid) << members << "\n" << p.error();
    EXPECT_EQ(schema.validate(strict_json::to_nlohmann(doc.document.root)).empty(), valid) << members;
  }
  EXPECT_FALSE(schema.validate(parsed(R"({"format": "stepslide/project@2"})")).empty());
  EXPECT_FALSE(schema.validate(parsed(R"({})")).empty());
}

// ---------------------------------------------------------------------------
// Merging into a request

TEST_F(ProjectFile, TheFileFillsWhatTheCommandLineLeftOut) {
  write("cases/.keep", "");
  write("stepslide.json", R"({"format": "stepslide/project@1", "scenario_root": "cases", "golden_dir": "gold",
                              "jobs": 3, "report_dir": "out/report", "tolerances": {"x": 1}})");
  CheckRequest request;
  request.project.mode = ProjectUse::Mode::Search;
  Expected<CheckRequest> merged = with_project(request);
  ASSERT_TRUE(merged) << merged.error();
  EXPECT_EQ(merged->scenario_root, "cases");
  EXPECT_EQ(merged->golden_dir, "gold");
  EXPECT_EQ(merged->jobs, 3);
  EXPECT_EQ(merged->report_dir, "out/report");
  ASSERT_EQ(merged->project_tolerances.tolerances.size(), 1u);

  // What the command line gave wins, even when it equals the built-in default.
  request.scenario_root = "scenarios";
  request.jobs = 1;
  request.report_dir = "mine";
  request.project.given.scenario_root = true;
  request.project.given.jobs = true;
  request.project.given.report_dir = true;
  merged = with_project(request);
  ASSERT_TRUE(merged) << merged.error();
  EXPECT_EQ(merged->scenario_root, "scenarios");
  EXPECT_EQ(merged->golden_dir, "gold");
  EXPECT_EQ(merged->jobs, 1);
  EXPECT_EQ(merged->report_dir, "mine");

  request.project.mode = ProjectUse::Mode::None;
  merged = with_project(request);
  ASSERT_TRUE(merged) << merged.error();
  EXPECT_EQ(merged->golden_dir, "golden");
  EXPECT_TRUE(merged->project_tolerances.tolerances.empty());
}

TEST_F(ProjectFile, EachCommandTakesWhatConcernsIt) {
  write("cases/terrain/.keep", "");
  write("stepslide.json", R"({"format": "stepslide/project@1", "scenario_root": "cases", "golden_dir": "gold",
                              "tolerances": {"x": 1}, "directories": {"terrain/": {"tolerances": {"y": 2}}}})");
  ProjectUse use;
  use.mode = ProjectUse::Mode::Search;
  BlessRequest bless;
  bless.project = use;
  EXPECT_EQ(with_project(bless)->golden_dir, "gold");
  RunRequest run;
  run.project = use;
  EXPECT_EQ(with_project(run)->scenario_root, "cases");
  CompareRequest diff;
  diff.project = use;
  const Expected<CompareRequest> compare = with_project(diff);
  EXPECT_EQ(compare->project_tolerances.tolerances.size(), 1u);
  EXPECT_TRUE(compare->project_tolerances.directories.empty()) << "diff compares files, not scenarios";
  PlotRequest plot;
  plot.project = use;
  const Expected<PlotRequest> plotted = with_project(plot);
  EXPECT_EQ(plotted->scenario_root, "cases");
  EXPECT_EQ(plotted->project_tolerances.directories.size(), 1u);

  write("stepslide.json", R"({"format": "stepslide/project@1", "tolerances": {"nope": 1}})");
  const Expected<BlessRequest> refused = with_project(bless);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(), "stepslide.json: /tolerances/nope: unknown column \"nope\" " + kKnown + "\n");
}

}  // namespace
}  // namespace stepslide
