#include "scenario/load/level_include.h"

#include <algorithm>

#include "base/file_io.h"
#include "scenario/load/parts.h"

namespace stepslide {

namespace {

constexpr std::size_t kMaxLevelErrors = 1000;

bool has_level_format(const strict_json::Json& document) {
  if (!document.is_object()) return false;
  const strict_json::Json* format = document.find("format");
  return format != nullptr && format->is_string() && format->get_ref<const std::string&>() == kLevelFormat;
}

}  // namespace

bool is_level_file(const std::string& path) {
  const Expected<std::string> text = read_file(path, ScenarioLimits::max_file_bytes);
  if (!text) return false;
  // Cheap test first: most scenario files never mention the level format.
  if (text->find(kLevelFormat) == std::string::npos) return false;
  const strict_json::ParsedJson parsed =
      strict_json::parse_json(*text, ScenarioLimits::max_json_depth, /*max_duplicates=*/1);
  return parsed.ok && has_level_format(parsed.document.root);
}

}  // namespace stepslide

namespace stepslide::loader {

namespace {

/// "a.json -> levels/b.json -> levels/a.json"
std::string chain_text(const LoadContext& context, const std::string& again) {
  std::string text;
  for (const std::string& file : context.include_chain) text += input_display_path(file, context.paths) + " -> ";
  return text + input_display_path(again, context.paths);
}

/// The level document: its format, an optional description, and its world,
/// read with the including scenario's budget (names, body and triangle limits).
void read_level(JsonReader& r, const Field& root, std::vector<BodyDef>& world, WorldBudget& budget) {
  if (!r.object(root)) return;
  ObjectReader o(r, root);
  const Field format = o.required("format");
  if (format && !(format.value->is_string() && format.value->get_ref<const std::string&>() == kLevelFormat)) {
    r.error(format.where, "expected " + quote(kLevelFormat) + ", got " + describe(*format.value));
  }
  std::string ignored;
  r.string(o.optional("$schema"), ignored);
  r.string(o.optional("description"), ignored);
  read_world_items(r, o.required("world"), world, budget);
  o.reject_unknown();
}

/// Reads the level at `path` with a reader of its own, so its problems keep
/// their JSON Pointers within the level; they are returned for the includer.
std::vector<JsonIssue> read_level_file(const std::string& path, const std::string& shown,
                                       std::vector<BodyDef>& world, WorldBudget& budget) {
  JsonReader reader(kMaxLevelErrors);
  const Expected<std::string> text = read_file(path, Limits::max_file_bytes);
  if (!text) {
    reader.error(Where{}, text.error());
    return reader.take_sorted_issues();
  }
  LoadContext& context = *budget.context;
  add_input(*context.inputs, InputFile{shown, fnv1a64_of(*text)});
  if (text->find_first_not_of(" \t\r\n") == std::string::npos) {
    reader.error(Where{}, "empty file: expected a JSON object");
    return reader.take_sorted_issues();
  }
  ParsedJson parsed = parse_json(*text, Limits::max_json_depth, kMaxLevelErrors + 1);
  for (JsonIssue& issue : parsed.issues) reader.add(std::move(issue));
  if (parsed.ok) {
    // The level's own directory and name, for the paths and bodies inside it.
    const LoadContext saved = context;
    context.dir = directory_of(path);
    context.pointer_prefix = shown + "#";
    context.include_chain.push_back(path);
    read_level(reader, Field{&parsed.document.root, Where{}}, world, budget);
    context.dir = saved.dir;
    context.pointer_prefix = saved.pointer_prefix;
    context.include_chain.pop_back();
  }
  return reader.take_sorted_issues();
}

}  // namespace

void read_include(JsonReader& r, const Field& f, std::vector<BodyDef>& world, WorldBudget& budget) {
  ObjectReader o(r, f);
  const Field include = o.required("include");
  o.reject_unknown();
  std::string written;
  // An include item holds nothing else; with a stray key, the level is not read.
  if (!r.string(include, written) || f.value->size() != 1) return;
  LoadContext& context = *budget.context;
  const Expected<std::string> path = resolve_input_path(written, context.dir, context.paths);
  if (!path) {
    r.error(include.where, path.error());
    return;
  }
  const std::string shown = input_display_path(*path, context.paths);
  if (std::find(context.include_chain.begin(), context.include_chain.end(), *path) != context.include_chain.end()) {
    r.error(include.where, "include cycle: " + chain_text(context, *path));
    return;
  }
  if (static_cast<int>(context.include_chain.size()) > kMaxIncludeDepth) {
    r.error(include.where, "includes nested deeper than " + std::to_string(kMaxIncludeDepth) + ": " +
                               chain_text(context, *path));
    return;
  }
  for (const JsonIssue& issue : read_level_file(*path, shown, world, budget)) {
    r.error(include.where, shown + ": " + (issue.pointer.empty() ? "" : issue.pointer + ": ") + issue.message);
  }
}

}  // namespace stepslide::loader
