#include "gate/commands/point_option.h"

#include <charconv>
#include <cmath>

#include "gate/core/text.h"

namespace stepslide {

Expected<PointOption> parse_point_option(const std::string& text, bool allow_y) {
  using Result = Expected<PointOption>;
  const std::string expected = allow_y ? "X,Z or X,Y,Z" : "X,Z";
  std::vector<double> numbers;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string part = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    double value = 0.0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || !std::isfinite(value)) {
      return Result::failure(error_line("--at: expected " + expected + " (numbers separated by commas), got \"" +
                                        text + "\""));
    }
    numbers.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (numbers.size() != 2 && !(allow_y && numbers.size() == 3)) {
    return Result::failure(error_line("--at: expected " + expected + ", got " + std::to_string(numbers.size()) +
                                      " numbers in \"" + text + "\""));
  }
  PointOption point;
  point.x = numbers[0];
  point.z = numbers.back();
  if (numbers.size() == 3) point.y = numbers[1];
  return point;
}

}  // namespace stepslide
