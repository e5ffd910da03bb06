// Scenario loader, the document as a whole: valid files load with their
// defaults, every problem in a bad file is reported with its JSON path in
// document order, the resource limits on the file hold, and no input makes
// the loader throw or crash. Each part of the document has its own test file
// (shapes_test.cpp, bodies_test.cpp, ...).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;
using test::expect_vec;
using test::loaded;
using test::minimal;
using test::paths_and_messages;

const char* const kFullScenario = R"({
  // Comments are allowed, both kinds.
  "format": "stepslide/scenario@1",
  "name": "everything",
  "description": "one of each",
  "tick_rate": 120,
  "ticks": 240,
  "gravity": [0, -4, 0],  /* up follows gravity */
  "character": {
    "shape": {"type": "capsule", "radius": 0.4, "height": 2},
    "position": [1, 2, 3],
    "velocity": [0, 0, -1],
    "settings": {"walk_speed": 3.5, "max_slide_iterations": 6}
  },
  "world": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
    {"shape": {"type": "sphere", "radius": 1}, "rotation_deg": [0, 90, 0],
     "motion": {"type": "spin", "axis": [0, 2, 0], "deg_per_s": 45}},
    {"shape": {"type": "cylinder", "radius": 0.5, "height": 3}, "motion": {"type": "linear", "velocity": [1, 0, 0]}},
    {"shape": {"type": "capsule", "radius": 0.5, "height": 1},
     "motion": {"type": "keyframes", "keys": [{"tick": 0, "position": [0, 0, 0]},
                                               {"tick": 60, "position": [0, 1, 0], "rotation_deg": [0, 45, 0]}]}},
    {"shape": {"type": "convex_hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}},
    {"shape": {"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]],
               "triangles": [[0, 2, 1], [1, 2, 3]]}},
    {"shape": {"type": "heightfield", "rows": 2, "columns": 3, "cell_size": 0.5, "heights": [0, 0.1, 0.2, 0, 0, 0]}},
    {"shape": {"type": "stairs", "steps": 10, "rise": 0.2, "run": 0.3, "width": 1.5}, "position": [0, 0, -2]},
    {"shape": {"type": "ramp", "length": 4, "width": 2, "angle_deg": 30}}
  ],
  "input": [
    {"tick": 0, "move": [0, 1], "yaw_deg": 90},
    {"tick": 30, "jump": true},
    {"tick": 60, "wish_velocity": [2, -1]}
  ],
  "expect": [
    {"tick": 120, "position": [1, null, -3], "tolerance": 0.01},
    {"tick": "end", "position": [0, 0, 0]},
    {"ticks": [0, 10], "grounded": true},
    {"ticks": [5, "end"], "max_penetration": 0.001},
    {"ticks": [0, 240], "y_between": [-1, 3]}
  ]
})";

TEST(ScenarioLoad, FullScenarioLoadsEveryField) {
  const LoadResult result = load_scenario_text(kFullScenario, "scenarios/everything.json");
  const Scenario s = loaded(result);
  ASSERT_TRUE(result.scenario.has_value());
  EXPECT_EQ(s.name, "everything");
  EXPECT_EQ(s.description, "one of each");
  EXPECT_EQ(s.source_path, "scenarios/everything.json");
  EXPECT_EQ(s.tick_rate, 120);
  EXPECT_EQ(s.ticks, 240);
  expect_vec(s.gravity, {0, -4, 0});
  expect_vec(s.up, {0, 1, 0});

  EXPECT_EQ(s.character.shape.type, ShapeType::Capsule);
  EXPECT_DOUBLE_EQ(s.character.shape.radius, 0.4);
  EXPECT_DOUBLE_EQ(s.character.shape.height, 2.0);
  expect_vec(s.character.position, {1, 2, 3});
  expect_vec(s.character.velocity, {0, 0, -1});
  EXPECT_DOUBLE_EQ(s.character.settings.walk_speed, 3.5);
  EXPECT_EQ(s.character.settings.max_slide_iterations, 6);
  EXPECT_DOUBLE_EQ(s.character.settings.jump_speed, ControllerSettings{}.jump_speed);

  ASSERT_EQ(s.world.size(), 9u);
  EXPECT_EQ(s.world[0].name, "floor");
  EXPECT_EQ(s.world[0].json_path, "/world/0");
  expect_vec(s.world[0].shape.half_extents, {10, 0.5, 10});
  expect_vec(s.world[0].position, {0, -0.5, 0});
  EXPECT_EQ(s.world[0].motion.type, MotionType::None);
  EXPECT_EQ(s.world[1].motion.type, MotionType::Spin);
  expect_vec(s.world[1].motion.axis, {0, 1, 0});  // normalised
  EXPECT_DOUBLE_EQ(s.world[1].motion.deg_per_s, 45);
  expect_vec(s.world[1].rotation_deg, {0, 90, 0});
  EXPECT_EQ(s.world[2].shape.type, ShapeType::Cylinder);
  expect_vec(s.world[2].motion.velocity, {1, 0, 0});
  ASSERT_EQ(s.world[3].motion.keys.size(), 2u);
  EXPECT_EQ(s.world[3].motion.keys[1].tick, 60);
  expect_vec(s.world[3].motion.keys[0].rotation_deg, {0, 0, 0});  // default
  expect_vec(s.world[3].motion.keys[1].rotation_deg, {0, 45, 0});
  EXPECT_EQ(s.world[4].shape.points.size(), 4u);
  ASSERT_EQ(s.world[5].shape.triangles.size(), 2u);
  EXPECT_EQ(s.world[5].shape.triangles[1], (std::array<std::int32_t, 3>{1, 2, 3}));
  EXPECT_EQ(s.world[6].shape.rows, 2);
  EXPECT_EQ(s.world[6].shape.columns, 3);
  EXPECT_EQ(s.world[6].shape.heights.size(), 6u);
  EXPECT_EQ(s.world[7].shape.steps, 10);
  EXPECT_DOUBLE_EQ(s.world[7].shape.run, 0.3);
  EXPECT_DOUBLE_EQ(s.world[8].shape.angle_deg, 30);
  EXPECT_DOUBLE_EQ(s.world[8].shape.thickness, 0.2);  // default

  ASSERT_EQ(s.input.size(), 3u);
  EXPECT_EQ(s.input[0].move, (Vec2{0, 1}));
  EXPECT_EQ(s.input[0].yaw_deg, 90.0);
  EXPECT_FALSE(s.input[0].jump.has_value());
  EXPECT_EQ(s.input[1].tick, 30);
  EXPECT_EQ(s.input[1].jump, true);
  EXPECT_FALSE(s.input[1].move.has_value());
  EXPECT_EQ(s.input[2].wish_velocity, (Vec2{2, -1}));

  ASSERT_EQ(s.expect.size(), 5u);
  EXPECT_EQ(s.expect[0].kind, ExpectCheck::Kind::Position);
  EXPECT_EQ(s.expect[0].json_path, "/expect/0");
  EXPECT_EQ(s.expect[0].tick, 120);
  EXPECT_EQ(s.expect[0].position[0], 1.0);
  EXPECT_FALSE(s.expect[0].position[1].has_value());
  EXPECT_DOUBLE_EQ(s.expect[0].tolerance, 0.01);
  EXPECT_TRUE(s.expect[1].tick_is_end);
  EXPECT_DOUBLE_EQ(s.expect[1].tolerance, 1e-3);
  EXPECT_EQ(s.expect[2].kind, ExpectCheck::Kind::Grounded);
  EXPECT_TRUE(s.expect[2].grounded);
  EXPECT_EQ(s.expect[2].last, 10);
  EXPECT_EQ(s.expect[3].kind, ExpectCheck::Kind::MaxPenetration);
  EXPECT_EQ(s.expect[3].first, 5);
  EXPECT_TRUE(s.expect[3].last_is_end);
  EXPECT_EQ(s.expect[4].kind, ExpectCheck::Kind::YBetween);
  EXPECT_DOUBLE_EQ(s.expect[4].lo, -1);
  EXPECT_DOUBLE_EQ(s.expect[4].hi, 3);
}

TEST(ScenarioLoad, MinimalScenarioGetsDefaults) {
  const LoadResult result = load_scenario_text(minimal(), "some/dir/stairs_up.json");
  const Scenario s = loaded(result);
  EXPECT_EQ(s.name, "stairs_up");
  EXPECT_EQ(s.tick_rate, 60);
  expect_vec(s.gravity, {0, -9.81, 0});
  expect_vec(s.up, {0, 1, 0});
  EXPECT_EQ(s.character.shape.type, ShapeType::Capsule);
  EXPECT_DOUBLE_EQ(s.character.shape.radius, 0.3);
  EXPECT_DOUBLE_EQ(s.character.shape.height, 1.8);
  expect_vec(s.character.position, {0, 0, 0});
  expect_vec(s.character.velocity, {0, 0, 0});
  EXPECT_TRUE(s.world.empty());
  EXPECT_TRUE(s.input.empty());
  EXPECT_TRUE(s.expect.empty());
}

TEST(ScenarioLoad, ChaoticKeepsItsReasonAndIsNotDeclaredByDefault) {
  EXPECT_EQ(loaded(load_scenario_text(minimal(), "t")).chaotic, "");
  EXPECT_EQ(test::loaded_with(R"("chaotic": "a grazing sweep decides the path")").chaotic,
            "a grazing sweep decides the path");
}

TEST(ScenarioLoad, NameDefaultsToFileNameWithoutJsonExtension) {
  EXPECT_EQ(loaded(load_scenario_text(minimal(), "a/b/c.json")).name, "c");
  EXPECT_EQ(loaded(load_scenario_text(minimal(), "plain")).name, "plain");
  EXPECT_EQ(loaded(load_scenario_text(minimal(), "x.json.txt")).name, "x.json.txt");
}

TEST(ScenarioLoad, UpIsNegatedGravityOrGivenUpNormalised) {
  expect_vec(loaded(load_scenario_text(minimal(R"("gravity": [0, 0, -3])"), "t")).up, {0, 0, 1});
  expect_vec(loaded(load_scenario_text(minimal(R"("gravity": [0, 0, 0], "up": [0, 0, 5])"), "t")).up, {0, 0, 1});
  expect_vec(loaded(load_scenario_text(minimal(R"("up": [3, 4, 0])"), "t")).up, {0.6, 0.8, 0});
}

TEST(ScenarioLoad, IntegralFloatsCountAsIntegers) {
  const Scenario s = loaded(load_scenario_text(
      R"({"format": "stepslide/scenario@1", "ticks": 1e2, "tick_rate": 30.0,
          "character": {"settings": {"max_slide_iterations": 2.0}}})",
      "t"));
  EXPECT_EQ(s.ticks, 100);
  EXPECT_EQ(s.tick_rate, 30);
  EXPECT_EQ(s.character.settings.max_slide_iterations, 2);
}

TEST(ScenarioLoad, ErrorsComeInDocumentOrderWithFileLabel) {
  const LoadResult result = load_scenario_text(R"({
      "expect": [{"tick": 1}],
      "world": [{"shape": {"type": "sphere", "radius": -1}, "colour": 1}],
      "ticks": 0,
      "format": "nope"
    })",
                                               "dir/file.json");
  EXPECT_FALSE(result.scenario.has_value());
  const std::vector<std::string> expected = {
      "/expect/0: expected exactly one of \"position\", \"grounded\", \"max_penetration\", \"y_between\", \"stuck\", "
      "\"x_between\", \"z_between\", \"speed_between\", \"on_body\", \"no_oscillation\", \"reaches\", "
      "\"step_events\", \"moving\", \"max_rise_gain\", \"max_jump_apex\", \"body_reaches\", \"body_at_rest\", \"body_upright\", \"max_ground_normal_changes\", \"velocity_achieved\", \"max_speed\", got none",
      "/world/0/shape/radius: expected a number > 0, got -1",
      "/world/0/colour: unknown key \"colour\"",
      "/ticks: expected an integer >= 1, got 0",
      "/format: expected \"stepslide/scenario@1\", got \"nope\"",
  };
  EXPECT_EQ(paths_and_messages(result), expected);
  for (const LoadError& e : result.errors) EXPECT_EQ(e.file, "dir/file.json");
}

TEST(ScenarioLoad, MissingKeysAreReportedAtTheObject) {
  const LoadResult result = load_scenario_text(R"({"world": [{"shape": {"type": "box"}}]})", "t");
  EXPECT_EQ(paths_and_messages(result), (std::vector<std::string>{
                                            ": missing required key \"format\"",
                                            ": missing required key \"ticks\"",
                                            "/world/0/shape: missing required key \"half_extents\"",
                                        }));
}

TEST(ScenarioLoad, DuplicateKeysAreReportedAtTheirPath) {
  const LoadResult result = load_scenario_text(
      minimal(R"("world": [{"shape": {"type": "sphere", "radius": 1, "type": "sphere"}}], "input": [], "input": [])"),
      "t");
  EXPECT_EQ(paths_and_messages(result), (std::vector<std::string>{
                                            "/world/0/shape/type: duplicate key \"type\"",
                                            "/input: duplicate key \"input\"",
                                        }));
}

TEST(ScenarioLoad, KeysNeedingEscapesInPointers) {
  const LoadResult result = load_scenario_text(minimal(R"("a/b~c": 1)"), "t");
  EXPECT_EQ(paths_and_messages(result), std::vector<std::string>{"/a~1b~0c: unknown key \"a/b~c\""});
}

TEST(ScenarioLoad, LongFoundValuesAreTruncated) {
  const LoadResult result = load_scenario_text(
      minimal("\"name\": \"" + std::string(500, 'x') + "\", \"ticks\": \"" + std::string(500, 'y') + "\""), "t");
  ASSERT_FALSE(result.errors.empty());
  const std::string& message = result.errors.back().message;
  EXPECT_LT(message.size(), 100u) << message;
  EXPECT_NE(message.find("yyy...\""), std::string::npos) << message;
}

TEST(ScenarioLoad, FormatErrorNamesFilePathAndMessage) {
  EXPECT_EQ(format_error(LoadError{"FILE", "/world/3/shape/half_extents/1", "expected a number > 0, got -2"}),
            "FILE: /world/3/shape/half_extents/1: expected a number > 0, got -2");
  EXPECT_EQ(format_error(LoadError{"a.json", "", "missing required key \"format\""}),
            "a.json: missing required key \"format\"");
}

TEST(ScenarioLoad, DeepNestingIsOneErrorNotACrash) {
  const std::string arrays = minimal("\"description\": " + std::string(200000, '['));
  const LoadResult a = load_scenario_text(arrays, "t");
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_NE(a.errors[0].message.find("64 levels"), std::string::npos) << a.errors[0].message;

  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  const LoadResult o = load_scenario_text(objects, "t");
  ASSERT_EQ(o.errors.size(), 1u);
  EXPECT_EQ(o.errors[0].json_path.substr(0, 6), "/a/a/a");
}

TEST(ScenarioLoad, NestingUpToTheLimitIsParsed) {
  // The root object is level 1, so the description holds 63 levels.
  const std::string deep = minimal("\"description\": " + std::string(63, '[') + std::string(63, ']'));
  const LoadResult result = load_scenario_text(deep, "t");
  EXPECT_EQ(paths_and_messages(result), std::vector<std::string>{"/description: expected a string, got an array"});
}

TEST(ScenarioLoad, MemoryForTheDocumentIsBoundedByTheFileSize) {
  // 4 MiB of 60-deep empty arrays: 32 bytes of memory per byte of file. The
  // same shape at the 64 MiB file limit peaked at 2.2 GB before being refused
  // as an unknown key; now parsing stops at 16 bytes per byte plus 32 MiB.
  const std::string chain = std::string(60, '[') + std::string(60, ']');
  std::string junk = chain;
  while (junk.size() < 4u * 1024 * 1024) junk += "," + chain;
  const std::string text = minimal("\"junk\": [" + junk + "]");
  const LoadResult result = load_scenario_text(text, "t");
  ASSERT_EQ(result.errors.size(), 1u) << ::testing::PrintToString(paths_and_messages(result));
  const std::size_t limit = static_cast<std::size_t>(ScenarioLimits::max_memory_per_file_byte) * text.size() +
                            static_cast<std::size_t>(ScenarioLimits::memory_allowance);
  EXPECT_EQ(result.errors[0].message, "expected a document needing at most " + std::to_string(limit) +
                                          " bytes of memory (the memory limit), got more by here: too many small "
                                          "or deeply nested arrays, objects or strings");
  EXPECT_EQ(result.errors[0].json_path.substr(0, 6), "/junk/");
}

TEST(ScenarioLoad, OversizedTextIsRejectedBeforeParsing) {
  const std::string text(static_cast<std::size_t>(ScenarioLimits::max_file_bytes) + 1, ' ');
  const LoadResult result = load_scenario_text(text, "big.json");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].json_path, "");
  EXPECT_NE(result.errors[0].message.find(std::to_string(ScenarioLimits::max_file_bytes)), std::string::npos)
      << result.errors[0].message;
}

TEST(ScenarioLoad, OversizedFileIsRejectedWithItsLimit) {
  const fs::path path = fs::temp_directory_path() / "stepslide_scenario_load_big.json";
  { std::ofstream(path.string()) << "{}"; }
  fs::resize_file(path, static_cast<std::uintmax_t>(ScenarioLimits::max_file_bytes) + 10);  // sparse: cheap
  const LoadResult result = load_scenario_file(path.string());
  fs::remove(path);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].file, path.string());
  EXPECT_NE(result.errors[0].message.find(std::to_string(ScenarioLimits::max_file_bytes)), std::string::npos)
      << result.errors[0].message;
}

TEST(ScenarioLoad, MissingFileIsAnErrorNamingThePath) {
  const LoadResult result = load_scenario_file("no/such/dir/scenario.json");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].file, "no/such/dir/scenario.json");
  EXPECT_EQ(result.errors[0].json_path, "");
  EXPECT_FALSE(result.scenario.has_value());
}

TEST(ScenarioLoad, FileLoadSetsSourcePathAsGiven) {
  const fs::path path = fs::temp_directory_path() / "stepslide_scenario_load_ok.json";
  { std::ofstream(path.string()) << minimal(); }
  const LoadResult result = load_scenario_file(path.string());
  fs::remove(path);
  EXPECT_EQ(loaded(result).source_path, path.string());
  EXPECT_EQ(loaded(result).name, "stepslide_scenario_load_ok");
}

TEST(ScenarioLoad, HugeErrorCountsAreCapped) {
  std::string extra;
  for (int i = 0; i < 5000; ++i) extra += (i ? ", " : "") + std::string("\"k") + std::to_string(i) + "\": 0";
  const LoadResult result = load_scenario_text(minimal(extra), "t");
  ASSERT_EQ(result.errors.size(), 1001u);
  EXPECT_EQ(result.errors.front().json_path, "/k0");
  EXPECT_NE(result.errors.back().message.find("too many errors"), std::string::npos);
}

// Deterministic mutations of a valid file: whatever comes out, the loader
// answers with a scenario or with errors, never an exception or a crash.
TEST(ScenarioLoad, MutatedInputNeverThrows) {
  const std::string base = kFullScenario;
  const std::string alphabet = "{}[],:\"0123456789.-+eE/*truefalsn \n\\\x80\xff";
  std::uint64_t state = 12345;
  auto next = [&state](std::size_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>((state >> 33) % bound);
  };
  for (int round = 0; round < 3000; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(next(4));
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = next(text.size());
      switch (next(4)) {
        case 0:
          text[at] = alphabet[next(alphabet.size())];
          break;
        case 1:
          text.erase(at, 1 + next(20));
          break;
        case 2: {
          const std::size_t count = next(40);
          text.insert(at, text.substr(next(text.size()), count));
          break;
        }
        default:
          text.insert(at, 1, alphabet[next(alphabet.size())]);
          break;
      }
    }
    LoadResult result;
    ASSERT_NO_THROW(result = load_scenario_text(text, "mutant.json")) << text;
    EXPECT_EQ(result.scenario.has_value(), result.errors.empty());
    for (const LoadError& e : result.errors) {
      EXPECT_EQ(e.file, "mutant.json");
      EXPECT_FALSE(e.message.empty());
      EXPECT_TRUE(e.json_path.empty() || e.json_path[0] == '/') << e.json_path;
    }
  }
}

// tests/bad_input: every file there must produce exactly the error lines
// listed for it in EXPECTED.txt, in that order.
std::map<std::string, std::vector<std::string>> read_expected(const fs::path& file) {
  std::map<std::string, std::vector<std::string>> expected;
  std::ifstream in(file.string());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos) {
      ADD_FAILURE() << "malformed line in " << file << ": " << line;
      continue;
    }
    expected[line.substr(0, colon)].push_back(line);
  }
  return expected;
}

TEST(ScenarioLoad, BadInputCorpus) {
  const fs::path dir = fs::path(STEPSLIDE_SOURCE_DIR) / "tests" / "bad_input";
  std::map<std::string, std::vector<std::string>> expected = read_expected(dir / "EXPECTED.txt");
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 60u);

  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    const std::string path = (dir / name).string();
    LoadResult result;
    ASSERT_NO_THROW(result = load_scenario_file(path));
    EXPECT_FALSE(result.scenario.has_value());
    std::vector<std::string> actual;
    for (LoadError e : result.errors) {
      EXPECT_EQ(e.file, path);
      e.file = name;
      actual.push_back(format_error(e));
    }
    const auto listed = expected.find(name);
    ASSERT_NE(listed, expected.end()) << "no expected errors listed in EXPECTED.txt";
    EXPECT_EQ(actual, listed->second);
    expected.erase(listed);
  }
  for (const auto& [name, lines] : expected) ADD_FAILURE() << "EXPECTED.txt lists a missing file: " << name;
}

}  // namespace
}  // namespace stepslide
