// Temporal coherence for triangle meshes and heightfields, as PhysX's
// character controller caches geometry: the triangles of a
// btBvhTriangleMeshShape (from Bullet's quantised tree) or a
// btHeightfieldTerrainShape (from its grid) around the character, gathered
// once for a region grown around the first query, and handed to every later
// query inside that region without walking the tree or the grid again.
#pragma once

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <vector>

#include "collision/compound.h"
#include "collision/heightfield_grid.h"
#include "geometry/contact.h"

namespace stepslide {

/// One triangle of a region, as handed to a TriangleVisitor: what Bullet's
/// walk hands out (vertices, part, index), its plane as the exact pairs
/// compute it (capsule_triangle.h's plane_of: n, unit, flat), and a slot where
/// the exact sweeps keep the last start contact they computed with it (the
/// unbounded closest points of the capsule a→b of radius, in the shape's
/// frame), valid while the region lives: a tick sweeps from the same place
/// several times (the move and the step-up from the start, a slide's next
/// sweep after a hit where it stands, the ground probe and the next tick's
/// move from the end). About a quarter of the oa_dm3 walks' triangle
/// sweeps start where the last one did.
struct CachedTriangle {
  btVector3 vertices[3];
  int part = 0;
  int index = 0;
  btVector3 plane_n{0, 0, 0};
  btVector3 plane_unit{0, 0, 0};
  bool plane_flat = false;
  /// The vertices' bounds: a visitor whose query cannot reach beyond a box
  /// skips the triangles outside it (Bullet's walks hand out more: a
  /// heightfield's a cell beyond the box on every side, a mesh's by
  /// quantised boxes).
  btVector3 low{0, 0, 0};
  btVector3 high{0, 0, 0};
  bool meets(const btVector3& box_low, const btVector3& box_high) const {
    return box_low.x() <= high.x() && low.x() <= box_high.x() && box_low.y() <= high.y() &&
           low.y() <= box_high.y() && box_low.z() <= high.z() && low.z() <= box_high.z();
  }
  /// The last capsule's closest contact with the triangle (capsule_triangle
  /// without a cutoff), for the capsule's segment a..b of `radius`.
  struct Closest {
    bool valid = false;
    btVector3 a{0, 0, 0};
    btVector3 b{0, 0, 0};
    double radius = 0.0;
    ExactContact contact;
  } closest;
};

/// Receives a region's triangles (TriangleCache::visit_triangles).
class TriangleVisitor {
 public:
  virtual void visit(CachedTriangle& triangle) = 0;

 protected:
  ~TriangleVisitor() = default;
};

/// Answers a mesh's processAllTriangles (contacts, sweeps) and
/// performRaycast (rays) from the triangles gathered for a region of the
/// shape's own frame, handing the callback exactly the triangles Bullet's
/// tree walk would, in the same order, with the same vertices, part and
/// index: Bullet's stackless walk visits the leaves in array order and
/// reports a leaf when the leaf's own test (quantised box overlap; for a
/// ray also the slab test on its unquantised box) passes, which then passes
/// for its ancestors too (their quantised boxes contain it, and both tests
/// are monotone in the box); so filtering the region's leaves, kept in
/// array order, by that test reproduces the walk. A query whose box lies
/// inside the region (in the shape's frame: the body may move) is answered
/// from it; otherwise the region is gathered again around that query.
///
/// Only for a quantised tree walked stackless (Bullet's default) over
/// integer or short indices; any other shape returns false and the caller
/// asks Bullet. The shape's tree and vertices are assumed unchanged while
/// its pointers are (a game that edits a mesh in place calls forget(), as
/// for CollisionQueries' forget_clearance, which calls it). Callbacks and
/// visitors must not query the cache again while it hands them triangles.
///
/// A heightfield's processAllTriangles (not its rays: Bullet walks those
/// cell by cell along the ray) is answered alike: its walk loops over the
/// grid cells its box covers (rows outer, two triangles a cell) and lets a
/// triangle through when its span on the up axis meets the box's. The
/// region keeps, for a block of cells, the triangles Bullet's own walk
/// handed out for them (recorded once, so the vertices are its own), each
/// with the span the walk tests; a query whose cells (computed as the walk
/// computes them, heightfield_grid.h) lie in the block loops over its own
/// cells and tests the spans. Only for a btHeightfieldTerrainShape itself
/// (a subclass may walk otherwise); its heights are assumed unchanged while
/// its data pointer is (forget() as for meshes).
class TriangleCache {
 public:
  /// How far a region reaches beyond the query that gathers it (m, in the
  /// shape's frame), at most: halved for a mesh, down to kMinGrowth, while a
  /// region of it holds more than kMaxRegionTriangles (a dense mesh, where
  /// filtering a large region would cost more than Bullet's walk). Any mesh
  /// size gains, down to two triangles.
  static constexpr double kGrowth = 1.0;
  static constexpr double kMinGrowth = 0.125;
  static constexpr std::size_t kMaxRegionTriangles = 128;
  /// Meshes, and heightfields, remembered at once (least recently used
  /// dropped).
  static constexpr int kMaxMeshes = 4;
  /// Regions a mesh keeps at once: a query outside the one in use is
  /// answered from the other when that holds it (a thin ray that strays just
  /// past a dense region's edge gathers its own small region, and the next
  /// query back inside the large one finds it still there); otherwise the
  /// least recently used is gathered again.
  static constexpr int kRegionsPerMesh = 2;

  /// As `shape->processAllTriangles(callback, low, high)`, or false.
  bool process_all_triangles(const btCollisionShape* shape, btTriangleCallback* callback, const btVector3& low,
                             const btVector3& high);
  /// Of the same triangles in the same order, those whose bounds meet
  /// cull_low..cull_high, handed to `visitor` with their planes and slots,
  /// or false. For a query that reaches nothing outside the cull box (its
  /// own box grown by more than its rounding): the rest would answer
  /// nothing, and skipping them here costs less than handing them out.
  bool visit_triangles(const btCollisionShape* shape, const btVector3& low, const btVector3& high,
                       const btVector3& cull_low, const btVector3& cull_high, TriangleVisitor* visitor);
  /// As `shape->performRaycast(callback, from, to)`, or false.
  bool perform_raycast(const btCollisionShape* shape, btTriangleCallback* callback, const btVector3& from,
                       const btVector3& to);
  /// Drops every region (the next query gathers again).
  void forget() {
    meshes_.clear();
    fields_.clear();
    child_poses_.forget();
  }

  /// The composed poses of static compounds' children (compound.h), kept
  /// with the triangles: the pair functions that walk a compound's
  /// children read them from here (forget() drops them too: a game that
  /// rebuilds a compound in place calls it, as for meshes).
  detail::ChildPoses& child_poses() { return child_poses_; }

  /// Regions gathered and queries answered from one, since construction.
  int gathers() const { return gathers_; }
  int reuses() const { return reuses_; }

 private:
  /// The leaves of one mesh's region, in the tree's array order: quantised
  /// boxes in blocks of kBlock (structure of arrays, padded with boxes that
  /// meet nothing) for a filter the compiler vectorises, and per leaf the
  /// triangle as Bullet's walk hands it out.
  static constexpr int kBlock = 16;
  struct Block {
    std::uint16_t low[3][kBlock];
    std::uint16_t high[3][kBlock];
  };
  struct Leaf {
    CachedTriangle triangle;
    /// A mesh's: the unquantised box (the ray's slab test). A heightfield's:
    /// on the up axis, the span its walk tests (a cell's first triangle's
    /// own, the second's with the first's vertices: the walk widens one
    /// span); the other coordinates unused.
    btVector3 bounds[2];
    /// A mesh's leaf is filled in (triangle, bounds) from its tree node the
    /// first time a query's box meets it: a region around dense geometry
    /// holds far more triangles than the queries inside it ever meet.
    const btQuantizedBvhNode* node = nullptr;
    bool ready = true;
  };
  struct Mesh {
    // What the region was gathered from: any change gathers again.
    const btBvhTriangleMeshShape* shape = nullptr;
    const btQuantizedBvh* bvh = nullptr;
    const void* nodes = nullptr;
    int node_count = 0;
    const btStridingMeshInterface* interface = nullptr;
    btVector3 scaling{1, 1, 1};
    bool usable = false;  ///< false: a tree this cache does not answer for
    double growth = kGrowth;
    struct Region {
      btVector3 low{0, 0, 0};
      btVector3 high{0, 0, 0};
      std::vector<Block> blocks;  ///< empty: not gathered yet
      /// The region's leaves first; only grown (the rest, stale, is never
      /// met: the blocks' padding meets nothing).
      std::vector<Leaf> leaves;
      std::uint64_t last_use = 0;
    } regions[kRegionsPerMesh];
    int current = 0;  ///< the region the last query was answered from
    std::uint64_t last_use = 0;
  };

  /// A heightfield's region: the triangles of a block of cells, two a cell,
  /// rows outer, as its walk hands them out.
  struct Field {
    const btHeightfieldTerrainShape* shape = nullptr;
    detail::HeightfieldKey key;  ///< what the region was gathered from
    bool usable = false;
    double growth = kGrowth;
    detail::GridCells cells;
    std::vector<Leaf> leaves;
    std::uint64_t last_use = 0;
  };

  /// The mesh's region holding low..high, gathered if needed; null when the
  /// shape is not one this cache answers for.
  Mesh* region_for(const btCollisionShape* shape, const btVector3& low, const btVector3& high);
  /// A box the triangles handed out must meet (visit_triangles).
  struct Cull {
    btVector3 low;
    btVector3 high;
  };
  /// The leaves the shape's own walk of low..high would hand out, in its
  /// order, those meeting `cull` if given (in hits_); false when the cache
  /// does not answer for the shape.
  bool leaves_meeting(const btCollisionShape* shape, const btVector3& low, const btVector3& high, const Cull* cull);
  /// As leaves_meeting, for a heightfield.
  bool field_leaves_meeting(const btHeightfieldTerrainShape* shape, const btVector3& low, const btVector3& high,
                            const Cull* cull);
  Field& field_for(const btHeightfieldTerrainShape* shape);
  /// The field's region around low..high, from its own walk.
  void gather(Field* field, const btVector3& low, const btVector3& high);
  Mesh& entry_for(const btBvhTriangleMeshShape* shape);
  /// Gathers mesh's region `region` around low..high.
  void gather(Mesh* mesh, Mesh::Region* region, const btVector3& low, const btVector3& high);
  /// The leaf's triangle, plane and bounds from its node (gather leaves
  /// them to the first query that meets it).
  static void fill(const Mesh& mesh, Leaf* leaf);
  /// The region's leaves, in array order (walkStacklessQuantizedTree's).
  /// The leaves of mesh's region into `nodes`, in array order; false (and
  /// `nodes` incomplete) when there are more than `max_leaves`.
  static bool walk(const Mesh& mesh, const Mesh::Region& region, std::vector<const btQuantizedBvhNode*>* nodes,
                   std::size_t max_leaves);
  /// The leaves of the mesh's current region whose quantised box meets
  /// low..high (quantised), and whose triangle meets `cull` if given, in hits_.
  void overlapping(Mesh& mesh, const unsigned short low[3], const unsigned short high[3], const Cull* cull);

  std::vector<Mesh> meshes_;
  detail::ChildPoses child_poses_;
  std::vector<Field> fields_;
  std::vector<Leaf*> hits_;
  std::uint64_t clock_ = 0;
  int gathers_ = 0;
  int reuses_ = 0;
};

}  // namespace stepslide
