#include "capture/exact_fit.h"

#include <cmath>
#include <vector>

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

/// The Euler angles (degrees, the loader's order) nearest to `basis`.
Vec3 degrees_of(const btMatrix3x3& basis) {
  btScalar yaw_z = 0, pitch_y = 0, roll_x = 0;
  basis.getEulerZYX(yaw_z, pitch_y, roll_x);
  return {roll_x / kDegToRad, pitch_y / kDegToRad, yaw_z / kDegToRad};
}

/// Searches rotation_deg around `start` for one that `exact` accepts. A zero
/// angle stays zero (its neighbours are denormals no game means).
template <class Exact>
bool search_degrees(Vec3& deg, Exact exact) {
  if (exact(deg)) return true;
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
  btQuaternion q;
  q.setEulerZYX(rotation_deg[2] * kDegToRad, rotation_deg[1] * kDegToRad, rotation_deg[0] * kDegToRad);
  return q;
}

btTransform loader_pose(const Vec3& position, const Vec3& rotation_deg) {
  const btTransform pose(loader_rotation(rotation_deg), btVector3(position[0], position[1], position[2]));
  return pose * btTransform::getIdentity();
}

btTransform loader_key_pose(const PoseText& previous, const Vec3& position, const Vec3& rotation_deg) {
  const double u = 1.0;
  const btVector3 from(previous.position[0], previous.position[1], previous.position[2]);
  const btVector3 p = lerp(from, btVector3(position[0], position[1], position[2]), u);
  const btQuaternion q = slerp(loader_rotation(previous.rotation_deg), loader_rotation(rotation_deg), u);
  return btTransform(q, p) * btTransform::getIdentity();
}

bool same_transform(const btTransform& a, const btTransform& b) {
  if (!same_basis(a.getBasis(), b.getBasis())) return false;
  for (int i = 0; i < 3; ++i) {
    if (!(a.getOrigin()[i] == b.getOrigin()[i])) return false;
  }
  return true;
}

PoseText fit_pose(const btTransform& target) {
  PoseText fit;
  fit.position = to_vec(target.getOrigin());
  fit.rotation_deg = degrees_of(target.getBasis());
  const bool rotation = search_degrees(fit.rotation_deg, [&](const Vec3& deg) {
    return same_basis(loader_pose(fit.position, deg).getBasis(), target.getBasis());
  });
  fit.exact = rotation && same_transform(loader_pose(fit.position, fit.rotation_deg), target);
  return fit;
}

PoseText fit_key(const PoseText& previous, const btTransform& target) {
  PoseText fit;
  fit.position = to_vec(target.getOrigin());
  fit.rotation_deg = degrees_of(target.getBasis());
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
  const bool rotation = search_degrees(fit.rotation_deg, [&](const Vec3& deg) {
    return same_basis(loader_key_pose(previous, fit.position, deg).getBasis(), target.getBasis());
  });
  fit.exact = position && rotation && same_transform(loader_key_pose(previous, fit.position, fit.rotation_deg), target);
  return fit;
}

}  // namespace stepslide::capture
