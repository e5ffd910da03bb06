#include "scenario/expectations.h"

#include <cmath>
#include <optional>
#include <sstream>

#include "base/format.h"

namespace stepslide {

namespace {

/// Numbers in messages are read by people: six significant digits.
std::string number(double v) { return readable_number(v); }

/// Where the checked columns are, looked up once per trajectory.
struct CheckedColumns {
  explicit CheckedColumns(const Trajectory& t)
      : x(index(t, "x")), y(index(t, "y")), z(index(t, "z")), grounded(index(t, "grounded")), stuck(index(t, "stuck")) {}
  static std::size_t index(const Trajectory& t, const char* name) {
    return static_cast<std::size_t>(t.column_index(name));
  }
  std::size_t x, y, z, grounded, stuck;
};

/// The checked cells of one row.
struct RowView {
  const std::vector<double>& cells;
  const CheckedColumns& at;
  std::size_t row;
  double x() const { return cells[at.x]; }
  double y() const { return cells[at.y]; }
  double z() const { return cells[at.z]; }
  bool grounded() const { return cells[at.grounded] != 0.0; }
  bool stuck() const { return cells[at.stuck] != 0.0; }
};

std::optional<std::string> position_problem(const ExpectCheck& check, const RowView& row) {
  const double actual[3] = {row.x(), row.y(), row.z()};
  double squared = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!check.position[i]) continue;
    const double d = actual[i] - *check.position[i];
    squared += d * d;
  }
  const double distance = std::sqrt(squared);
  if (distance <= check.tolerance) return std::nullopt;
  std::ostringstream m;
  m << "feet at (" << number(actual[0]) << ", " << number(actual[1]) << ", " << number(actual[2]) << ") are "
    << readable_beside(distance, check.tolerance) << " m from the expected position, more than the tolerance "
    << number(check.tolerance);
  return m.str();
}

std::optional<std::string> flag_problem(const char* flag, bool want, bool is) {
  if (is == want) return std::nullopt;
  return std::string("expected ") + flag + " " + (want ? "true" : "false") + ", got " + (is ? "true" : "false");
}

std::optional<std::string> height_problem(const ExpectCheck& check, double feet) {
  if (feet >= check.y_lo && feet <= check.y_hi) return std::nullopt;
  return "feet height " + readable_beside(feet, feet < check.y_lo ? check.y_lo : check.y_hi) + " outside [" +
         number(check.y_lo) + ", " + number(check.y_hi) + "]";
}

std::optional<std::string> penetration_problem(const ExpectCheck& check, double depth) {
  if (depth <= check.max_penetration) return std::nullopt;
  return "shape overlaps the world by " + readable_beside(depth, check.max_penetration) + " m, more than " +
         number(check.max_penetration);
}

/// What is wrong at one tick of a range check, or nothing.
std::optional<std::string> range_problem(const ExpectCheck& check, const RowView& row,
                                         const std::vector<double>& penetration) {
  switch (check.kind) {
    case ExpectCheck::Kind::Grounded: return flag_problem("grounded", check.grounded, row.grounded());
    case ExpectCheck::Kind::Stuck: return flag_problem("stuck", check.stuck, row.stuck());
    case ExpectCheck::Kind::YBetween: return height_problem(check, row.y());
    default: return penetration_problem(check, penetration[row.row]);
  }
}

void check_one(const ExpectCheck& check, const Scenario& scenario, const Trajectory& t,
               const std::vector<double>& penetration, std::vector<ExpectationFailure>& failures) {
  const CheckedColumns columns(t);
  auto row = [&](std::int64_t tick) {
    const std::size_t index = static_cast<std::size_t>(tick);
    return RowView{t.rows[index], columns, index};
  };
  if (check.kind == ExpectCheck::Kind::Position) {
    const std::int64_t tick = check.tick_is_end ? scenario.ticks : check.tick;
    if (auto problem = position_problem(check, row(tick))) {
      failures.push_back({check.json_path, tick, *problem});
    }
    return;
  }
  const std::int64_t last = check.last_is_end ? scenario.ticks : check.last;
  for (std::int64_t tick = check.first; tick <= last; ++tick) {
    if (auto problem = range_problem(check, row(tick), penetration)) {
      failures.push_back({check.json_path, tick, *problem});
      return;  // the first failing tick of a range says enough
    }
  }
}

}  // namespace

bool needs_penetration(const Scenario& scenario) {
  for (const ExpectCheck& check : scenario.expect) {
    if (check.kind == ExpectCheck::Kind::MaxPenetration) return true;
  }
  return false;
}

std::vector<ExpectationFailure> check_expectations(const Scenario& scenario, const Trajectory& t,
                                                   const std::vector<double>& penetration) {
  std::vector<ExpectationFailure> failures;
  for (const ExpectCheck& check : scenario.expect) check_one(check, scenario, t, penetration, failures);
  return failures;
}

}  // namespace stepslide
