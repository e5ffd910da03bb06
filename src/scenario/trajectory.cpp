#include "scenario/trajectory.h"

#include <limits>

namespace stepslide {

int Trajectory::column_index(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  return -1;
}

double Trajectory::cell(std::size_t row, int column) const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (column < 0 || row >= rows.size()) return kNaN;
  const std::vector<double>& cells = rows[row];
  return static_cast<std::size_t>(column) < cells.size() ? cells[static_cast<std::size_t>(column)] : kNaN;
}

}  // namespace stepslide
