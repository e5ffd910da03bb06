#include "capture/exact_fit.h"

#include <cmath>
#include <vector>

#include "base/portable_math.h"
#include "stepslide/math.h"

namespace stepslide::capture {

namespace {

/// Neighbours tried on each side of a candidate, in ulps.
constexpr int kUlpSteps = 4;

/// `value` moved by `steps` ulps (negative: down).
double ulps_away(double value, int steps) {
  const double toward = steps > 0 ? INFINITY : -INFINITY;
  for (int i = 0; i < std::abs(steps); ++i) value = std::nextafter(value, toward);
  return value;
}

/// 0, +1, -1, +2, -2, ... kUlpSteps: the nearest candidates first.
std::vector<int> step_order() {
  std::vector<int> steps{0};
  for (int i = 1; i <= kUlpSteps; ++i) {
    steps.push_back(i);
    steps.push_back(-i);
  }
  return steps;
}

Vec3 to_vec(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

/// Neighbours tried on each side when only one angle is searched.
constexpr int kSingleAxisUlpSteps = 64;
/// Whole turns added to (and taken from) a single-axis angle when looking
/// for the one the game made.
constexpr int kMaxTurns = 8;

/// The axis (0 X, 1 Y, 2 Z) `basis` turns about alone, with its angle in
/// degrees, or -1 when it turns about more than one.
int single_axis(const btMatrix3x3& b, double& deg) {
  const bool about_x = b[0][0] == 1 && b[0][1] == 0 && b[0][2] == 0 && b[1][0] == 0 && b[2][0] == 0;
  const bool about_y = b[1][1] == 1 && b[0][1] == 0 && b[1][0] == 0 && b[1][2] == 0 && b[2][1] == 0;
  const bool about_z = b[2][2] == 1 && b[0][2] == 0 && b[1][2] == 0 && b[2][0] == 0 && b[2][1] == 0;
  if (about_x) deg = portable::atan2(b[2][1], b[1][1]) / kDegToRad;
  if (about_y) deg = portable::atan2(b[0][2], b[0][0]) / kDegToRad;
  if (about_z) deg = portable::atan2(b[1][0], b[0][0]) / kDegToRad;
  return about_x ? 0 : about_y ? 1 : about_z ? 2 : -1;
}

/// The whole turns that bring `deg` nearest `near`: a spinning body's angle
/// keeps growing past 180, and the loader's quaternion is exact only for the
/// angle the game turned it by, not the same angle less a turn.
double unwrap(double deg, double near) { return deg + 360.0 * std::round((near - deg) / 360.0); }

/// The Euler angles (degrees, the loader's order) nearest to `basis`; a turn
/// about one axis alone as that one angle, unwrapped toward `near`.
Vec3 degrees_of(const btMatrix3x3& basis, const Vec3& near = {0, 0, 0}) {
  double angle = 0;
  const int axis = single_axis(basis, angle);
  if (axis >= 0) {
    Vec3 deg{0, 0, 0};
    const auto a = static_cast<std::size_t>(axis);
    deg[a] = angle == 0 ? 0.0 : unwrap(angle, near[a]);
    return deg;
  }
  btScalar yaw_z = 0, pitch_y = 0, roll_x = 0;
  basis.getEulerZYX(yaw_z, pitch_y, roll_x);
  return {roll_x / kDegToRad, pitch_y / kDegToRad, yaw_z / kDegToRad};
}

/// Searches rotation_deg around `start` for one that `exact` accepts. A zero
/// angle stays zero (its neighbours are denormals no game means).
template <class Exact>
bool search_degrees(Vec3& deg, Exact exact) {
  if (exact(deg)) return true;
  int axis = -1;
  for (int i = 0; i < 3; ++i) {
    if (deg[static_cast<std::size_t>(i)] != 0.0) axis = axis == -1 ? i : 3;
  }
  if (axis >= 0 && axis < 3) {  // one angle: a wider search along it alone
    const Vec3 start = deg;
    for (int i = 1; i <= kSingleAxisUlpSteps; ++i) {
      for (const int s : {i, -i}) {
        Vec3 candidate = start;
        candidate[static_cast<std::size_t>(axis)] = ulps_away(start[static_cast<std::size_t>(axis)], s);
        if (exact(candidate)) {
          deg = candidate;
          return true;
        }
      }
    }
    return false;
  }
  const Vec3 start = deg;
  const std::vector<int> steps = step_order();
  for (const int sx : steps) {
    if (start[0] == 0.0 && sx != 0) continue;
    for (const int sy : steps) {
      if (start[1] == 0.0 && sy != 0) continue;
      for (const int sz : steps) {
        if (start[2] == 0.0 && sz != 0) continue;
        const Vec3 candidate{ulps_away(start[0], sx), ulps_away(start[1], sy), ulps_away(start[2], sz)};
        if (exact(candidate)) {
          deg = candidate;
          return true;
        }
      }
    }
  }
  deg = start;
  return false;
}

bool same_basis(const btMatrix3x3& a, const btMatrix3x3& b) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      if (!(a[r][c] == b[r][c])) return false;
    }
  }
  return true;
}

}  // namespace

btQuaternion loader_rotation(const Vec3& rotation_deg) {
  const portable::Quat q = portable::quaternion_from_degrees(rotation_deg[0], rotation_deg[1], rotation_deg[2]);
  return btQuaternion(q.x, q.y, q.z, q.w);
}

btTransform loader_pose(const Vec3& position, const Vec3& rotation_deg) {
  const btTransform pose(loader_rotation(rotation_deg), btVector3(position[0], position[1], position[2]));
  return pose * btTransform::getIdentity();
}

btTransform loader_key_pose(const PoseText& previous, const Vec3& position, const Vec3& rotation_deg) {
  const double u = 1.0;
  const btVector3 from(previous.position[0], previous.position[1], previous.position[2]);
  const btVector3 p = lerp(from, btVector3(position[0], position[1], position[2]), u);
  const btQuaternion a = loader_rotation(previous.rotation_deg), b = loader_rotation(rotation_deg);
  const portable::Quat s = portable::slerp({a.x(), a.y(), a.z(), a.w()}, {b.x(), b.y(), b.z(), b.w()}, u);
  const btQuaternion q(s.x, s.y, s.z, s.w);
  return btTransform(q, p) * btTransform::getIdentity();
}

namespace {

/// Searches rotation_deg for `basis` starting from `start`; a turn about
/// one axis may have been made as that angle plus whole turns (a turntable
/// some seconds in), so those are tried too, the nearest first.
template <class Exact>
bool search_turns(const btMatrix3x3& basis, Vec3& deg, Exact exact) {
  const Vec3 start = deg;
  if (search_degrees(deg, exact)) return true;
  double angle = 0;
  if (single_axis(basis, angle) < 0 || angle == 0) return false;
  for (int turns = 1; turns <= kMaxTurns; ++turns) {
    for (const int sign : {1, -1}) {
      Vec3 candidate = start;
      for (double& d : candidate) d += d != 0 ? sign * 360.0 * turns : 0.0;
      if (search_degrees(candidate, exact)) {
        deg = candidate;
        return true;
      }
    }
  }
  deg = start;
  return false;
}

}  // namespace

PoseText fit_pose(const btTransform& target) {
  PoseText fit;
  fit.position = to_vec(target.getOrigin());
  fit.rotation_deg = degrees_of(target.getBasis());
  const bool rotation = search_turns(target.getBasis(), fit.rotation_deg, [&](const Vec3& deg) {
    return same_basis(loader_pose(fit.position, deg).getBasis(), target.getBasis());
  });
  fit.exact = rotation && same_transform(loader_pose(fit.position, fit.rotation_deg), target);
  return fit;
}

PoseText fit_key(const PoseText& previous, const btTransform& target) {
  PoseText fit;
  fit.position = to_vec(target.getOrigin());
  fit.rotation_deg = degrees_of(target.getBasis(), previous.rotation_deg);
  // lerp works per coordinate: previous + (key - previous) * 1.
  bool position = true;
  const std::vector<int> steps = step_order();
  for (int i = 0; i < 3; ++i) {
    const double want = fit.position[static_cast<std::size_t>(i)];
    const double from = previous.position[static_cast<std::size_t>(i)];
    bool found = false;
    for (const int s : steps) {
      const double candidate = ulps_away(want, s);
      if (from + (candidate - from) * 1.0 == want) {
        fit.position[static_cast<std::size_t>(i)] = candidate;
        found = true;
        break;
      }
    }
    position = position && found;
  }
  const bool rotation = search_turns(target.getBasis(), fit.rotation_deg, [&](const Vec3& deg) {
    return same_basis(loader_key_pose(previous, fit.position, deg).getBasis(), target.getBasis());
  });
  fit.exact = position && rotation && same_transform(loader_key_pose(previous, fit.position, fit.rotation_deg), target);
  return fit;
}

}  // namespace stepslide::capture
