// Corners and wedges on meshes come to rest: fresh random corners
// and wedges (angles, triangle densities, orientations, push directions),
// not just the named scenarios. A character pushed into one must stop, and
// stop paying for it: no back-and-forth, a few sweeps a tick.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kTicks = 120;
constexpr int kRestFrom = 90;       // every case has arrived by then (checked: it moves no more)
constexpr double kMaxWander = 1e-4;  // m over ticks [kRestFrom, kTicks]: sub-millimetre
constexpr int kMaxRestingSweeps = 4;

/// A deterministic generator (the cases are the same on every machine).
struct Random {
  std::uint64_t state;
  double uniform(double lo, double hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * double(state >> 11) / double(1ull << 53);
  }
  int pick(int n) { return std::min(n - 1, int(uniform(0, n))); }
};

Vec3 add(Vec3 a, Vec3 b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 scale(Vec3 a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }

/// Adds the quad origin + s u + t v (s, t in [0, 1]) to a mesh in cells of
/// about `cell` metres, two triangles each, diagonals alternating.
void add_grid(ShapeDef& mesh, Vec3 origin, Vec3 u, Vec3 v, double cell) {
  const auto length = [](Vec3 a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); };
  const int nu = std::max(1, int(std::lround(length(u) / cell)));
  const int nv = std::max(1, int(std::lround(length(v) / cell)));
  const auto base = std::int32_t(mesh.vertices.size());
  for (int i = 0; i <= nu; ++i) {
    for (int j = 0; j <= nv; ++j) mesh.vertices.push_back(add(origin, add(scale(u, double(i) / nu), scale(v, double(j) / nv))));
  }
  const auto at = [&](int i, int j) { return base + std::int32_t(i * (nv + 1) + j); };
  for (int i = 0; i < nu; ++i) {
    for (int j = 0; j < nv; ++j) {
      if ((i + j) % 2 == 0) {
        mesh.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
        mesh.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
      } else {
        mesh.triangles.push_back({at(i, j), at(i + 1, j), at(i, j + 1)});
        mesh.triangles.push_back({at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
      }
    }
  }
}

/// A horizontal unit vector at `angle` (radians) from +X toward +Z.
Vec3 heading(double angle) { return {std::cos(angle), 0, std::sin(angle)}; }

struct Case {
  std::string text;     // what to print when it fails
  BodyDef level;        // one mesh: floor and walls
  btVector3 start;      // feet
  double yaw_deg = 0;   // the stick (forward) points into the corner
};

/// Two vertical walls meeting at the origin at `angle` degrees (the room
/// between them), 2.5 m long and 2 m tall, a floor, all in cells of `cell`;
/// the whole turned by `turn` radians. The push is along the room's
/// bisector, off by `offset` (within the range that pushes into both walls
/// at once, so the walls together block it).
Case corner(double angle_deg, double cell, double turn, double offset) {
  Case c;
  c.level.shape.type = ShapeType::Mesh;
  const double a = angle_deg * kPi / 180;
  const Vec3 wall_a = scale(heading(turn), 2.5), wall_b = scale(heading(turn + a), 2.5);
  add_grid(c.level.shape, {0, 0, 0}, wall_a, {0, 2, 0}, cell);
  add_grid(c.level.shape, {0, 0, 0}, wall_b, {0, 2, 0}, cell);
  add_grid(c.level.shape, add(scale(heading(turn + a / 2), -0.5), scale(heading(turn + a / 2 + kPi / 2), -2.5)),
           scale(heading(turn + a / 2), 2.5), scale(heading(turn + a / 2 + kPi / 2), 5), cell);
  const Vec3 into = heading(turn + a / 2 + kPi + offset);  // from the room toward the corner, turned
  const Vec3 from = scale(heading(turn + a / 2), 1.2);
  c.start = btVector3(from[0], 0, from[2]);
  c.yaw_deg = std::atan2(-into[0], -into[2]) * 180 / kPi;
  std::ostringstream text;
  text << "corner of " << angle_deg << " deg, cells " << cell << " m, turned " << turn * 180 / kPi
       << " deg, push " << offset * 180 / kPi << " deg off the bisector";
  c.text = text.str();
  return c;
}

/// A sloping underside (its low edge `height` above the floor along a line
/// through the origin, rising away at `slope` degrees) with a vertical wall
/// across the end of that line: walked into under the low edge, turned
/// toward the wall by `toward_wall` radians. A wedge of three planes: floor,
/// underside, wall.
Case underside_wedge(double slope_deg, double height, double cell, double turn, double toward_wall) {
  Case c;
  c.level.shape.type = ShapeType::Mesh;
  const double s = slope_deg * kPi / 180;
  const Vec3 along = heading(turn), away = heading(turn + kPi / 2);
  // Underside: from the low edge (x in [-2.5, 0] along `along`) up and away.
  add_grid(c.level.shape, {scale(along, -2.5)[0], height, scale(along, -2.5)[2]}, scale(along, 2.5),
           add(scale(away, std::cos(s) * 1.5), {0, std::sin(s) * 1.5, 0}), cell);
  // Wall across the end of the edge line, facing back along it.
  add_grid(c.level.shape, add(scale(away, -1.5), {0, 0, 0}), scale(away, 3.5), {0, 2.2, 0}, cell);
  // Floor.
  add_grid(c.level.shape, add(scale(along, -2.5), scale(away, -2)), scale(along, 2.5), scale(away, 4), cell);
  // The character starts under nothing, on the low side, and walks toward
  // the underside, turned toward the wall.
  const Vec3 from = add(scale(along, -1.2), scale(away, -1.0));
  c.start = btVector3(from[0], 0, from[2]);
  const Vec3 into = heading(turn + kPi / 2 - toward_wall);
  c.yaw_deg = std::atan2(-into[0], -into[2]) * 180 / kPi;
  std::ostringstream text;
  text << "underside wedge: slope " << slope_deg << " deg, low edge " << height << " m, cells " << cell
       << " m, turned " << turn * 180 / kPi << " deg, push " << toward_wall * 180 / kPi << " deg toward the wall";
  c.text = text.str();
  return c;
}

Case random_case(Random& r, int index) {
  const double cells[] = {0.1, 0.2, 0.35, 0.7};
  const double cell = cells[r.pick(4)];
  const double turn = r.uniform(0, 2 * kPi);
  if (index % 4 == 3) {
    const double toward_wall = r.uniform(0.2, 1.2);
    const double height = r.uniform(1.0, 1.6);
    return underside_wedge(r.uniform(15, 60), height, cell, turn, toward_wall);
  }
  const double angle = r.uniform(45, 170);
  // The walls block the push together when it lies within the angle their
  // normals span (180 - angle) of the bisector; a degree of margin.
  const double spread = std::min(angle, 180 - angle) / 2 - 1;
  return corner(angle, cell, turn, r.uniform(-spread, spread) * kPi / 180);
}

struct Outcome {
  double wander = 0;   // over [kRestFrom, kTicks]
  int most_sweeps = 0;  // in one tick of [kRestFrom, kTicks]
  bool grounded = true;
};

Outcome push_into(const Case& c) {
  Rig rig({c.level});
  rig.place(c.start);
  CharacterInput input;
  input.move_forward = 1;
  input.yaw_deg = c.yaw_deg;
  Outcome out;
  std::vector<btVector3> feet;
  for (int tick = 1; tick <= kTicks; ++tick) {
    const TickReport report = rig.controller->update(input, kDt60);
    if (tick < kRestFrom) continue;
    feet.push_back(rig.controller->state().position);
    out.most_sweeps = std::max(out.most_sweeps, report.sweeps);
    out.grounded = out.grounded && rig.controller->state().grounded;
  }
  double path = 0;
  for (std::size_t i = 1; i < feet.size(); ++i) path += (feet[i] - feet[i - 1]).length();
  out.wander = path - (feet.back() - feet.front()).length();
  return out;
}

TEST(CornerRest, TwoHundredRandomCornersAndWedgesOnMeshesComeToRest) {
  Random r{20261123};
  int failures = 0;
  for (int i = 0; i < 200; ++i) {
    const Case c = random_case(r, i);
    const Outcome out = push_into(c);
    const bool ok = out.wander <= kMaxWander && out.most_sweeps <= kMaxRestingSweeps && out.grounded;
    if (!ok && ++failures <= 10) {
      ADD_FAILURE() << "case " << i << ": " << c.text << ": wander " << out.wander * 1000 << " mm over ticks "
                    << kRestFrom << ".." << kTicks << ", up to " << out.most_sweeps << " sweeps a tick"
                    << (out.grounded ? "" : ", left the ground");
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace stepslide::test
