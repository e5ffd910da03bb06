#include "scenario/run/finite.h"

#include <cmath>

namespace stepslide {

std::optional<NonFiniteCell> first_non_finite(const std::vector<double>& row, const std::vector<std::string>& columns,
                                              std::size_t row_index) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (std::isfinite(row[i])) continue;
    const std::string name = i < columns.size() ? columns[i] : "#" + std::to_string(i + 1);
    return NonFiniteCell{row_index, name, row[i]};
  }
  return std::nullopt;
}

std::optional<NonFiniteCell> first_non_finite(const Trajectory& t) {
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (std::optional<NonFiniteCell> cell = first_non_finite(t.rows[r], t.columns, r)) return cell;
  }
  return std::nullopt;
}

std::string non_finite_text(double value) {
  if (std::isnan(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

}  // namespace stepslide
