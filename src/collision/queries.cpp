// The collision adapter's state. Its queries live one per file: sweeps.cpp,
// contacts.cpp, rays.cpp.
#include "stepslide/collision.h"

#include "collision/queries_impl.h"

namespace stepslide {

CollisionQueries::CollisionQueries(btCollisionWorld* world, const btCollisionObject* self)
    : world_(world), self_(self), impl_(std::make_unique<Impl>()) {}

CollisionQueries::~CollisionQueries() = default;

void CollisionQueries::certify_clear(const btCollisionObject* object, const btTransform& pose,
                                     double static_clearance) {
  if (filter_ != nullptr) return;
  impl_->certificate.certify(world_, object, pose, static_clearance, &impl_->region);
}

void CollisionQueries::set_filter(const ContactFilter* filter) {
  filter_ = filter;
  forget_clearance();
}

void CollisionQueries::forget_clearance() {
  impl_->certificate.forget();
  impl_->region.forget();
  impl_->memo.forget();
  impl_->last_ray.valid = false;
}

ClearanceRecord CollisionQueries::clearance(const btCollisionObject* object) const {
  return impl_->certificate.save(object);
}

void CollisionQueries::restore_clearance(const ClearanceRecord& record, const btCollisionObject* object) {
  if (filter_ != nullptr) return;  // no proof is kept while a filter decides
  impl_->certificate.restore(record, object);
}

void CollisionQueries::begin_tick() {
  reset_counts();
  impl_->memo.open(self_);
  impl_->last_ray.valid = false;
  impl_->region.triangles().child_poses().begin_tick();
}

void CollisionQueries::remember_next_query(const btCollisionObject* object) {
  // Carried too when asked where the last one was (the pose it has now).
  impl_->memo.remember_next(object, true, &impl_->ahead_rest, object->getWorldTransform().getOrigin());
}

void CollisionQueries::carry_next_query(const btCollisionObject* object, const btVector3& point) {
  if (!impl_->memo.is_open() || !impl_->ground_rest.at(point)) return;
  impl_->memo.remember_next(object, false, &impl_->ground_rest, point);
}

void CollisionQueries::end_tick() {
  impl_->memo.close();
  impl_->region.triangles().child_poses().end_tick();
  impl_->last_ray.valid = false;
}

}  // namespace stepslide
