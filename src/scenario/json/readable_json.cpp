#include "scenario/json/readable_json.h"

#include <algorithm>

namespace stepslide {

std::string readable_json(const nlohmann::ordered_json& value, const std::string& indent) {
  const std::string inner = indent + "  ";
  if (value.is_object() && !value.empty()) {
    std::string out = "{\n";
    std::size_t i = 0;
    for (const auto& item : value.items()) {
      out += inner + nlohmann::ordered_json(item.key()).dump() + ": " + readable_json(item.value(), inner);
      out += ++i < value.size() ? ",\n" : "\n";
    }
    return out + indent + "}";
  }
  if (value.is_array() && !value.empty()) {
    const bool flat = std::none_of(value.begin(), value.end(), [](const nlohmann::ordered_json& v) { return v.is_structured(); });
    std::string out = flat ? "[" : "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += flat ? (i > 0 ? ", " : "") + value[i].dump() : inner + readable_json(value[i], inner);
      if (!flat) out += i + 1 < value.size() ? ",\n" : "\n";
    }
    return out + (flat ? "]" : indent + "]");
  }
  return value.dump();
}

}  // namespace stepslide
