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

Trajectory columns_of(const Trajectory& t, const std::string& prefix) {
  Trajectory out;
  std::vector<std::size_t> picked;
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].compare(0, prefix.size(), prefix) != 0) continue;
    picked.push_back(i);
    out.columns.push_back(t.columns[i].substr(prefix.size()));
  }
  out.rows.reserve(t.rows.size());
  for (const std::vector<double>& row : t.rows) {
    std::vector<double> cells;
    cells.reserve(picked.size());
    for (const std::size_t i : picked) cells.push_back(i < row.size() ? row[i] : std::numeric_limits<double>::quiet_NaN());
    out.rows.push_back(std::move(cells));
  }
  return out;
}

}  // namespace stepslide
