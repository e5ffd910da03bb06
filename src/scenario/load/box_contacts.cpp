#include "scenario/load/box_contacts.h"

#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>

#include <new>

namespace stepslide {

namespace {

/// Passes the grown boxes' contacts on at the real boxes' distance and
/// points: the point on B moves back onto B's real surface (the normal
/// points from B towards A), the distance grows by both growths.
struct GapResult : public btDiscreteCollisionDetectorInterface::Result {
  btManifoldResult& out;
  double grown = 0.0;  ///< how much each box was grown by
  GapResult(btManifoldResult& out_, double grown_) : out(out_), grown(grown_) {}
  void setShapeIdentifiersA(int part, int index) override { out.setShapeIdentifiersA(part, index); }
  void setShapeIdentifiersB(int part, int index) override { out.setShapeIdentifiersB(part, index); }
  void addContactPoint(const btVector3& normal_on_b, const btVector3& point, btScalar depth) override {
    const double distance = depth + 2 * grown;
    if (!(distance > 0)) return;  // the real boxes touch there: Bullet's own pass had it
    out.addContactPoint(normal_on_b, point - normal_on_b * grown, distance);
  }
};

}  // namespace

void GapBoxBoxAlgorithm::processCollision(const btCollisionObjectWrapper* body0, const btCollisionObjectWrapper* body1,
                                          const btDispatcherInfo& info, btManifoldResult* result) {
  btBoxBoxCollisionAlgorithm::processCollision(body0, body1, info, result);
  btManifoldArray manifolds;
  getAllContactManifolds(manifolds);
  if (manifolds.size() != 1 || manifolds[0]->getNumContacts() > 0) return;
  const auto* a = static_cast<const btBoxShape*>(body0->getCollisionShape());
  const auto* b = static_cast<const btBoxShape*>(body1->getCollisionShape());
  const double grow = kBoxGapTolerance / 2;
  const btVector3 more(grow, grow, grow);
  btBoxShape grown_a(a->getHalfExtentsWithMargin() + more), grown_b(b->getHalfExtentsWithMargin() + more);
  btDiscreteCollisionDetectorInterface::ClosestPointInput input;
  input.m_transformA = body0->getWorldTransform();
  input.m_transformB = body1->getWorldTransform();
  btBoxBoxDetector detector(&grown_a, &grown_b);
  GapResult gap(*result, grow);
  detector.getClosestPoints(input, gap, info.m_debugDraw);
  result->refreshContactPoints();
}

btCollisionAlgorithm* GapBoxBoxAlgorithm::CreateFunc::CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci,
                                                                               const btCollisionObjectWrapper* body0,
                                                                               const btCollisionObjectWrapper* body1) {
  void* memory = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(GapBoxBoxAlgorithm));
  return new (memory) GapBoxBoxAlgorithm(nullptr, ci, body0, body1);
}

}  // namespace stepslide
