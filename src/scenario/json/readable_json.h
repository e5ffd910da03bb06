// JSON as people write scenario files: for files stepslide writes (fuzz
// findings, imported scenarios).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace stepslide {

/// Objects one key per line, arrays of plain values on one line (a vertex, a
/// key's position), other arrays one element per line; `indent` is the
/// indentation of the line the value starts on.
std::string readable_json(const nlohmann::ordered_json& value, const std::string& indent = "");

}  // namespace stepslide
