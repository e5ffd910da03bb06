// The collision-world adapter: the only place the controller talks to Bullet.
// Every query is counted, so the trajectory can report what a tick cost.
#pragma once

#include <LinearMath/btTransform.h>

#include <memory>
#include <utility>
#include <vector>

class btCollisionObject;
class btCollisionWorld;
class btConvexShape;

namespace stepslide {

class ContactFilter;

struct SweepHit {
  bool hit = false;
  double fraction = 1.0;         ///< of the requested motion, in [0, 1]
  btVector3 normal{0, 0, 0};     ///< on the world surface, pointing at the character
  btVector3 point{0, 0, 0};      ///< world contact point
  const btCollisionObject* object = nullptr;
};

struct RayHit {
  bool hit = false;
  double fraction = 1.0;
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};
  const btCollisionObject* object = nullptr;
};

/// One point where the character's shape overlaps or nearly touches the world.
struct Contact {
  btVector3 normal{0, 0, 0};  ///< unit, from the world surface toward the character
  double distance = 0.0;      ///< signed: negative is penetration depth
  btVector3 point{0, 0, 0};   ///< on the world surface
  const btCollisionObject* object = nullptr;
  /// The normal of the face the contact lies on, read from the shape (a
  /// box's axis, a cylinder's cap, a mesh or heightfield triangle's normal), facing the
  /// character; zero where the contact is not on one face of a box or
  /// triangle (an edge, a corner, a rounded shape).
  btVector3 face_normal{0, 0, 0};
};

/// The edge of a box a contact lies on (CollisionQueries::box_edge): the
/// outward normals of the two faces that meet there and the edge's rounding
/// (the box's margin: its solid is its core grown by that much).
struct BoxEdge {
  btVector3 faces[2] = {btVector3(0, 0, 0), btVector3(0, 0, 0)};
  double rounding = 0.0;
};

/// The clearance proof CollisionQueries holds (certify_clear), as a value:
/// part of a ControllerSnapshot. Whether a proof is held decides whether an
/// overlap query reports merely touching contacts, and so, at times, how
/// many casts a later tick makes: a rollback must put it back.
struct ClearanceRecord {
  bool held = false;  ///< false: no proof (the rest is unused)
  btTransform pose = btTransform::getIdentity();  ///< of the character's object when certified
  double static_clearance = 0.0;
  int object_count = 0;  ///< objects in the world then
  /// The moving bodies near it then, with their poses, in the order found.
  std::vector<std::pair<const btCollisionObject*, btTransform>> moving;
};

/// Query counts since the last reset.
struct QueryCounts {
  int sweeps = 0;  ///< convex casts (the trajectory's `sweeps` column)
  /// Overlap queries answered by a clearance certificate instead of Bullet.
  int reused_contacts = 0;
  /// Overlap queries the tick had already asked (the same object, shape,
  /// pose and threshold), answered from the contact memo.
  int repeated_contacts = 0;
  /// Overlap queries the tick before had asked (the same object, shape,
  /// pose and threshold), meeting only static bodies, still where they
  /// were: answered from its contact memo.
  int carried_contacts = 0;
  /// Rays the tick had just cast (the same ends as the ray before), answered
  /// from it: the ground check reads the face beside one contact several
  /// times a tick.
  int repeated_rays = 0;
};

class CollisionQueries {
 public:
  /// `self` (may be null) is ignored by every query, so the character's own
  /// object can live in the same world. Queries use Bullet's default filter
  /// (group DefaultFilter, mask AllFilter): they see every object whose own
  /// mask accepts DefaultFilter, as the scenario world's static and kinematic
  /// bodies do (they only refuse each other's groups, scenario/world.cpp).
  CollisionQueries(btCollisionWorld* world, const btCollisionObject* self);
  ~CollisionQueries();
  CollisionQueries(const CollisionQueries&) = delete;
  CollisionQueries& operator=(const CollisionQueries&) = delete;

  /// Closest hit of `shape` moving from `from` to `to` (rotation taken from
  /// `from`). Hits whose normal does not oppose the motion are ignored:
  /// sliding along a surface already touched is not a hit.
  SweepHit sweep(const btConvexShape* shape, const btTransform& from, const btVector3& to_origin);
  /// As sweep(), ignoring `ignored` too (the body the character rides: it
  /// moves with the character).
  SweepHit sweep(const btConvexShape* shape, const btTransform& from, const btVector3& to_origin,
                 const btCollisionObject* ignored);

  /// False when a sweep from `from_origin` to `to_origin` of a shape whose
  /// bounds about its origin (at the sweep's rotation) are `shape_low` ..
  /// `shape_high` certainly hits nothing but the character and `ignored`:
  /// the broadphase holds no other candidate in the swept bounds (the
  /// shape's bounds around both ends, grown as the sweep's walk grows them).
  /// No sweep is counted: the count is of convex casts made.
  bool may_hit(const btVector3& shape_low, const btVector3& shape_high, const btVector3& from_origin,
               const btVector3& to_origin, const btCollisionObject* ignored);

  /// Every contact of `object` (its shape at its transform) with the world
  /// closer than `max_distance` (0: overlaps and touches only), in a
  /// deterministic order (deepest first).
  void contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out);

  /// Whether `contact` (one contacts() reported, the world unchanged since)
  /// lies on one edge of a box: of a box body or a box child of a
  /// compound, the point of its core under the contact (the contact's point
  /// less the rounding along the normal) on that edge, between its ends,
  /// and the normal leaning out of both faces there (box_edge_faces). Sets
  /// `edge` then. Asks nothing of Bullet.
  bool box_edge(const Contact& contact, BoxEdge* edge);

  /// Deepest overlap of `object` (its shape at its transform) with the world,
  /// 0 when clear. Always asks Bullet (never a certificate): it is the
  /// measurement the fuzzer's invariants check the controller against.
  double penetration_depth(btCollisionObject* object);

  /// Closest ray hit from `from` to `to`. Boxes hit from outside are answered
  /// exactly (ray_box, geometry/ray_box.h); every other pair by Bullet. Within a
  /// tick, the same ray cast twice in a row is answered from the first.
  RayHit ray(const btVector3& from, const btVector3& to);

  /// Records that `object` at `pose` overlaps nothing (the caller proved it
  /// with a query it made, e.g. the ground probe's contacts) and is at least
  /// `static_clearance` from every static object. A later contacts(object,
  /// max_distance <= 0) then answers "no contacts" without asking Bullet
  /// while the proof holds (ClearanceCertificate::holds: the object stayed
  /// within its static clearance of that pose, and every moving body near it
  /// carried it rigidly): the end of one tick's ground check stands in for
  /// the next tick's overlap check. Touching contacts (|distance| below
  /// kClearanceTolerance) are not reported then. Static bodies are assumed
  /// not to move; a game that moves one calls forget_clearance().
  void certify_clear(const btCollisionObject* object, const btTransform& pose, double static_clearance);
  ///
  /// The queries also share one broadphase region (QueryRegion): the tree's
  /// leaves around the character, gathered once and reused while Bullet's
  /// broadphase tree is unchanged. It needs no such promise (any update of
  /// the tree drops it), but forget_clearance() drops it too, with the
  /// meshes' triangles and static compounds' child poses kept around the
  /// character (a game that edits a mesh or moves a compound's child in
  /// place calls it), and the contact queries carried from tick to tick
  /// (carry_next_query).
  void forget_clearance();
  /// The proof held now, about `object` (the character's); and putting one
  /// back, as about `object` (forget_clearance first drops everything else
  /// the queries remember).
  ClearanceRecord clearance(const btCollisionObject* object) const;
  void restore_clearance(const ClearanceRecord& record, const btCollisionObject* object);
  /// How deep an overlap a certificate may overlook: half the controller's
  /// penetration tolerance (overlaps shallower than that are contact).
  static constexpr double kClearanceTolerance = 0.5e-6;

  /// Every later query asks `filter` (may be null: none, the default)
  /// which bodies the character touches and which contacts and hits block
  /// it (stepslide/contact_filter.h). While a filter is set no clearance is
  /// certified (its answers may change between ticks, the proof would not)
  /// and the one held is dropped.
  void set_filter(const ContactFilter* filter);
  const ContactFilter* filter() const { return filter_; }

  btCollisionWorld* world() const { return world_; }
  const QueryCounts& counts() const { return counts_; }
  void reset_counts() { counts_ = QueryCounts{}; }
  /// The controller's update: while the world stands still, a repeated
  /// overlap query of `self` (the character's object) is answered from the
  /// first (ContactMemo). Outside a tick every query asks again.
  void begin_tick();
  void end_tick();
  /// Within a tick, remembers the next overlap query of `object` too (as
  /// the memo remembers every query of `self`), so the same query asked
  /// again later in the tick is answered from it: the end-of-move check asks
  /// the ground probe's first query ahead of the ground check.
  void remember_next_query(const btCollisionObject* object);
  /// Within a tick, lets the next overlap query of `object` be carried to
  /// later ticks (answered from an earlier tick's, the same query meeting the
  /// same static bodies) when `point` is where the last call put it, to
  /// within a micrometre (the character at rest); it is not remembered for
  /// the rest of the tick otherwise. The ground check's first query:
  /// standing still, each tick asks it again. (The query remember_next_query
  /// names is carried the same way, by the object's pose then.)
  void carry_next_query(const btCollisionObject* object, const btVector3& point);

 private:
  void query_contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out);
  /// contacts() for the query asked ahead: answered from an earlier tick's
  /// when the memo carries it and it still holds, else asked and carried.
  void carried_contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out);

  btCollisionWorld* world_;
  const btCollisionObject* self_;
  const ContactFilter* filter_ = nullptr;
  QueryCounts counts_;
  /// The caches and memos the queries keep (src/collision/queries_impl.h):
  /// made once with the queries, reached through one pointer.
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stepslide
