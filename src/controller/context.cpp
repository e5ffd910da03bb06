// The context the stages share, and the queries they issue through it: each
// one reported to the observer, when there is one.
#include "stepslide/stages.h"

#include <cstring>

#include "base/portable_math.h"
#include "controller/internal.h"

namespace stepslide {

const btMatrix3x3& CharacterContext::basis() const {
  // Bit for bit the quaternion the matrix was made from: btTransform's
  // constructor makes the same matrix from it.
  if (!basis_made_ || std::memcmp(&basis_of_, &orientation, sizeof(btQuaternion)) != 0) {
    basis_.setRotation(orientation);
    basis_of_ = orientation;
    basis_made_ = true;
  }
  return basis_;
}

btTransform CharacterContext::transform_at(const btVector3& feet) const {
  return btTransform(basis(), feet + up * feet_to_center);
}

btTransform CharacterContext::sweep_transform_at(const btVector3& feet) const {
  return btTransform(basis(), feet + up * (feet_to_center + settings->skin_width + detail::kGroundClearance));
}

void CharacterContext::use_settings(const ControllerSettings* s) {
  settings = s;
  cos_max_slope = portable::cos(s->max_slope_deg * kPi / 180.0);
}

bool CharacterContext::is_walkable(const btVector3& normal) const {
  // A hair of tolerance so that a slope of exactly max_slope_deg is walkable.
  return normal.dot(up) >= cos_max_slope - 1e-9;
}

double CharacterContext::ground_tolerance() const { return 2 * settings->skin_width; }

namespace detail {

RayHit observed_ray(const CharacterContext& ctx, RayEvent::Purpose purpose, const btVector3& from,
                    const btVector3& to) {
  const RayHit hit = ctx.queries->ray(from, to);
  if (ctx.observer != nullptr) ctx.observer->on_ray({purpose, from, to, hit});
  return hit;
}

SweepHit observed_sweep(const CharacterContext& ctx, SweepEvent::Purpose purpose, const btVector3& from,
                        const btVector3& to) {
  const bool grown = purpose != SweepEvent::Purpose::GroundProbe;
  const SweepHit hit =
      grown ? ctx.queries->sweep(ctx.sweep_shape, ctx.sweep_transform_at(from), ctx.sweep_transform_at(to).getOrigin())
            : ctx.queries->sweep(ctx.shape, ctx.transform_at(from), ctx.transform_at(to).getOrigin());
  if (ctx.observer != nullptr) {
    SweepEvent e;
    e.purpose = purpose;
    e.from = from;
    e.to = to;
    e.hit = hit;
    ctx.observer->on_sweep(e);
  }
  return hit;
}

}  // namespace detail

}  // namespace stepslide
