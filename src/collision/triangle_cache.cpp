// The triangles of meshes around the character (triangle_cache.h).
#include "collision/triangle_cache.h"

#include <algorithm>
#include <typeinfo>

#include "geometry/capsule_triangle.h"

namespace stepslide {

namespace {

/// Bullet's tree keeps what its walk reads protected; a member pointer
/// named through a derived class reads it without copying the tree.
struct BvhAccess : btQuantizedBvh {
  static int node_count(const btQuantizedBvh& bvh) { return bvh.*(&BvhAccess::m_curNodeIndex); }
  static bool quantized(const btQuantizedBvh& bvh) { return bvh.*(&BvhAccess::m_useQuantization); }
  static bool stackless(const btQuantizedBvh& bvh) {
    return bvh.*(&BvhAccess::m_traversalMode) == TRAVERSAL_STACKLESS;
  }
  static const QuantizedNodeArray& nodes(const btQuantizedBvh& bvh) {
    return bvh.*(&BvhAccess::m_quantizedContiguousNodes);
  }
};

bool inside(const btVector3& low, const btVector3& high, const btVector3& outer_low, const btVector3& outer_high) {
  return outer_low.x() <= low.x() && outer_low.y() <= low.y() && outer_low.z() <= low.z() &&
         high.x() <= outer_high.x() && high.y() <= outer_high.y() && high.z() <= outer_high.z();
}

/// One part of a mesh, locked for reading while this lives.
struct LockedPart {
  LockedPart(const btStridingMeshInterface& mesh, int part) : mesh_(mesh), part_(part) {
    mesh.getLockedReadOnlyVertexIndexBase(&vertices, vertex_count, vertex_type, stride, &indices, index_stride,
                                          faces, index_type, part);
  }
  ~LockedPart() { mesh_.unLockReadOnlyVertexBase(part_); }
  LockedPart(const LockedPart&) = delete;
  LockedPart& operator=(const LockedPart&) = delete;

  const unsigned char* vertices = nullptr;
  const unsigned char* indices = nullptr;
  int vertex_count = 0;
  int stride = 0;
  int index_stride = 0;
  int faces = 0;
  PHY_ScalarType vertex_type = PHY_FLOAT;
  PHY_ScalarType index_type = PHY_INTEGER;

 private:
  const btStridingMeshInterface& mesh_;
  int part_;
};

/// Whether every part of the mesh has the index types both of Bullet's
/// walks (processAllTriangles, performRaycast) read alike.
bool plain_indices(const btStridingMeshInterface& mesh) {
  for (int part = 0; part < mesh.getNumSubParts(); ++part) {
    const LockedPart locked(mesh, part);
    if (locked.index_type != PHY_INTEGER && locked.index_type != PHY_SHORT) return false;
  }
  return true;
}

/// A triangle's vertices exactly as Bullet's processAllTriangles and
/// performRaycast compute them (btBvhTriangleMeshShape.cpp's node callback:
/// each coordinate times the mesh's scaling, one multiplication).
void vertices_of(const btStridingMeshInterface& mesh, int part, int index, btVector3 out[3]) {
  const LockedPart locked(mesh, part);
  const auto* base = reinterpret_cast<const unsigned int*>(locked.indices + index * locked.index_stride);
  const btVector3& scaling = mesh.getScaling();
  for (int j = 2; j >= 0; --j) {
    const int vertex = locked.index_type == PHY_SHORT ? reinterpret_cast<const unsigned short*>(base)[j]
                                                      : static_cast<int>(base[j]);
    if (locked.vertex_type == PHY_FLOAT) {
      const auto* v = reinterpret_cast<const float*>(locked.vertices + vertex * locked.stride);
      out[j] = btVector3(v[0] * scaling.getX(), v[1] * scaling.getY(), v[2] * scaling.getZ());
    } else {
      const auto* v = reinterpret_cast<const double*>(locked.vertices + vertex * locked.stride);
      out[j] = btVector3(btScalar(v[0]) * scaling.getX(), btScalar(v[1]) * scaling.getY(),
                         btScalar(v[2]) * scaling.getZ());
    }
  }
}

/// The entry remembered for `shape`, or a fresh one in its place: a free
/// slot, else the least recently used (`*fresh` says which).
template <class Entry>
Entry& entry_of(std::vector<Entry>* entries, const btCollisionShape* shape, int capacity, bool* fresh) {
  auto found = std::find_if(entries->begin(), entries->end(), [&](const Entry& e) { return e.shape == shape; });
  *fresh = found == entries->end();
  if (!*fresh) return *found;
  if (static_cast<int>(entries->size()) < capacity) return *entries->emplace(entries->end());
  return *std::min_element(entries->begin(), entries->end(),
                           [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
}

/// The triangles a heightfield's walk hands out, as handed, checked
/// against the cells it was asked for: rows j0..j1, two a cell.
struct FieldRecorder final : btTriangleCallback {
  FieldRecorder(const detail::GridCells& cells, std::vector<CachedTriangle>* out) : cells_(cells), out_(out) {}
  void processTriangle(btVector3* vertices, int part, int index) override {
    const int row = cells_.empty() ? -1 : cells_.j0 + static_cast<int>(out_->size()) / (2 * (cells_.x1 - cells_.x0));
    if (index != row) as_expected = false;
    CachedTriangle t;
    t.vertices[0] = vertices[0];
    t.vertices[1] = vertices[1];
    t.vertices[2] = vertices[2];
    t.part = part;
    t.index = index;
    out_->push_back(t);
  }
  detail::GridCells cells_;
  std::vector<CachedTriangle>* out_;
  bool as_expected = true;
};

/// The rest of a cached triangle from its vertices: its plane, as the exact
/// pairs compute it, and its bounds.
void complete(CachedTriangle* t) {
  const detail::TrianglePlane plane =
      detail::plane_of(detail::Triangle{{t->vertices[0], t->vertices[1], t->vertices[2]}});
  t->plane_n = plane.n;
  t->plane_unit = plane.unit;
  t->plane_flat = plane.flat;
  t->low = t->high = t->vertices[0];
  for (int v = 1; v < 3; ++v) {
    t->low.setMin(t->vertices[v]);
    t->high.setMax(t->vertices[v]);
  }
  t->closest = CachedTriangle::Closest{};
}

}  // namespace

TriangleCache::Mesh& TriangleCache::entry_for(const btBvhTriangleMeshShape* shape) {
  auto* bvh = static_cast<const btQuantizedBvh*>(const_cast<btBvhTriangleMeshShape*>(shape)->getOptimizedBvh());
  const btStridingMeshInterface* interface = shape->getMeshInterface();
  const bool quantized = bvh != nullptr && BvhAccess::quantized(*bvh) && BvhAccess::nodes(*bvh).size() > 0;
  const void* nodes = quantized ? &BvhAccess::nodes(*bvh)[0] : nullptr;
  const int node_count = quantized ? BvhAccess::node_count(*bvh) : 0;
  ++clock_;
  bool fresh = false;
  Mesh& found = entry_of(&meshes_, shape, kMaxMeshes, &fresh);
  if (!fresh && found.bvh == bvh && found.nodes == nodes && found.node_count == node_count &&
      found.interface == interface && found.scaling == interface->getScaling()) {
    found.last_use = clock_;
    return found;
  }
  // A new mesh, or this one's tree rebuilt or rescaled: start again.
  Mesh& m = found;
  m = Mesh{};
  m.shape = shape;
  m.bvh = bvh;
  m.nodes = nodes;
  m.node_count = node_count;
  m.interface = interface;
  m.scaling = interface->getScaling();
  m.last_use = clock_;
  m.usable = quantized && BvhAccess::stackless(*bvh) && plain_indices(*interface);
  return m;
}

TriangleCache::Mesh* TriangleCache::region_for(const btCollisionShape* shape, const btVector3& low,
                                               const btVector3& high) {
  if (shape->getShapeType() != TRIANGLE_MESH_SHAPE_PROXYTYPE) return nullptr;
  Mesh& mesh = entry_for(static_cast<const btBvhTriangleMeshShape*>(shape));
  if (!mesh.usable) return nullptr;
  // The region in use first, then the others; else the least recently used
  // (a region not gathered yet first) is gathered around the query.
  int found = -1;
  for (int k = 0; k < kRegionsPerMesh && found < 0; ++k) {
    const int r = (mesh.current + k) % kRegionsPerMesh;
    const Mesh::Region& region = mesh.regions[r];
    if (!region.blocks.empty() && inside(low, high, region.low, region.high)) found = r;
  }
  if (found >= 0) {
    ++reuses_;
  } else {
    found = 0;
    for (int r = 1; r < kRegionsPerMesh; ++r) {
      if (mesh.regions[r].last_use < mesh.regions[found].last_use) found = r;
    }
    gather(&mesh, &mesh.regions[found], low, high);
  }
  mesh.current = found;
  mesh.regions[found].last_use = clock_;
  return mesh.usable ? &mesh : nullptr;
}

bool TriangleCache::walk(const Mesh& mesh, const Mesh::Region& region, std::vector<const btQuantizedBvhNode*>* nodes,
                         std::size_t max_leaves) {
  const btQuantizedBvh& bvh = *mesh.bvh;
  unsigned short q_low[3];
  unsigned short q_high[3];
  bvh.quantizeWithClamp(q_low, region.low, 0);
  bvh.quantizeWithClamp(q_high, region.high, 1);
  nodes->clear();
  const btQuantizedBvhNode* node = &BvhAccess::nodes(bvh)[0];
  for (int at = 0; at < mesh.node_count;) {
    const bool overlap = testQuantizedAabbAgainstQuantizedAabb(q_low, q_high, node->m_quantizedAabbMin,
                                                               node->m_quantizedAabbMax) != 0;
    const bool leaf = node->isLeafNode();
    if (leaf && overlap) {
      if (nodes->size() == max_leaves) return false;
      nodes->push_back(node);
    }
    const int step = overlap || leaf ? 1 : node->getEscapeIndex();
    node += step;
    at += step;
  }
  return true;
}

void TriangleCache::gather(Mesh* mesh, Mesh::Region* region, const btVector3& low, const btVector3& high) {
  std::vector<const btQuantizedBvhNode*> nodes;
  for (;;) {
    const btVector3 grow(mesh->growth, mesh->growth, mesh->growth);
    region->low = low - grow;
    region->high = high + grow;
    // A region that will not be kept stops being walked as soon as it holds
    // too many triangles (the rest of a dense mesh's walk is the cost).
    const bool last = mesh->growth <= kMinGrowth;
    const bool whole = walk(*mesh, *region, &nodes, last ? nodes.max_size() : kMaxRegionTriangles);
    if (whole) break;
    mesh->growth *= 0.5;  // a dense mesh: smaller regions from now on
  }
  const std::size_t count = nodes.size();
  if (region->leaves.size() < count) region->leaves.resize(count);
  region->blocks.assign((count + kBlock - 1) / kBlock + (count == 0 ? 1 : 0), Block{});
  for (Block& b : region->blocks) {
    for (int axis = 0; axis < 3; ++axis) {
      std::fill(std::begin(b.low[axis]), std::end(b.low[axis]), std::uint16_t{0xffff});  // meets nothing
      std::fill(std::begin(b.high[axis]), std::end(b.high[axis]), std::uint16_t{0});
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    Leaf& leaf = region->leaves[i];
    leaf.node = nodes[i];
    leaf.ready = false;
    Block& block = region->blocks[i / kBlock];
    for (int axis = 0; axis < 3; ++axis) {
      block.low[axis][i % kBlock] = nodes[i]->m_quantizedAabbMin[axis];
      block.high[axis][i % kBlock] = nodes[i]->m_quantizedAabbMax[axis];
    }
  }
  ++gathers_;
}

void TriangleCache::fill(const Mesh& mesh, Leaf* leaf) {
  const btQuantizedBvhNode& node = *leaf->node;
  CachedTriangle& t = leaf->triangle;
  t.part = node.getPartId();
  t.index = node.getTriangleIndex();
  vertices_of(*mesh.interface, t.part, t.index, t.vertices);
  complete(&t);
  leaf->bounds[0] = mesh.bvh->unQuantize(node.m_quantizedAabbMin);
  leaf->bounds[1] = mesh.bvh->unQuantize(node.m_quantizedAabbMax);
  leaf->ready = true;
}

void TriangleCache::overlapping(Mesh& mesh, const unsigned short low[3], const unsigned short high[3],
                                const Cull* cull) {
  hits_.clear();
  const std::uint16_t l0 = low[0], l1 = low[1], l2 = low[2];
  const std::uint16_t h0 = high[0], h1 = high[1], h2 = high[2];
  Mesh::Region& region = mesh.regions[mesh.current];
  for (std::size_t b = 0; b < region.blocks.size(); ++b) {
    const Block& block = region.blocks[b];
    // testQuantizedAabbAgainstQuantizedAabb, sixteen at a time.
    std::uint8_t meets[kBlock];
    std::uint8_t any = 0;
    for (int i = 0; i < kBlock; ++i) {
      meets[i] = static_cast<std::uint8_t>((l0 <= block.high[0][i]) & (h0 >= block.low[0][i]) &
                                           (l1 <= block.high[1][i]) & (h1 >= block.low[1][i]) &
                                           (l2 <= block.high[2][i]) & (h2 >= block.low[2][i]));
    }
    for (int i = 0; i < kBlock; ++i) any |= meets[i];
    if (any == 0) continue;
    for (int i = 0; i < kBlock; ++i) {
      if (meets[i] == 0) continue;
      Leaf& leaf = region.leaves[b * kBlock + static_cast<std::size_t>(i)];
      if (!leaf.ready) fill(mesh, &leaf);
      if (cull == nullptr || leaf.triangle.meets(cull->low, cull->high)) hits_.push_back(&leaf);
    }
  }
}

bool TriangleCache::leaves_meeting(const btCollisionShape* shape, const btVector3& low, const btVector3& high,
                                   const Cull* cull) {
  if (shape->getShapeType() == TERRAIN_SHAPE_PROXYTYPE)
    return field_leaves_meeting(static_cast<const btHeightfieldTerrainShape*>(shape), low, high, cull);
  Mesh* mesh = region_for(shape, low, high);
  if (mesh == nullptr) return false;
  // As reportAabbOverlappingNodex quantises the query.
  unsigned short q_low[3];
  unsigned short q_high[3];
  mesh->bvh->quantizeWithClamp(q_low, low, 0);
  mesh->bvh->quantizeWithClamp(q_high, high, 1);
  overlapping(*mesh, q_low, q_high, cull);
  return true;
}

TriangleCache::Field& TriangleCache::field_for(const btHeightfieldTerrainShape* shape) {
  ++clock_;
  bool fresh = false;
  Field& found = entry_of(&fields_, shape, kMaxMeshes, &fresh);
  found.last_use = clock_;
  if (!fresh && detail::same_key(*shape, found.key)) return found;
  // A new heightfield, or this one changed: start again.
  found = Field{};
  found.shape = shape;
  found.key = detail::key_of(*shape);
  found.last_use = clock_;
  found.usable = typeid(*shape) == typeid(btHeightfieldTerrainShape);
  return found;
}

bool TriangleCache::field_leaves_meeting(const btHeightfieldTerrainShape* shape, const btVector3& low,
                                         const btVector3& high, const Cull* cull) {
  Field& field = field_for(shape);
  detail::GridCells cells;
  if (!field.usable || !detail::cells_meeting(field.key, low, high, &cells)) return false;
  hits_.clear();
  if (cells.empty()) return true;  // the walk's loops run no cell
  if (!field.leaves.empty() && field.cells.contains(cells)) {
    ++reuses_;
  } else {
    gather(&field, low, high);
    if (!field.usable || field.leaves.empty() || !field.cells.contains(cells)) return false;
  }
  const int up = field.key.up;
  const double query_low = low[up];
  const double query_high = high[up];
  const int region_width = field.cells.x1 - field.cells.x0;
  if (cull != nullptr) cells = detail::cells_within(field.key, cull->low, cull->high, cells);
  const int row_length = 2 * (cells.x1 - cells.x0);
  for (int j = cells.j0; j < cells.j1; ++j) {
    Leaf* row = &field.leaves[static_cast<std::size_t>(2 * ((j - field.cells.j0) * region_width + cells.x0 -
                                                            field.cells.x0))];
    for (int k = 0; k < row_length; ++k) {
      if (!detail::up_overlaps(row[k].bounds[0][up], row[k].bounds[1][up], query_low, query_high)) continue;
      if (cull == nullptr || row[k].triangle.meets(cull->low, cull->high)) hits_.push_back(&row[k]);
    }
  }
  return true;
}

void TriangleCache::gather(Field* field, const btVector3& low, const btVector3& high) {
  const int up = field->key.up;
  btVector3 region_low;
  btVector3 region_high;
  detail::GridCells cells;
  for (int doubt = 0;;) {
    // A region whose edge falls where the walk's rounding is in doubt is
    // grown a little less (the query's own cells are what must be sure).
    const double growth = field->growth * (1.0 - 0.01 * doubt);
    const btVector3 grow(growth, growth, growth);
    region_low = low - grow;
    region_high = high + grow;
    // Every height: the walk's up test then lets every triangle of the
    // region's cells through.
    region_low[up] = -BT_LARGE_FLOAT;
    region_high[up] = BT_LARGE_FLOAT;
    if (!detail::cells_meeting(field->key, region_low, region_high, &cells)) {
      if (++doubt < 8) continue;
      field->leaves.clear();  // this once, Bullet's walk
      return;
    }
    if (2 * static_cast<std::size_t>(cells.count()) <= kMaxRegionTriangles || field->growth <= kMinGrowth) break;
    field->growth *= 0.5;  // a dense grid: smaller regions from now on
  }
  std::vector<CachedTriangle> triangles;
  triangles.reserve(2 * static_cast<std::size_t>(cells.count()));
  FieldRecorder recorder(cells, &triangles);
  field->shape->processAllTriangles(&recorder, region_low, region_high);
  ++gathers_;
  field->cells = cells;
  field->leaves.resize(triangles.size());
  if (!recorder.as_expected || triangles.size() != 2 * static_cast<std::size_t>(cells.count())) {
    field->usable = false;  // not the walk this cache knows: Bullet's from now on
    return;
  }
  for (std::size_t i = 0; i < triangles.size(); i += 2) {
    // The walk tests each triangle's span on the up axis, the second of a
    // cell with the first's vertices too.
    double first_low = triangles[i].vertices[0][up];
    double first_high = first_low;
    double both_low = first_low;
    double both_high = first_low;
    for (int v = 0; v < 3; ++v) {
      const double a = triangles[i].vertices[v][up];
      const double b = triangles[i + 1].vertices[v][up];
      if (!(a == a) || !(b == b)) field->usable = false;  // NaN: compared otherwise than the walk does
      first_low = std::min(first_low, a);
      first_high = std::max(first_high, a);
      both_low = std::min({both_low, a, b});
      both_high = std::max({both_high, a, b});
    }
    for (std::size_t k = 0; k < 2; ++k) {
      Leaf& leaf = field->leaves[i + k];
      leaf.triangle = triangles[i + k];
      complete(&leaf.triangle);
      leaf.bounds[0] = btVector3(0, 0, 0);
      leaf.bounds[1] = btVector3(0, 0, 0);
      leaf.bounds[0][up] = k == 0 ? first_low : both_low;
      leaf.bounds[1][up] = k == 0 ? first_high : both_high;
    }
  }
}

bool TriangleCache::process_all_triangles(const btCollisionShape* shape, btTriangleCallback* callback,
                                          const btVector3& low, const btVector3& high) {
  if (!leaves_meeting(shape, low, high, nullptr)) return false;
  for (const Leaf* leaf : hits_) {
    const CachedTriangle& t = leaf->triangle;
    btVector3 triangle[3] = {t.vertices[0], t.vertices[1], t.vertices[2]};  // the callback may write
    callback->processTriangle(triangle, t.part, t.index);
  }
  return true;
}

bool TriangleCache::visit_triangles(const btCollisionShape* shape, const btVector3& low, const btVector3& high,
                                    const btVector3& cull_low, const btVector3& cull_high, TriangleVisitor* visitor) {
  const Cull cull{cull_low, cull_high};
  if (!leaves_meeting(shape, low, high, &cull)) return false;
  for (Leaf* leaf : hits_) visitor->visit(leaf->triangle);
  return true;
}

bool TriangleCache::perform_raycast(const btCollisionShape* shape, btTriangleCallback* callback,
                                    const btVector3& from, const btVector3& to) {
  // walkStacklessQuantizedTreeAgainstRay with no box extents, as
  // reportRayOverlappingNodex calls it, step for step.
  btVector3 ray_low = from;
  btVector3 ray_high = from;
  ray_low.setMin(to);
  ray_high.setMax(to);
  Mesh* mesh = region_for(shape, ray_low, ray_high);
  if (mesh == nullptr) return false;
  btVector3 direction = to - from;
  direction.normalize();
  const btScalar lambda_max = direction.dot(to - from);
  for (int axis = 0; axis < 3; ++axis) {
    direction[axis] = direction[axis] == btScalar(0.0) ? btScalar(BT_LARGE_FLOAT) : btScalar(1.0) / direction[axis];
  }
  const unsigned int sign[3] = {direction[0] < 0.0, direction[1] < 0.0, direction[2] < 0.0};
  unsigned short q_low[3];
  unsigned short q_high[3];
  mesh->bvh->quantizeWithClamp(q_low, ray_low, 0);
  mesh->bvh->quantizeWithClamp(q_high, ray_high, 1);
  overlapping(*mesh, q_low, q_high, nullptr);
  for (const Leaf* leaf : hits_) {
    btScalar param = 1.0;
    if (!btRayAabb2(from, direction, sign, leaf->bounds, param, 0.0, lambda_max)) continue;
    const CachedTriangle& t = leaf->triangle;
    btVector3 triangle[3] = {t.vertices[0], t.vertices[1], t.vertices[2]};
    callback->processTriangle(triangle, t.part, t.index);
  }
  return true;
}

}  // namespace stepslide
