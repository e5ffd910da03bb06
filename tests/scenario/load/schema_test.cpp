// schema/scenario.schema.json kept in step with the loader: every scenario in
// scenarios/ is valid under it; the loader and the schema reject the same
// bad-input files at the same JSON path, and agree on generated variants
// (every setting's range, every shape, motion and check); and the small
// validator that makes this possible without another dependency is tested.
#include "scenario/load/schema_check.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gate/gate.h"
#include "scenario/json/reader.h"
#include "scenario/load/load.h"
#include "scenario/scenario.h"
#include "stepslide/settings.h"

namespace stepslide {
namespace {

using Json = JsonSchema::Json;
const std::string kSource = STEPSLIDE_SOURCE_DIR;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const JsonSchema& repository_schema() {
  static const JsonSchema schema = [] {
    std::string error;
    std::optional<JsonSchema> compiled = JsonSchema::compile(Json::parse(slurp(kSource + "/schema/scenario.schema.json")), &error);
    if (!compiled) throw std::runtime_error("schema/scenario.schema.json: " + error);
    return *compiled;
  }();
  return schema;
}

/// Scenario text parsed as the loader parses it (comments allowed); nullopt
/// when it is not JSON at all, which is the parser's business, not the schema's.
std::optional<Json> parse_scenario_text(const std::string& text) {
  strict_json::ParsedJson parsed = strict_json::parse_json(text, ScenarioLimits::max_json_depth, 1000);
  if (!parsed.ok || !parsed.issues.empty()) return std::nullopt;
  return strict_json::to_nlohmann(parsed.document.root);
}

std::string issues_text(const std::vector<SchemaIssue>& issues) {
  std::string text;
  for (const SchemaIssue& i : issues) text += format_schema_issue(i) + "  [schema " + i.schema_path + "]\n";
  return text;
}

JsonSchema compile_or_die(const std::string& schema_text) {
  std::string error;
  std::optional<JsonSchema> schema = JsonSchema::compile(Json::parse(schema_text), &error);
  if (!schema) throw std::runtime_error(error);
  return *schema;
}

bool valid(const JsonSchema& schema, const std::string& instance) { return schema.validate(Json::parse(instance)).empty(); }

// ---------------------------------------------------------------------------
// The validator

TEST(SchemaValidator, TypesIncludingIntegralNumbersAsIntegers) {
  const JsonSchema s = compile_or_die(R"({"type": "integer"})");
  EXPECT_TRUE(valid(s, "3"));
  EXPECT_TRUE(valid(s, "3.0"));
  EXPECT_TRUE(valid(s, "1e3"));
  EXPECT_FALSE(valid(s, "2.5"));
  EXPECT_FALSE(valid(s, "\"3\""));
  const JsonSchema either = compile_or_die(R"({"type": ["string", "null"]})");
  EXPECT_TRUE(valid(either, "null"));
  EXPECT_TRUE(valid(either, "\"x\""));
  const std::vector<SchemaIssue> issues = either.validate(Json::parse("true"));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "expected a string or null, got true");
}

TEST(SchemaValidator, NumericBoundsInclusiveAndExclusive) {
  const JsonSchema s = compile_or_die(R"({"minimum": 0, "exclusiveMaximum": 90})");
  EXPECT_TRUE(valid(s, "0"));
  EXPECT_TRUE(valid(s, "89.999"));
  EXPECT_FALSE(valid(s, "90"));
  EXPECT_FALSE(valid(s, "-0.001"));
  EXPECT_TRUE(valid(s, "\"not a number\"")) << "bounds apply to numbers only";
  const std::vector<SchemaIssue> issues = s.validate(Json::parse("90"));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "expected a number < 90, got 90");
  EXPECT_EQ(issues[0].schema_path, "/exclusiveMaximum");
}

TEST(SchemaValidator, ObjectsRequiredAndUnknownKeys) {
  const JsonSchema s = compile_or_die(
      R"({"type": "object", "properties": {"a": {"type": "number"}, "b/c": {"const": 1}},
          "required": ["a"], "additionalProperties": false})");
  EXPECT_TRUE(valid(s, R"({"a": 1})"));
  EXPECT_TRUE(valid(s, R"({"a": 1, "b/c": 1})"));
  const std::vector<SchemaIssue> issues = s.validate(Json::parse(R"({"colour": 1, "b/c": 2})"));
  ASSERT_EQ(issues.size(), 3u) << issues_text(issues);
  EXPECT_EQ(format_schema_issue(issues[0]), "/: missing required key \"a\"");
  EXPECT_EQ(format_schema_issue(issues[1]), "/colour: unknown key \"colour\"");
  EXPECT_EQ(format_schema_issue(issues[2]), "/b~1c: expected 1, got 2");
}

TEST(SchemaValidator, ArraysItemsPrefixItemsAndLengths) {
  const JsonSchema s = compile_or_die(
      R"({"type": "array", "prefixItems": [{"type": "integer"}, {"enum": ["end"]}], "items": {"type": "null"},
          "minItems": 2, "maxItems": 3})");
  EXPECT_TRUE(valid(s, R"([1, "end"])"));
  EXPECT_TRUE(valid(s, R"([1, "end", null])"));
  EXPECT_FALSE(valid(s, R"([1])"));
  EXPECT_FALSE(valid(s, R"([1, "end", null, null])"));
  EXPECT_FALSE(valid(s, R"([1, "end", 3])"));
  const std::vector<SchemaIssue> issues = s.validate(Json::parse(R"([1.5, "start"])"));
  ASSERT_EQ(issues.size(), 2u) << issues_text(issues);
  EXPECT_EQ(format_schema_issue(issues[0]), "/0: expected an integer, got 1.5");
  EXPECT_EQ(format_schema_issue(issues[1]), "/1: expected one of \"end\", got \"start\"");
}

TEST(SchemaValidator, OneOfReportsTheClosestAlternative) {
  const JsonSchema s = compile_or_die(R"({"$defs": {
      "box": {"type": "object", "properties": {"type": {"const": "box"}, "size": {"type": "number", "minimum": 0}},
              "required": ["type", "size"], "additionalProperties": false},
      "ball": {"type": "object", "properties": {"type": {"const": "ball"}, "radius": {"type": "number"}},
               "required": ["type", "radius"], "additionalProperties": false}},
      "oneOf": [{"$ref": "#/$defs/box"}, {"$ref": "#/$defs/ball"}]})");
  EXPECT_TRUE(valid(s, R"({"type": "box", "size": 1})"));
  EXPECT_TRUE(valid(s, R"({"type": "ball", "radius": 1})"));
  // The box alternative's const matched, so its problem is the one reported.
  std::vector<SchemaIssue> issues = s.validate(Json::parse(R"({"type": "box", "size": -1})"));
  ASSERT_EQ(issues.size(), 1u) << issues_text(issues);
  EXPECT_EQ(format_schema_issue(issues[0]), "/size: expected a number >= 0, got -1");
  EXPECT_EQ(issues[0].schema_path, "/$defs/box/properties/size/minimum");
  issues = s.validate(Json::parse(R"({"type": "box", "radius": 1})"));
  EXPECT_EQ(issues_text(issues), "/: missing required key \"size\"  [schema /$defs/box/required]\n"
                                 "/radius: unknown key \"radius\"  [schema /$defs/box/additionalProperties]\n");
  const JsonSchema both = compile_or_die(R"({"oneOf": [{"type": "number"}, {"minimum": 0}]})");
  issues = both.validate(Json::parse("1"));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "matches 2 alternatives, expected exactly one");
  EXPECT_TRUE(compile_or_die(R"({"anyOf": [{"type": "number"}, {"minimum": 0}]})").validate(Json::parse("1")).empty());
}

TEST(SchemaValidator, NotAndIfThenElse) {
  const JsonSchema s = compile_or_die(R"({
      "not": {"description": "a and b exclude each other", "required": ["a", "b"]},
      "if": {"properties": {"kind": {"const": "static"}}, "required": ["kind"]},
      "then": {"not": {"required": ["motion"]}}, "else": {"required": ["motion"]}})");
  EXPECT_TRUE(valid(s, R"({"a": 1, "motion": 1})"));
  std::vector<SchemaIssue> issues = s.validate(Json::parse(R"({"a": 1, "b": 2, "motion": 1})"));
  ASSERT_EQ(issues.size(), 1u) << issues_text(issues);
  EXPECT_EQ(issues[0].message, "a and b exclude each other");
  EXPECT_TRUE(valid(s, R"({"kind": "static"})"));
  EXPECT_FALSE(valid(s, R"({"kind": "static", "motion": 1})"));
  EXPECT_FALSE(valid(s, R"({"kind": "moving"})"));
  EXPECT_TRUE(valid(s, R"({"kind": "moving", "motion": 1})"));
}

TEST(SchemaValidator, BooleanSchemasAndRecursiveReferences) {
  EXPECT_TRUE(valid(compile_or_die("true"), "[1, {}]"));
  EXPECT_FALSE(valid(compile_or_die("false"), "1"));
  const JsonSchema tree = compile_or_die(
      R"({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
          "additionalProperties": false})");
  EXPECT_TRUE(valid(tree, R"({"children": [{"children": []}, {}]})"));
  const std::vector<SchemaIssue> issues = tree.validate(Json::parse(R"({"children": [{"children": [{"x": 1}]}]})"));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].instance_path, "/children/0/children/0/x");
  const JsonSchema loop = compile_or_die(R"({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})");
  const std::vector<SchemaIssue> endless = loop.validate(Json::parse("1"));
  ASSERT_EQ(endless.size(), 1u);
  EXPECT_EQ(endless[0].message, "the schema refers to itself without end");
}

TEST(SchemaValidator, RejectsSchemasItCannotFullyCheck) {
  std::string error;
  EXPECT_FALSE(JsonSchema::compile(Json::parse(R"({"properties": {"a": {"pattern": "^x"}}})"), &error));
  EXPECT_EQ(error, "/properties/a/pattern: unknown keyword \"pattern\" (not implemented by this validator)");
  EXPECT_FALSE(JsonSchema::compile(Json::parse(R"({"$ref": "#/$defs/missing"})"), &error));
  EXPECT_EQ(error, "/$ref: cannot resolve \"#/$defs/missing\"");
  EXPECT_FALSE(JsonSchema::compile(Json::parse(R"({"$ref": "other.json#/x"})"), &error));
  EXPECT_FALSE(JsonSchema::compile(Json::parse(R"({"type": "decimal"})"), &error));
  EXPECT_FALSE(JsonSchema::compile(Json::parse(R"({"minItems": -1})"), &error));
  EXPECT_FALSE(JsonSchema::compile(Json::parse(R"({"oneOf": []})"), &error));
  EXPECT_FALSE(JsonSchema::compile(Json::parse(R"({"required": [1]})"), &error));
  EXPECT_FALSE(JsonSchema::compile(Json::parse("3"), &error));
  EXPECT_TRUE(JsonSchema::compile(Json::parse(R"({"title": "t", "description": "d", "default": 1, "$comment": "c"})"),
                                  &error));
}

// ---------------------------------------------------------------------------
// The repository's schema and the loader

TEST(ScenarioSchema, IsDraft202012AndDescribesTheFormat) {
  const Json& doc = repository_schema().document();
  EXPECT_EQ(doc.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
  EXPECT_EQ(doc.at("properties").at("format").at("const"), kScenarioFormat);
  EXPECT_EQ(doc.at("required"), Json::parse(R"(["format", "ticks"])"));
  EXPECT_EQ(doc.at("additionalProperties"), false);
}

TEST(ScenarioSchema, EveryScenarioInTheRepositoryIsValid) {
  const std::vector<std::string> files = discover_scenarios({kSource + "/scenarios"}).files;
  ASSERT_GE(files.size(), 30u);
  for (const std::string& file : files) {
    const std::optional<Json> doc = parse_scenario_text(slurp(file));
    ASSERT_TRUE(doc) << file;
    EXPECT_EQ(issues_text(repository_schema().validate(*doc)), "") << file;
  }
}

TEST(ScenarioSchema, TheLoaderAcceptsADollarSchemaStringAndIgnoresIt) {
  const std::string text = R"({"$schema": "../../schema/scenario.schema.json", "format": "stepslide/scenario@1",
                               "ticks": 5})";
  const LoadResult load = load_scenario_text(text, "with_schema.json");
  EXPECT_TRUE(load.scenario) << format_load_errors(load);
  EXPECT_TRUE(repository_schema().validate(*parse_scenario_text(text)).empty());
  const std::string wrong = R"({"$schema": 5, "format": "stepslide/scenario@1", "ticks": 5})";
  const LoadResult bad = load_scenario_text(wrong, "wrong.json");
  ASSERT_FALSE(bad.scenario);
  EXPECT_EQ(bad.errors.at(0).json_path, "/$schema");
  const std::vector<SchemaIssue> issues = repository_schema().validate(*parse_scenario_text(wrong));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].instance_path, "/$schema");
}

TEST(ScenarioSchema, SettingsMatchTheSettingsTable) {
  const Json& properties = repository_schema().document().at("$defs").at("settings").at("properties");
  const ControllerSettings defaults;
  std::set<std::string> in_table;
  for (const SettingInfo& info : setting_table()) {
    in_table.insert(info.name);
    ASSERT_TRUE(properties.contains(info.name))
        << info.name << " is missing from schema/scenario.schema.json $defs/settings: add it there too";
    const Json& p = properties.at(info.name);
    EXPECT_EQ(p.at("type"), info.is_integer ? "integer" : "number") << info.name;
    EXPECT_EQ(p.at("minimum").get<double>(), info.min_value) << info.name;
    EXPECT_EQ(p.at("maximum").get<double>(), info.max_value) << info.name;
    EXPECT_EQ(p.at("default").get<double>(), get_setting(defaults, info)) << info.name;
    EXPECT_FALSE(p.value("description", "").empty()) << info.name;
  }
  for (auto it = properties.begin(); it != properties.end(); ++it) {
    EXPECT_TRUE(in_table.count(it.key())) << it.key() << " is in the schema but not in setting_table()";
  }
}

/// Both say valid, or both say invalid; the message shows what each said.
void expect_agreement(const std::string& text, bool expect_valid, const std::string& what) {
  const LoadResult load = load_scenario_text(text, "variant.json");
  const std::optional<Json> doc = parse_scenario_text(text);
  ASSERT_TRUE(doc) << what;
  const std::vector<SchemaIssue> issues = repository_schema().validate(*doc);
  EXPECT_EQ(load.scenario.has_value(), expect_valid) << what << ": loader says\n" << format_load_errors(load);
  EXPECT_EQ(issues.empty(), expect_valid) << what << ": schema says\n" << issues_text(issues);
}

std::string number_json(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

TEST(ScenarioSchema, AgreesWithTheLoaderOnEverySettingsRange) {
  for (const SettingInfo& info : setting_table()) {
    auto with = [&](const std::string& value) {
      return R"({"format": "stepslide/scenario@1", "ticks": 1, "character": {"settings": {")" + std::string(info.name) +
             "\": " + value + "}}}";
    };
    const double step = info.is_integer ? 1.0 : std::max(1e-6, std::fabs(info.max_value) * 1e-6);
    expect_agreement(with(number_json(info.min_value)), true, std::string(info.name) + " at its minimum");
    expect_agreement(with(number_json(info.max_value)), true, std::string(info.name) + " at its maximum");
    expect_agreement(with(number_json(info.min_value - step)), false, std::string(info.name) + " below its minimum");
    expect_agreement(with(number_json(info.max_value + step)), false, std::string(info.name) + " above its maximum");
    expect_agreement(with("\"1\""), false, std::string(info.name) + " as a string");
    if (info.is_integer) expect_agreement(with("0.5"), false, std::string(info.name) + " fractional");
  }
  expect_agreement(R"({"format": "stepslide/scenario@1", "ticks": 1, "character": {"settings": {"speed": 1}}})", false,
                   "unknown setting");
}

TEST(ScenarioSchema, AgreesWithTheLoaderOnEveryShapeMotionInputAndCheck) {
  const std::string head = R"({"format": "stepslide/scenario@1", "ticks": 10, )";
  auto body = [&](const std::string& b) { return head + R"("world": [)" + b + "]}"; };
  const std::vector<std::pair<std::string, bool>> variants = {
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1]}})"), true},
      {body(R"({"shape": {"type": "sphere", "radius": 1}, "name": "ball", "position": [0, 2, 0]})"), true},
      {body(R"({"shape": {"type": "capsule", "radius": 0.5, "height": 2}, "rotation_deg": [90, 0, 0]})"), true},
      {body(R"({"shape": {"type": "cylinder", "radius": 0.5, "height": 0.2}})"), true},
      {body(R"({"shape": {"type": "convex_hull", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}})"), true},
      {body(R"({"shape": {"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,0,1]], "triangles": [[0,1,2]]}})"), true},
      {body(R"({"shape": {"type": "heightfield", "rows": 2, "columns": 2, "cell_size": 1, "heights": [0,0,0,1]}})"),
       true},
      {body(R"({"shape": {"type": "stairs", "steps": 3, "rise": 0.2, "run": 0.3, "width": 1}})"), true},
      {body(R"({"shape": {"type": "ramp", "length": 3, "width": 1, "angle_deg": 30, "thickness": 0.1}})"), true},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1]}, "motion": {"type": "linear", "velocity": [1, 0, 0]}})"),
       true},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1]},
               "motion": {"type": "spin", "axis": [0, 1, 0], "deg_per_s": -30}})"),
       true},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1]}, "motion": {"type": "keyframes",
               "keys": [{"tick": 5, "position": [0, 1, 0], "rotation_deg": [0, 90, 0]}]}})"),
       true},
      // Invalid: wrong type, unknown key, missing field, out of range, static-only with motion.
      {body(R"({"shape": {"type": "torus", "radius": 1}})"), false},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1]}})"), false},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 0, 1]}})"), false},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1], "radius": 1}})"), false},
      {body(R"({"shape": {"type": "sphere"}})"), false},
      {body(R"({"shape": {"type": "sphere", "radius": 1}, "colour": "red"})"), false},
      {body(R"({"shape": {"type": "sphere", "radius": 1}, "position": [0, 2e6, 0]})"), false},
      {body(R"({"shape": {"type": "stairs", "steps": 0, "rise": 0.2, "run": 0.3, "width": 1}})"), false},
      {body(R"({"shape": {"type": "stairs", "steps": 2.5, "rise": 0.2, "run": 0.3, "width": 1}})"), false},
      {body(R"({"shape": {"type": "ramp", "length": 3, "width": 1, "angle_deg": 90}})"), false},
      {body(R"({"shape": {"type": "heightfield", "rows": 1, "columns": 2, "cell_size": 1, "heights": [0, 0]}})"), false},
      {body(R"({"shape": {"type": "stairs", "steps": 3, "rise": 0.2, "run": 0.3, "width": 1},
               "motion": {"type": "linear", "velocity": [1, 0, 0]}})"),
       false},
      {body(R"({"shape": {"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,0,1]], "triangles": [[0,1,2]]},
               "motion": {"type": "spin", "axis": [0, 1, 0], "deg_per_s": 1}})"),
       false},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1]}, "motion": {"type": "orbit"}})"), false},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1]}, "motion": {"type": "linear"}})"), false},
      {body(R"({"shape": {"type": "box", "half_extents": [1, 1, 1]}, "motion": {"type": "keyframes", "keys": []}})"),
       false},
      // Character and input.
      {head + R"("character": {"shape": {"type": "sphere", "radius": 0.4}, "velocity": [1, 0, 0]}})", true},
      {head + R"("character": {"shape": {"type": "mesh", "vertices": [], "triangles": []}}})", false},
      {head + R"("character": {"height": 2}})", false},
      {head + R"("input": [{"tick": 0, "move": [0, 1], "yaw_deg": 90, "jump": true}, {"tick": 3, "wish_velocity": [1, 2]}]})",
       true},
      {head + R"("input": [{"tick": 0, "move": [0, 1.5]}]})", false},
      {head + R"("input": [{"tick": 0, "move": [0, 1], "wish_velocity": [1, 1]}]})", false},
      {head + R"("input": [{"move": [0, 1]}]})", false},
      {head + R"("input": [{"tick": -1}]})", false},
      {head + R"("input": [{"tick": 0, "kneel": true}]})", false},
      // Steering: targets, options, and what it may not be combined with.
      {head + R"("input": [{"tick": 0, "move_to": [1, -2], "yaw_deg": 45, "jump": true}]})", true},
      {head + R"("input": [{"tick": 0, "waypoints": [[1, -2], [3, 4]], "stick": 0.5, "radius": 0.1, "slow_within": 0}]})",
       true},
      {head + R"("input": [{"tick": 0, "move_to": [1, -2], "wish_velocity": [1, 1]}]})", false},
      {head + R"("input": [{"tick": 0, "waypoints": [[1, -2]], "move": [0, 1]}]})", false},
      {head + R"("input": [{"tick": 0, "waypoints": []}]})", false},
      {head + R"("input": [{"tick": 0, "waypoints": [[1, -2, 0]]}]})", false},
      {head + R"("input": [{"tick": 0, "move_to": [1, -2], "stick": 0}]})", false},
      {head + R"("input": [{"tick": 0, "move_to": [1, -2], "radius": 0}]})", false},
      {head + R"("input": [{"tick": 0, "move_to": [1, -2], "slow_within": -0.5}]})", false},
      {head + R"("input": [{"tick": 0, "stick": 0.5}]})", false},
      {head + R"("input": [{"tick": 0, "move": [0, 1], "radius": 1}]})", false},
      {head + R"("input": [{"tick": 0, "slow_within": 1}]})", false},
      // Expectations.
      {head + R"("expect": [{"tick": "end", "position": [0, null, 1], "tolerance": 0.1},
                            {"ticks": [0, "end"], "grounded": true}, {"ticks": [2, 3], "max_penetration": 0},
                            {"ticks": [0, 10], "y_between": [-1, 1]}, {"ticks": [0, "end"], "stuck": false}]})",
       true},
      {head + R"("expect": [{"tick": "later", "position": [0, 0, 0]}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "grounded": true, "stuck": false}]})", false},
      {head + R"("expect": [{"ticks": [0], "grounded": true}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"]}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "max_penetration": -1}]})", false},
      {head + R"("expect": [{"tick": 1, "position": [0, 0, 0], "tolerance": 0}]})", false},
      // Expectation checks.
      {head + R"("world": [{"name": "lift", "shape": {"type": "box", "half_extents": [1, 1, 1]}}],
                 "expect": [{"ticks": [0, "end"], "x_between": [-1, 1]}, {"ticks": [0, 5], "z_between": [0, 0]},
                            {"ticks": [1, "end"], "speed_between": [0, 5]}, {"ticks": [0, "end"], "on_body": "lift"},
                            {"ticks": [0, "end"], "no_oscillation": {"window": 10, "max_wander": 0}},
                            {"reaches": [0, null, 1], "within": 0.5, "by_tick": 8}, {"reaches": [null, 2, null], "within": 1},
                            {"ticks": [0, "end"], "step_events": {"up": [0, 3]}},
                            {"ticks": [0, "end"], "step_events": {"up": [1, 1], "down": [0, 0]}},
                            {"ticks": [1, "end"], "moving": 0.5}]})",
       true},
      {head + R"("expect": [{"ticks": [0, "end"], "x_between": [1]}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "z_between": [0, 2e6]}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "speed_between": [1, 2]}]})", false},
      {head + R"("expect": [{"ticks": [1, "end"], "speed_between": [-0.5, 2]}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "on_body": null}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "no_oscillation": {"window": 1, "max_wander": 0}}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "no_oscillation": {"window": 2.5, "max_wander": 0}}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "no_oscillation": {"max_wander": 0}}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "no_oscillation": {"window": 2, "max_wander": 0, "x": 1}}]})", false},
      {head + R"("expect": [{"reaches": [null, null, null], "within": 1}]})", false},
      {head + R"("expect": [{"reaches": [0, 0], "within": 1}]})", false},
      {head + R"("expect": [{"reaches": [0, 0, 0], "within": 1, "by_tick": "soon"}]})", false},
      {head + R"("expect": [{"reaches": [0, 0, 0], "within": 1, "ticks": [0, 1]}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "step_events": {}}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "step_events": {"up": [0.5, 1]}}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "step_events": {"up": [0, 1, 2]}}]})", false},
      {head + R"("expect": [{"ticks": [1, "end"], "moving": 0}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "moving": 1}]})", false},
      {head + R"("expect": [{"ticks": [1, "end"], "moving": 1, "speed_between": [0, 1]}]})", false},
      {head + R"("expect": [{"ticks": [1, "end"], "max_rise_gain": 0}, {"ticks": [0, 4], "max_jump_apex": 1.3}]})", true},
      {head + R"("expect": [{"ticks": [0, "end"], "max_rise_gain": 0.1}]})", false},
      {head + R"("expect": [{"ticks": [1, "end"], "max_rise_gain": -0.1}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "max_jump_apex": -1}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "max_jump_apex": 2e6}]})", false},
      {head + R"("expect": [{"ticks": [1, "end"], "max_ground_normal_changes": 0}, {"ticks": [1, 4], "velocity_achieved": 1e-6}]})", true},
      {head + R"("expect": [{"ticks": [1, "end"], "max_ground_normal_changes": 0.5}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "max_ground_normal_changes": 1}]})", false},
      {head + R"("expect": [{"ticks": [1, "end"], "velocity_achieved": -1}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "max_speed": 4.5}, {"ticks": [3, 3], "max_speed": 0}]})", true},
      {head + R"("expect": [{"ticks": [0, "end"], "max_speed": -1}]})", false},
      {head + R"("expect": [{"ticks": [0, "end"], "max_speed": "fast"}]})", false},
      // The document.
      {R"({"format": "stepslide/scenario@1", "ticks": 1, "tick_rate": 240, "gravity": [0, -20, 0], "up": [0, 1, 0],
           "name": "n", "description": "d"})",
       true},
      {R"({"format": "stepslide/scenario@1", "ticks": 1, "chaotic": "a grazing sweep decides the path"})", true},
      {R"({"format": "stepslide/scenario@1", "ticks": 1, "chaotic": true})", false},
      {R"({"format": "stepslide/scenario@2", "ticks": 1})", false},
      {R"({"ticks": 1})", false},
      {R"({"format": "stepslide/scenario@1"})", false},
      {R"({"format": "stepslide/scenario@1", "ticks": 1, "tick_rate": 0})", false},
      {R"({"format": "stepslide/scenario@1", "ticks": 1000001})", false},
      {R"({"format": "stepslide/scenario@1", "ticks": 1, "gravity": [0, -9.81]})", false},
      {R"({"format": "stepslide/scenario@1", "ticks": 1, "world": {}})", false},
      {R"({"format": "stepslide/scenario@1", "ticks": 1, "extra": 1})", false},
  };
  for (std::size_t i = 0; i < variants.size(); ++i) {
    expect_agreement(variants[i].first, variants[i].second, "variant " + std::to_string(i) + ": " + variants[i].first);
  }
}

/// Bad-input files whose problem is the shape of the document: the schema
/// rejects each, at the JSON path where the loader reports its first error.
const char* const kExpressible[] = {
    "body_missing_shape", "body_not_object", "body_position_too_far", "body_rotation_not_array", "body_unknown_key",
    "box_half_extent_too_large", "box_half_extents_too_few", "box_negative_half_extent", "box_unknown_field",
    "box_zero_half_extent", "character_not_object", "character_position_too_far", "character_shape_mesh",
    "character_shape_missing_radius", "character_unknown_key", "cylinder_negative_height",
    "cylinder_with_half_extents", "description_array", "expect_grounded_not_bool", "expect_negative_penetration",
    "expect_no_kind", "expect_position_wrong_length", "expect_tick_bad_string", "expect_tick_on_range_check",
    "expect_tolerance_zero", "expect_two_kinds", "format_not_string", "gravity_wrong_length",
    "heightfield_height_not_number", "heightfield_one_row", "heightfield_with_motion", "hull_point_not_array",
    "hull_too_few_points", "input_fractional_tick", "input_jump_not_bool", "input_missing_tick",
    "input_move_and_wish", "input_move_out_of_range", "input_negative_tick", "input_not_array",
    "input_unknown_field", "input_yaw_string", "mesh_fractional_index", "mesh_negative_index", "mesh_no_triangles",
    "mesh_triangle_wrong_length", "mesh_with_motion", "missing_format", "missing_ticks", "motion_key_missing_position",
    "motion_key_negative_tick", "motion_key_tick_too_large", "motion_keyframes_empty", "motion_linear_missing_velocity",
    "motion_linear_with_axis", "motion_not_object", "motion_spin_rate_string", "motion_unknown_type",
    "name_not_string", "ramp_angle_90", "ramp_angle_zero", "ramp_negative_thickness", "ramp_with_motion",
    "setting_integer_fraction", "setting_negative", "setting_out_of_range", "setting_unknown", "setting_wrong_type",
    "shape_missing_type", "shape_unknown_type", "sphere_missing_radius", "sphere_radius_string", "sphere_with_height",
    "stairs_missing_rise", "stairs_too_many_steps", "stairs_with_motion", "stairs_zero_steps", "tick_rate_fraction",
    "tick_rate_too_high", "tick_rate_zero", "ticks_fraction", "ticks_null", "ticks_string", "ticks_too_many",
    "ticks_zero", "top_level_array", "top_level_number", "top_level_string", "unknown_root_key", "up_string",
    "world_not_array", "wrong_format",
    // Expectation checks.
    "expect_speed_from_tick_zero", "expect_speed_negative", "expect_on_body_not_string", "expect_window_too_small",
    "expect_no_oscillation_missing_wander", "expect_no_oscillation_negative_wander", "expect_reaches_all_null",
    "expect_reaches_within_zero", "expect_reaches_missing_within", "expect_step_events_empty",
    "expect_step_events_negative", "expect_step_events_unknown_key", "expect_moving_zero",
    // Rates and angles bounded so that time and trigonometry cannot overflow them.
    "body_rotation_too_large", "character_velocity_too_fast", "input_wish_velocity_too_fast", "input_yaw_too_large",
    "motion_key_rotation_too_large", "motion_linear_too_fast", "motion_spin_rate_too_fast",
    // Steering; a steering option without a target and a sideways up are the loader's alone.
    "input_move_to_and_move", "input_move_to_and_waypoints", "input_move_to_too_far", "input_move_to_wrong_length",
    "input_waypoint_not_pair", "input_waypoints_empty", "input_waypoints_not_array", "input_steer_radius_zero",
    "input_steer_slow_within_negative", "input_steer_stick_too_large", "input_steer_stick_zero",
    "key_with_control_characters",
    // Level and mesh files, and "place".
    "heightfield_file_and_heights",
    "level_file_as_scenario",
    "include_extra_key",
    "include_not_string",
    "mesh_file_and_vertices",
    "mesh_file_empty_glob",
    "mesh_file_scale_zero",
    "mesh_file_up_axis_x",
    "mesh_file_with_motion",
    "place_unknown",
    "place_without_position",
    // "chaotic" (check --perturb).
    "chaotic_not_string",
};

/// Bad-input files whose problem relates one value to another, or needs
/// arithmetic: beyond JSON Schema, so `stepslide validate` alone catches them.
const char* const kBeyondTheSchema[] = {
    "body_duplicate_name", "capsule_too_short", "character_capsule_too_short", "expect_range_first_beyond_ticks",
    "expect_range_reversed", "expect_tick_beyond_ticks", "expect_y_between_reversed", "gravity_zero_without_up",
    "heightfield_heights_count", "heightfield_too_many_cells", "hull_collinear", "hull_coplanar",
    "hull_duplicate_points", "hull_nearly_coplanar", "input_ticks_not_increasing", "mesh_index_out_of_range",
    "mesh_repeated_index", "mesh_zero_area", "motion_keyframes_not_increasing", "motion_spin_zero_axis", "up_zero",
    // Expectation checks: bounds in order, names of bodies, a window that fits its range.
    "expect_x_between_reversed", "expect_on_body_unknown_name", "expect_window_longer_than_range",
    "expect_step_events_reversed",
    // "chaotic": "" says nothing; minLength is outside the subset of JSON Schema the checker reads.
    "chaotic_empty",
    "mesh_repeated_triangle", "moving_body_ticks_too_many",
    // Level, mesh and image files: what they hold, and where they lie, is beyond any schema.
    "heightfield_file_bad_crc",
    "heightfield_file_colour",
    "heightfield_file_missing",
    "heightfield_file_not_png",
    "heightfield_file_range_reversed",
    "heightfield_file_truncated",
    "include_absolute",
    "include_bad_body",
    "include_bad_mesh",
    "include_cycle",
    "include_duplicate_name",
    "include_escaping",
    "include_missing",
    "include_not_a_level",
    "include_self",
    "mesh_file_absolute_path",
    "mesh_file_all_degenerate",
    "mesh_file_buffer_out_of_range",
    "mesh_file_empty_fbx",
    "mesh_file_empty_path",
    "mesh_file_escaping",
    "mesh_file_everything_excluded",
    "mesh_file_is_directory",
    "mesh_file_missing",
    "mesh_file_nan_vertex",
    "mesh_file_no_meshes",
    "mesh_file_nothing_included",
    "mesh_file_obj_index_out_of_range",
    "mesh_file_png_renamed_glb",
    "mesh_file_scaled_too_far",
    "mesh_file_split_duplicate_name",
    "mesh_file_too_many_triangles",
    "mesh_file_truncated_glb",
    "mesh_file_unknown_format",
    "mesh_file_vertex_too_far",
    "mesh_file_wrong_magic",
    "place_no_floor",
    "place_overlapped",
    "place_too_steep",
};

bool related(const std::string& a, const std::string& b) {
  auto within = [](const std::string& inner, const std::string& outer) {
    return inner.compare(0, outer.size(), outer) == 0 && (inner.size() == outer.size() || inner[outer.size()] == '/');
  };
  return within(a, b) || within(b, a);
}

TEST(ScenarioSchema, RejectsTheBadInputsItCanExpressWhereTheLoaderDoes) {
  for (const char* name : kExpressible) {
    const std::string path = kSource + "/tests/bad_input/" + name + ".json";
    const std::string text = slurp(path);
    ASSERT_FALSE(text.empty()) << path;
    const LoadResult load = load_scenario_text(text, name);
    ASSERT_FALSE(load.scenario) << name << " is accepted by the loader";
    const std::optional<Json> doc = parse_scenario_text(text);
    ASSERT_TRUE(doc) << name << " is not JSON";
    const std::vector<SchemaIssue> issues = repository_schema().validate(*doc);
    ASSERT_FALSE(issues.empty()) << name << " is accepted by the schema";
    const std::string& loader_path = load.errors.front().json_path;
    const bool same_place = std::any_of(issues.begin(), issues.end(), [&](const SchemaIssue& i) {
      return i.instance_path == loader_path;
    });
    const bool near = std::any_of(issues.begin(), issues.end(), [&](const SchemaIssue& i) {
      return related(i.instance_path, loader_path);
    });
    EXPECT_TRUE(same_place || near) << name << ": loader at '" << loader_path << "', schema:\n" << issues_text(issues);
  }
}

TEST(ScenarioSchema, LeavesCrossFieldRulesToTheLoader) {
  for (const char* name : kBeyondTheSchema) {
    const std::string text = slurp(kSource + "/tests/bad_input/" + name + ".json");
    const LoadResult load = load_scenario_text(text, name);
    EXPECT_FALSE(load.scenario) << name;
    const std::optional<Json> doc = parse_scenario_text(text);
    if (!doc) continue;  // a duplicate key: the parser's rule
    EXPECT_EQ(issues_text(repository_schema().validate(*doc)), "")
        << name << " is now caught by the schema: move it to kExpressible";
  }
}

}  // namespace
}  // namespace stepslide
