// The trajectory column table. The tolerances are the gate's defaults
// (docs/format.md §2.3 quotes them): positions and their kin to 1e-6,
// velocities to 1e-5, time to 1e-12 s, and counts, flags and indices exactly.
// They exist for goldens written by another compiler or Bullet build; the same
// binary gives byte-identical files.

#include "scenario/columns.h"

#include "base/glob.h"

namespace stepslide {

namespace {

double flag(bool value) { return value ? 1.0 : 0.0; }

std::vector<Column> make_table() {
  // name, unit, description, tolerance, discrete, fixed, read
  return {
      {"tick", "", "tick number; row 0 is the state after reset", 0.0, true, true,
       [](const TickSample& s) { return static_cast<double>(s.tick); }},
      {"time", "s", "tick / tick_rate", 1e-12, false, true,
       [](const TickSample& s) { return static_cast<double>(s.tick) / s.tick_rate; }},
      {"x", "m", "feet position, x", 1e-6, false, true, [](const TickSample& s) { return s.state.position.x(); }},
      {"y", "m", "feet position, y", 1e-6, false, true, [](const TickSample& s) { return s.state.position.y(); }},
      {"z", "m", "feet position, z", 1e-6, false, true, [](const TickSample& s) { return s.state.position.z(); }},
      {"vx", "m/s", "velocity, x", 1e-5, false, true, [](const TickSample& s) { return s.state.velocity.x(); }},
      {"vy", "m/s", "velocity, y", 1e-5, false, true, [](const TickSample& s) { return s.state.velocity.y(); }},
      {"vz", "m/s", "velocity, z", 1e-5, false, true, [](const TickSample& s) { return s.state.velocity.z(); }},
      {"grounded", "", "1 when standing on ground, else 0", 0.0, true, true,
       [](const TickSample& s) { return flag(s.state.grounded); }},
      {"normal_x", "", "ground normal, x; 0 when not grounded", 1e-6, false, true,
       [](const TickSample& s) { return s.state.ground_normal.x(); }},
      {"normal_y", "", "ground normal, y", 1e-6, false, true,
       [](const TickSample& s) { return s.state.ground_normal.y(); }},
      {"normal_z", "", "ground normal, z", 1e-6, false, true,
       [](const TickSample& s) { return s.state.ground_normal.z(); }},
      {"step_dy", "m", "vertical move a step made this tick (what the camera absorbs); 0 in the air", 1e-6, false,
       true, [](const TickSample& s) { return s.report.step_dy; }},
      {"camera_dy", "m", "camera offset: minus each step's height, decaying back to 0", 1e-6, false, true,
       [](const TickSample& s) { return s.state.camera_dy; }},
      {"sweeps", "", "convex sweeps issued this tick", 0.0, true, true,
       [](const TickSample& s) { return static_cast<double>(s.report.sweeps); }},
      {"slide_iters", "", "collide-and-slide iterations this tick", 0.0, true, true,
       [](const TickSample& s) { return static_cast<double>(s.report.slide_iters); }},
      {"depen_iters", "", "depenetration iterations this tick", 0.0, true, true,
       [](const TickSample& s) { return static_cast<double>(s.report.depen_iters); }},
      // Extensions: stepslide's own, after the contract's.
      {"stuck", "", "1 when the character could not be pushed clear of every overlap (crushed, wedged, or pinned inside a moving body that came down on it)", 0.0, true,
       false, [](const TickSample& s) { return flag(!s.report.depenetration_converged); }},
      {"ground_body", "", "index in the scenario's world of the body stood on, -1 when none", 0.0, true, false,
       [](const TickSample& s) { return static_cast<double>(s.ground_body); }},
      {"local_x", "m", "feet in the ground body's frame, x: riding a platform reads as a steady position", 1e-6,
       false, false, [](const TickSample& s) { return s.local_feet.x(); }},
      {"local_y", "m", "feet in the ground body's frame, y", 1e-6, false, false,
       [](const TickSample& s) { return s.local_feet.y(); }},
      {"local_z", "m", "feet in the ground body's frame, z", 1e-6, false, false,
       [](const TickSample& s) { return s.local_feet.z(); }},
  };
}

std::vector<EntityColumn> make_entity_table() {
  // suffix, unit, description, tolerance, read
  return {
      {"x", "m", "position of the body's origin, x", 1e-6, [](const EntitySample& e) { return e.position.x(); }},
      {"y", "m", "position, y", 1e-6, [](const EntitySample& e) { return e.position.y(); }},
      {"z", "m", "position, z", 1e-6, [](const EntitySample& e) { return e.position.z(); }},
      {"qx", "", "rotation quaternion, x", 1e-6, [](const EntitySample& e) { return e.rotation.x(); }},
      {"qy", "", "rotation quaternion, y", 1e-6, [](const EntitySample& e) { return e.rotation.y(); }},
      {"qz", "", "rotation quaternion, z", 1e-6, [](const EntitySample& e) { return e.rotation.z(); }},
      {"qw", "", "rotation quaternion, w", 1e-6, [](const EntitySample& e) { return e.rotation.w(); }},
      {"vx", "m/s", "linear velocity, x", 1e-5, [](const EntitySample& e) { return e.velocity.x(); }},
      {"vy", "m/s", "linear velocity, y", 1e-5, [](const EntitySample& e) { return e.velocity.y(); }},
      {"vz", "m/s", "linear velocity, z", 1e-5, [](const EntitySample& e) { return e.velocity.z(); }},
      {"wx", "rad/s", "angular velocity, x", 1e-5, [](const EntitySample& e) { return e.angular_velocity.x(); }},
      {"wy", "rad/s", "angular velocity, y", 1e-5, [](const EntitySample& e) { return e.angular_velocity.y(); }},
      {"wz", "rad/s", "angular velocity, z", 1e-5, [](const EntitySample& e) { return e.angular_velocity.z(); }},
  };
}

std::vector<std::string> names_of(bool only_fixed) {
  std::vector<std::string> names;
  for (const Column& column : trajectory_columns()) {
    if (!only_fixed || column.fixed) names.push_back(column.name);
  }
  return names;
}

}  // namespace

const std::vector<Column>& trajectory_columns() {
  static const std::vector<Column> table = make_table();
  return table;
}

const std::vector<EntityColumn>& entity_columns() {
  static const std::vector<EntityColumn> table = make_entity_table();
  return table;
}

const EntityColumn* find_entity_column(const std::string& name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return nullptr;
  for (const EntityColumn& column : entity_columns()) {
    if (name.compare(dot + 1, std::string::npos, column.suffix) == 0) return &column;
  }
  return nullptr;
}

const Column* find_character_group_column(const std::string& name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return nullptr;
  return find_column(name.substr(dot + 1));
}

std::optional<double> group_column_tolerance(const std::string& name) {
  if (const EntityColumn* column = find_entity_column(name)) return column->tolerance;
  if (const Column* column = find_character_group_column(name)) return column->discrete ? 0.0 : column->tolerance;
  return std::nullopt;
}

bool entity_pattern(const std::string& pattern) {
  const std::size_t dot = pattern.rfind('.');
  if (dot == std::string::npos || dot == 0) return false;
  const std::string suffix = pattern.substr(dot + 1);
  for (const Column& column : trajectory_columns()) {
    if (glob_match(suffix, column.name)) return true;
  }
  for (const EntityColumn& column : entity_columns()) {
    if (glob_match(suffix, column.suffix)) return true;
  }
  return false;
}

std::vector<std::string> column_names_with(const std::vector<std::string>& entities,
                                           const std::vector<std::string>& characters) {
  std::vector<std::string> names = column_names();
  for (const std::string& character : characters) {
    for (const Column& column : trajectory_columns()) names.push_back(character + "." + column.name);
  }
  for (const std::string& entity : entities) {
    for (const EntityColumn& column : entity_columns()) names.push_back(entity + "." + column.suffix);
  }
  return names;
}

const std::vector<std::string>& column_names() {
  static const std::vector<std::string> names = names_of(false);
  return names;
}

const std::vector<std::string>& fixed_columns() {
  static const std::vector<std::string> names = names_of(true);
  return names;
}

const Column* find_column(const std::string& name) {
  for (const Column& column : trajectory_columns()) {
    if (name == column.name) return &column;
  }
  return nullptr;
}

std::vector<double> read_row(const TickSample& sample, const std::vector<TickSample>& others) {
  std::vector<double> row;
  const std::size_t entities = sample.entities == nullptr ? 0 : sample.entities->size();
  row.reserve(trajectory_columns().size() * (1 + others.size()) + entities * entity_columns().size());
  for (const Column& column : trajectory_columns()) row.push_back(column.read(sample));
  for (const TickSample& other : others) {
    for (const Column& column : trajectory_columns()) row.push_back(column.read(other));
  }
  if (entities == 0) return row;
  for (const EntitySample& entity : *sample.entities) {
    for (const EntityColumn& column : entity_columns()) row.push_back(column.read(entity));
  }
  return row;
}

}  // namespace stepslide
