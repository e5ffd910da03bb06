#include "gate/core/metadata.h"

#include <cstdlib>
#include <string>

#include "gate/core/fingerprint.h"
#include "gate/core/text.h"

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

std::string escape_path(const std::string& path) {
  std::string out;
  for (char c : one_line(path)) {
    if (c == ' ') {
      out += "%20";
    } else if (c == '%') {
      out += "%25";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescape_path(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 3, "%20") == 0) {
      out += ' ';
      i += 2;
    } else if (text.compare(i, 3, "%25") == 0) {
      out += '%';
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find(' ', start);
    const std::size_t stop = end == std::string::npos ? text.size() : end;
    if (stop > start) words.push_back(text.substr(start, stop - start));
    start = stop + 1;
  }
  return words;
}

constexpr const char* kHashPrefix = "fnv1a64:";

}  // namespace

std::vector<std::string> trajectory_metadata(const std::string& scenario_name, const std::vector<InputFile>& inputs,
                                             const std::string& fingerprint) {
  if (inputs.size() <= 1) {
    const std::string hash = inputs.empty() ? fnv1a64_hex("") : hex64(inputs[0].fnv1a64);
    return {" stepslide trajectory 1", " scenario " + one_line(scenario_name) + " " + kHashPrefix + hash,
            " build " + one_line(fingerprint)};
  }
  std::uint64_t combined = fnv1a64_of("");
  std::string listing = " inputs";
  for (const InputFile& input : inputs) {
    combined = fnv1a64_of(input.path + "\n" + hex64(input.fnv1a64) + "\n", combined);
    listing += " " + escape_path(input.path) + " " + kHashPrefix + hex64(input.fnv1a64);
  }
  return {" stepslide trajectory 1", " scenario " + one_line(scenario_name) + " " + kHashPrefix + hex64(combined),
          listing, " build " + one_line(fingerprint)};
}

std::vector<InputFile> metadata_inputs(const Trajectory& t) {
  std::vector<InputFile> inputs;
  const std::optional<std::string> value = metadata_value(t, "inputs");
  if (!value) return inputs;
  const std::vector<std::string> words = split_words(*value);
  for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
    const std::string& hash = words[i + 1];
    if (hash.rfind(kHashPrefix, 0) != 0) break;
    InputFile file;
    file.path = unescape_path(words[i]);
    file.fnv1a64 = std::strtoull(hash.c_str() + std::char_traits<char>::length(kHashPrefix), nullptr, 16);
    inputs.push_back(file);
  }
  return inputs;
}

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

namespace {

/// One note per input that changed, appeared or went away, in the order the
/// run read them (then the golden's that are gone); "" when the lists match.
std::string input_change_notes(const std::vector<InputFile>& before, const std::vector<InputFile>& now) {
  std::string text;
  auto find = [](const std::vector<InputFile>& list, const std::string& path) -> const InputFile* {
    for (const InputFile& f : list) {
      if (f.path == path) return &f;
    }
    return nullptr;
  };
  for (const InputFile& file : now) {
    const InputFile* old = find(before, file.path);
    if (old == nullptr) {
      text += "note: " + file.path + " is read now but was not when the golden was blessed\n";
    } else if (old->fnv1a64 != file.fnv1a64) {
      text += "note: " + file.path + " changed since the golden was blessed (" + kHashPrefix + hex64(old->fnv1a64) +
              ", now " + kHashPrefix + hex64(file.fnv1a64) + ")\n";
    }
  }
  for (const InputFile& file : before) {
    if (find(now, file.path) == nullptr) text += "note: " + file.path + " was read when the golden was blessed, not now\n";
  }
  return text;
}

}  // namespace

std::string scenario_change_note(const Trajectory& golden, const Trajectory& actual) {
  const std::optional<std::string> old_hash = metadata_scenario_hash(golden);
  const std::optional<std::string> new_hash = metadata_scenario_hash(actual);
  if (!old_hash || !new_hash || *old_hash == *new_hash) return "";
  const std::vector<InputFile> old_inputs = metadata_inputs(golden);
  const std::vector<InputFile> new_inputs = metadata_inputs(actual);
  if (!old_inputs.empty() && !new_inputs.empty()) {
    const std::string notes = input_change_notes(old_inputs, new_inputs);
    if (!notes.empty()) return notes;
  }
  return "note: the scenario file changed since the golden was blessed (" + *old_hash + ", now " + *new_hash + ")\n";
}

}  // namespace stepslide
