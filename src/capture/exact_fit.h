// Finding the numbers to write so that the scenario world rebuilds the
// game's bodies bit for bit. The loader turns `rotation_deg` into a
// quaternion through degrees (src/scenario/world.cpp), and a keyframe's pose
// through lerp and slerp from the key before it: writing the game's values
// as they are may come back a few ulps off. Each fit replays the loader's
// arithmetic (the same Bullet inline code, the same flags) on candidates
// around the obvious value and keeps the first that comes back exact.
#pragma once

#include <btBulletCollisionCommon.h>

#include <array>

namespace stepslide::capture {

using Vec3 = std::array<double, 3>;

/// A pose as a scenario writes it.
struct PoseText {
  Vec3 position{};
  Vec3 rotation_deg{};
  bool exact = false;  ///< the loader rebuilds the target transform bit for bit
};

/// The loader's rotation for `rotation_deg` (world.cpp rotation_from_degrees).
btQuaternion loader_rotation(const Vec3& rotation_deg);
/// The loader's transform for a body placed at `position`, `rotation_deg`,
/// as its collision object carries it (times the identity offset).
btTransform loader_pose(const Vec3& position, const Vec3& rotation_deg);
/// The pose of a keyframed body at a key one tick after `previous` (the
/// loader interpolates with u = 1: lerp and slerp from the key before).
btTransform loader_key_pose(const PoseText& previous, const Vec3& position, const Vec3& rotation_deg);

/// `position` and `rotation_deg` for a body placed at `target`.
PoseText fit_pose(const btTransform& target);
/// The key one tick after `previous` that puts the body at `target`.
PoseText fit_key(const PoseText& previous, const btTransform& target);

}  // namespace stepslide::capture
