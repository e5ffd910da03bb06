#include "gate/metadata.h"

#include "gate/fingerprint.h"
#include "gate/text.h"

namespace stepslide {

namespace {

/// Metadata is line-oriented: control characters would break it.
std::string one_line(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) c = ' ';
  }
  return out;
}

}  // namespace

std::vector<std::string> trajectory_metadata(const std::string& scenario_name, const std::string& scenario_bytes,
                                             const std::string& fingerprint) {
  return {
      " stepslide trajectory 1",
      " scenario " + one_line(scenario_name) + " fnv1a64:" + fnv1a64_hex(scenario_bytes),
      " build " + one_line(fingerprint),
  };
}

std::optional<std::string> metadata_value(const Trajectory& t, const std::string& key) {
  for (const std::string& raw : t.metadata) {
    const std::string line = trim(raw);
    if (line == key) return std::string();
    if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 && line[key.size()] == ' ') {
      return trim(line.substr(key.size() + 1));
    }
  }
  return std::nullopt;
}

std::optional<std::string> metadata_scenario_hash(const Trajectory& t) {
  const std::optional<std::string> value = metadata_value(t, "scenario");
  if (!value) return std::nullopt;
  const std::size_t space = value->rfind(' ');
  const std::string last = space == std::string::npos ? *value : value->substr(space + 1);
  if (last.rfind("fnv1a64:", 0) != 0) return std::nullopt;
  return last;
}

std::string build_change_note(const Trajectory& golden, const std::string& fingerprint) {
  const std::optional<std::string> old_build = metadata_value(golden, "build");
  if (!old_build || *old_build == one_line(fingerprint)) return "";
  return "note: golden was written by a different build: " + *old_build + " (now: " + fingerprint + ")\n";
}

std::string scenario_change_note(const Trajectory& golden, const Trajectory& actual) {
  const std::optional<std::string> old_hash = metadata_scenario_hash(golden);
  const std::optional<std::string> new_hash = metadata_scenario_hash(actual);
  if (!old_hash || !new_hash || *old_hash == *new_hash) return "";
  return "note: the scenario file changed since the golden was blessed (" + *old_hash + ", now " + *new_hash + ")\n";
}

}  // namespace stepslide
