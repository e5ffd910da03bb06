// Scenario loading (docs/format.md §1): strict JSON in, a validated Scenario out, or
// every problem found, each with its JSON Pointer, in document order. This
// file reads the document and its top-level fields and hands each part
// (character, world, input, expect) to its own reader in this folder
// (character.cpp, bodies.cpp, input.cpp, expect.cpp).

#include <algorithm>
#include <filesystem>

#include "base/file_io.h"
#include "scenario/load/level_include.h"
#include "scenario/load/load.h"
#include "scenario/load/parts.h"
#include "scenario/load/spawn.h"
#include "scenario/load/tolerance.h"

namespace stepslide {

namespace {

using namespace loader;

/// Listing stops after this many problems: a broken generated file may hold
/// millions, and a person reads the first few.
constexpr std::size_t kMaxErrors = 1000;

/// "up" defaults to -gravity normalised, so it is required only when gravity is zero.
void read_gravity_and_up(JsonReader& r, ObjectReader& o, const Field& root, Scenario& s) {
  const Field gravity = o.optional("gravity");
  const bool gravity_ok = !gravity || r.numbers(gravity, kCoordinate, s.gravity);
  const Field up = o.optional("up");
  if (up) {
    read_direction(r, up, s.up);
  } else if (gravity_ok && !normalize({-s.gravity[0], -s.gravity[1], -s.gravity[2]}, s.up)) {
    r.error(root.where, "missing required key \"up\" (gravity is zero)");
  }
}

/// Moving bodies are posed every tick: their count times the ticks bounds the work.
void check_moving_body_ticks(JsonReader& r, const Field& world, const Scenario& s) {
  const auto moving = static_cast<std::int64_t>(std::count_if(
      s.world.begin(), s.world.end(), [](const BodyDef& b) { return b.motion.type != MotionType::None; }));
  if (moving == 0 || moving * s.ticks <= Limits::max_moving_body_ticks) return;
  r.error(world.where, "expected at most " + std::to_string(Limits::max_moving_body_ticks) +
                           " moving body-ticks (bodies with a motion x ticks, the work limit), got " +
                           std::to_string(moving) + " x " + std::to_string(s.ticks) + " = " +
                           std::to_string(moving * s.ticks));
}

/// Dynamic bodies are integrated and solved every tick: their count times the ticks bounds the work.
void check_dynamic_body_ticks(JsonReader& r, const Field& world, const Scenario& s) {
  const auto dynamic = static_cast<std::int64_t>(
      std::count_if(s.world.begin(), s.world.end(), [](const BodyDef& b) { return b.dynamic(); }));
  if (dynamic == 0 || dynamic * s.ticks <= Limits::max_dynamic_body_ticks) return;
  r.error(world.where, "expected at most " + std::to_string(Limits::max_dynamic_body_ticks) +
                           " dynamic body-ticks (bodies with a mass x ticks, the work limit), got " +
                           std::to_string(dynamic) + " x " + std::to_string(s.ticks) + " = " +
                           std::to_string(dynamic * s.ticks));
}

/// "chaotic": a reason, never empty, so that every declaration says why the
/// scenario is exempt from `check --perturb` (docs/format.md §3.2).
void read_chaotic(JsonReader& r, const Field& field, std::string& reason) {
  if (!field) return;
  if (!field.value->is_string() || field.value->get_ref<const std::string&>().empty()) {
    r.error(field.where, "expected a non-empty string saying why the scenario is chaotic, got " +
                             describe(*field.value));
    return;
  }
  reason = field.value->get_ref<const std::string&>();
}

void read_scenario(JsonReader& r, const Field& root, Scenario& s, LoadContext& context) {
  if (!r.object(root)) return;
  ObjectReader o(r, root);
  const Field format = o.required("format");
  if (format && !(format.value->is_string() && format.value->get_ref<const std::string&>() == kScenarioFormat)) {
    const bool level = format.value->is_string() && format.value->get_ref<const std::string&>() == kLevelFormat;
    r.error(format.where, "expected " + quote(kScenarioFormat) + ", got " + describe(*format.value) +
                              (level ? " (a level file: include it from a scenario's world, docs/format.md §1.6)" : ""));
    if (level) return;  // its other keys are a level's: listing them as unknown would mislead
  }
  std::string schema_reference;  // "$schema": for editors (schema/scenario.schema.json); ignored here
  r.string(o.optional("$schema"), schema_reference);
  r.string(o.optional("name"), s.name);
  r.string(o.optional("description"), s.description);
  r.integer(o.optional("tick_rate"), between(1, Limits::max_tick_rate), s.tick_rate);
  const Range tick_count{1.0, static_cast<double>(Limits::max_ticks), false, false, nullptr, "the tick limit"};
  const bool ticks_ok = r.integer(o.required("ticks"), tick_count, s.ticks);
  read_gravity_and_up(r, o, root, s);
  const Field one = o.optional("character");
  const Field many = o.optional("characters");
  if (one && many) {
    r.error(many.where, "expected \"character\" or \"characters\", not both");
  } else if (many) {
    read_characters(r, many, s);
  } else {
    read_character(r, one, s.character);
  }
  const Field world = o.optional("world");
  read_world(r, world, s.world, context);
  if (ticks_ok) check_moving_body_ticks(r, world, s);
  if (ticks_ok) check_dynamic_body_ticks(r, world, s);
  check_character_names(r, many, s);
  const Field input = o.optional("input");
  if (many && input) {
    r.error(input.where, "expected no \"input\" beside \"characters\": each character has its own "
                         "(/characters/N/input)");
  } else {
    read_input(r, input, s.up, s.input);
  }
  const Range checked_ticks =
      ticks_ok ? Range{0.0, static_cast<double>(s.ticks), false, false, nullptr, "the scenario's ticks"}
               : between(0.0, static_cast<double>(Limits::max_ticks));
  read_expect(r, o.optional("expect"), checked_ticks, s, s.expect);
  read_tolerances(r, o.optional("tolerance"), s.tolerance);
  read_chaotic(r, o.optional("chaotic"), s.chaotic);
  o.reject_unknown();
}

std::string default_name(const std::string& file_label) {
  std::string name = std::filesystem::path(file_label).filename().string();
  constexpr std::string_view kExtension = ".json";
  if (name.size() >= kExtension.size() &&
      name.compare(name.size() - kExtension.size(), kExtension.size(), kExtension) == 0) {
    name.resize(name.size() - kExtension.size());
  }
  return name;
}

LoadResult failure(const std::string& file, std::string message) {
  LoadResult result;
  result.errors.push_back(LoadError{file, "", std::move(message)});
  return result;
}

/// Puts a character with "place": "on_floor" on its floor (spawn.h); the
/// problem, if any, is the scenario's at /character/place (or
/// /characters/N/place). Each character is dropped into the world alone.
void place_character(const std::string& file_label, LoadResult& result) {
  Scenario& scenario = *result.scenario;
  for (std::size_t i = 0; i < scenario.character_count(); ++i) {
    CharacterDef& character = i == 0 ? scenario.character : scenario.others[i - 1].def;
    if (character.place != Placement::OnFloor) continue;
    Expected<Vec3> feet = Vec3{};
    if (i == 0) {
      feet = find_floor_spawn(scenario);
    } else {
      Scenario alone = scenario;
      alone.character = character;
      alone.others.clear();
      feet = find_floor_spawn(alone);
    }
    if (feet) {
      character.position = *feet;
      continue;
    }
    const std::string where = character.json_path + "/place";
    result.scenario.reset();
    result.errors.push_back(LoadError{file_label, where, feet.error()});
    return;
  }
}

LoadResult load_text(const std::string& text, const std::string& file_label, const LoadOptions& options) {
  if (static_cast<std::int64_t>(text.size()) > Limits::max_file_bytes) {
    return failure(file_label, "file too large: " + std::to_string(text.size()) + " bytes (limit " +
                                   std::to_string(Limits::max_file_bytes) + ")");
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return failure(file_label, "empty file: expected a JSON object");
  }
  // One duplicate more than can be listed, so the listing says it was cut short.
  const auto max_memory = static_cast<std::size_t>(Limits::max_memory_per_file_byte) * text.size() +
                          static_cast<std::size_t>(Limits::memory_allowance);
  ParsedJson parsed = parse_json(text, Limits::max_json_depth, kMaxErrors + 1, max_memory);
  JsonReader reader(kMaxErrors);
  for (JsonIssue& issue : parsed.issues) reader.add(std::move(issue));
  Scenario scenario;
  scenario.source_path = file_label;
  scenario.name = default_name(file_label);
  LoadResult result;
  LoadContext context;
  context.paths = PathPolicy{directory_of(file_label), options.allow_outside};
  context.dir = context.paths.root_dir;
  context.include_chain = {std::filesystem::path(file_label).lexically_normal().generic_string()};
  context.inputs = &result.inputs;
  context.notes = &result.notes;
  context.scenario_label = file_label;
  result.inputs.push_back(InputFile{std::filesystem::path(file_label).filename().generic_string(), fnv1a64_of(text)});
  if (parsed.ok) read_scenario(reader, Field{&parsed.document.root, Where{}}, scenario, context);

  for (JsonIssue& issue : reader.take_sorted_issues()) {
    result.errors.push_back(LoadError{file_label, std::move(issue.pointer), std::move(issue.message)});
  }
  if (result.errors.empty()) {
    result.scenario = std::move(scenario);
    place_character(file_label, result);
  }
  return result;
}

/// Bad input must never escape as an exception; what could still throw here
/// is running out of memory or a bug, reported as an error of this file.
template <class Load>
LoadResult never_throwing(const std::string& file, Load&& load) {
  try {
    return load();
  } catch (const std::exception& e) {
    return failure(file, std::string("internal error while loading: ") + e.what());
  } catch (...) {
    return failure(file, "internal error while loading");
  }
}

}  // namespace

// A problem with the whole document (empty JSON path) reads "FILE: message";
// any other "FILE: /json/path: message". JSON Pointers always start with '/',
// so the two forms cannot be confused.
std::string format_error(const LoadError& e) {
  if (e.json_path.empty()) return e.file + ": " + e.message;
  return e.file + ": " + e.json_path + ": " + e.message;
}

std::string format_load_errors(const LoadResult& load) {
  std::string text;
  for (const LoadError& error : load.errors) text += format_error(error) + "\n";
  return text;
}

LoadResult load_scenario_text(const std::string& text, const std::string& file_label, const LoadOptions& options) {
  return never_throwing(file_label, [&] { return load_text(text, file_label, options); });
}

LoadResult load_scenario_file(const std::string& path, const LoadOptions& options) {
  return never_throwing(path, [&] {
    const Expected<std::string> text = read_file(path, Limits::max_file_bytes);
    return text ? load_text(*text, path, options) : failure(path, text.error());
  });
}

}  // namespace stepslide
