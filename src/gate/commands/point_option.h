// `--at X,Z` (or X,Y,Z) as `import` and `probe` take it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stepslide/expected.h"

namespace stepslide {

struct PointOption {
  double x = 0.0, z = 0.0;
  std::optional<double> y;  ///< only when three numbers were given
};

/// "3,-2" or "3,1.5,-2": finite numbers separated by commas (spaces allowed);
/// `allow_y`: whether three are accepted. Refused with "error: --at: ..." text.
Expected<PointOption> parse_point_option(const std::string& text, bool allow_y);

}  // namespace stepslide
