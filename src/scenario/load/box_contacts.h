// Box against box in the dynamics world: Bullet's box-box detector, which
// reports contacts only where two boxes touch or overlap, plus contacts
// across a gap of at most kBoxGapTolerance. Boxes a user places exactly on
// one another in decimal metres (a crate at y 0.9 on one at 0.3, each 0.3
// high) are a rounding apart (0.9 - 0.3 is 0.6000000000000001): without the
// gap contact the upper box falls freely for one step before Bullet meets it.
#pragma once

#include <BulletCollision/CollisionDispatch/btBoxBoxCollisionAlgorithm.h>
#include <btBulletCollisionCommon.h>

namespace stepslide {

/// The widest gap (m) between two boxes that still gives a contact (at its
/// true, positive distance, so the solver lets them close it and no more).
constexpr double kBoxGapTolerance = 1e-6;

/// Bullet's box-box algorithm; where it finds no contact, the detector is
/// asked again for the boxes grown by kBoxGapTolerance / 2 each, and the
/// contacts found are given back at the real boxes' distance.
class GapBoxBoxAlgorithm : public btBoxBoxCollisionAlgorithm {
 public:
  using btBoxBoxCollisionAlgorithm::btBoxBoxCollisionAlgorithm;
  void processCollision(const btCollisionObjectWrapper* body0, const btCollisionObjectWrapper* body1,
                        const btDispatcherInfo& info, btManifoldResult* result) override;

  struct CreateFunc : public btCollisionAlgorithmCreateFunc {
    btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci,
                                                   const btCollisionObjectWrapper* body0,
                                                   const btCollisionObjectWrapper* body1) override;
  };
};

}  // namespace stepslide
