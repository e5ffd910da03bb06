// The triangles of meshes around the character (triangle_cache.h).
#include "stepslide/triangle_cache.h"

#include <algorithm>

#include "exact_triangle.h"

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

/// Whether every part of the mesh has the index types both of Bullet's
/// walks (processAllTriangles, performRaycast) read alike.
bool plain_indices(const btStridingMeshInterface& mesh) {
  for (int part = 0; part < mesh.getNumSubParts(); ++part) {
    const unsigned char* vertices = nullptr;
    const unsigned char* indices = nullptr;
    int vertex_count = 0;
    int stride = 0;
    int index_stride = 0;
    int faces = 0;
    PHY_ScalarType vertex_type;
    PHY_ScalarType index_type;
    mesh.getLockedReadOnlyVertexIndexBase(&vertices, vertex_count, vertex_type, stride, &indices, index_stride, faces,
                                          index_type, part);
    mesh.unLockReadOnlyVertexBase(part);
    if (index_type != PHY_INTEGER && index_type != PHY_SHORT) return false;
  }
  return true;
}

/// A triangle's vertices exactly as Bullet's processAllTriangles and
/// performRaycast compute them (btBvhTriangleMeshShape.cpp's node callback:
/// each coordinate times the mesh's scaling, one multiplication).
void vertices_of(const btStridingMeshInterface& mesh, int part, int index, btVector3 out[3]) {
  const unsigned char* vertices = nullptr;
  const unsigned char* indices = nullptr;
  int vertex_count = 0;
  int stride = 0;
  int index_stride = 0;
  int faces = 0;
  PHY_ScalarType type;
  PHY_ScalarType index_type;
  mesh.getLockedReadOnlyVertexIndexBase(&vertices, vertex_count, type, stride, &indices, index_stride, faces,
                                        index_type, part);
  const auto* base = reinterpret_cast<const unsigned int*>(indices + index * index_stride);
  const btVector3& scaling = mesh.getScaling();
  for (int j = 2; j >= 0; --j) {
    const int vertex = index_type == PHY_SHORT ? reinterpret_cast<const unsigned short*>(base)[j]
                                               : static_cast<int>(base[j]);
    if (type == PHY_FLOAT) {
      const auto* v = reinterpret_cast<const float*>(vertices + vertex * stride);
      out[j] = btVector3(v[0] * scaling.getX(), v[1] * scaling.getY(), v[2] * scaling.getZ());
    } else {
      const auto* v = reinterpret_cast<const double*>(vertices + vertex * stride);
      out[j] = btVector3(btScalar(v[0]) * scaling.getX(), btScalar(v[1]) * scaling.getY(),
                         btScalar(v[2]) * scaling.getZ());
    }
  }
  mesh.unLockReadOnlyVertexBase(part);
}

}  // namespace

TriangleCache::Mesh& TriangleCache::entry_for(const btBvhTriangleMeshShape* shape) {
  auto* bvh = static_cast<const btQuantizedBvh*>(const_cast<btBvhTriangleMeshShape*>(shape)->getOptimizedBvh());
  const btStridingMeshInterface* interface = shape->getMeshInterface();
  const bool quantized = bvh != nullptr && BvhAccess::quantized(*bvh) && BvhAccess::nodes(*bvh).size() > 0;
  const void* nodes = quantized ? &BvhAccess::nodes(*bvh)[0] : nullptr;
  const int node_count = quantized ? BvhAccess::node_count(*bvh) : 0;
  ++clock_;
  auto found = std::find_if(meshes_.begin(), meshes_.end(), [&](const Mesh& m) { return m.shape == shape; });
  if (found != meshes_.end() && found->bvh == bvh && found->nodes == nodes && found->node_count == node_count &&
      found->interface == interface && found->scaling == interface->getScaling()) {
    found->last_use = clock_;
    return *found;
  }
  if (found == meshes_.end()) {
    if (static_cast<int>(meshes_.size()) >= kMaxMeshes) {
      found = std::min_element(meshes_.begin(), meshes_.end(),
                               [](const Mesh& a, const Mesh& b) { return a.last_use < b.last_use; });
    } else {
      found = meshes_.emplace(meshes_.end());
    }
  }
  // A new mesh, or this one's tree rebuilt or rescaled: start again.
  Mesh& m = *found;
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
  if (!mesh.blocks.empty() && inside(low, high, mesh.low, mesh.high)) {
    ++reuses_;
  } else {
    gather(&mesh, low, high);
  }
  return mesh.usable ? &mesh : nullptr;
}

void TriangleCache::walk(const Mesh& mesh, std::vector<const btQuantizedBvhNode*>* nodes) {
  const btQuantizedBvh& bvh = *mesh.bvh;
  unsigned short q_low[3];
  unsigned short q_high[3];
  bvh.quantizeWithClamp(q_low, mesh.low, 0);
  bvh.quantizeWithClamp(q_high, mesh.high, 1);
  nodes->clear();
  const btQuantizedBvhNode* node = &BvhAccess::nodes(bvh)[0];
  for (int at = 0; at < mesh.node_count;) {
    const bool overlap = testQuantizedAabbAgainstQuantizedAabb(q_low, q_high, node->m_quantizedAabbMin,
                                                               node->m_quantizedAabbMax) != 0;
    const bool leaf = node->isLeafNode();
    if (leaf && overlap) nodes->push_back(node);
    const int step = overlap || leaf ? 1 : node->getEscapeIndex();
    node += step;
    at += step;
  }
}

void TriangleCache::gather(Mesh* mesh, const btVector3& low, const btVector3& high) {
  std::vector<const btQuantizedBvhNode*> nodes;
  for (;;) {
    const btVector3 grow(mesh->growth, mesh->growth, mesh->growth);
    mesh->low = low - grow;
    mesh->high = high + grow;
    walk(*mesh, &nodes);
    if (nodes.size() <= kMaxRegionTriangles || mesh->growth <= kMinGrowth) break;
    mesh->growth *= 0.5;  // a dense mesh: smaller regions from now on
  }
  const btQuantizedBvh& bvh = *mesh->bvh;
  const std::size_t count = nodes.size();
  mesh->leaves.resize(count);
  mesh->blocks.assign((count + kBlock - 1) / kBlock + (count == 0 ? 1 : 0), Block{});
  for (Block& b : mesh->blocks) {
    for (int axis = 0; axis < 3; ++axis) {
      std::fill(std::begin(b.low[axis]), std::end(b.low[axis]), std::uint16_t{0xffff});  // meets nothing
      std::fill(std::begin(b.high[axis]), std::end(b.high[axis]), std::uint16_t{0});
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    Leaf& leaf = mesh->leaves[i];
    CachedTriangle& t = leaf.triangle;
    t.part = nodes[i]->getPartId();
    t.index = nodes[i]->getTriangleIndex();
    vertices_of(*mesh->interface, t.part, t.index, t.vertices);
    const detail::TrianglePlane plane = detail::plane_of(detail::Triangle{{t.vertices[0], t.vertices[1], t.vertices[2]}});
    t.plane_n = plane.n;
    t.plane_unit = plane.unit;
    t.plane_flat = plane.flat;
    t.closest = CachedTriangle::Closest{};
    leaf.bounds[0] = bvh.unQuantize(nodes[i]->m_quantizedAabbMin);
    leaf.bounds[1] = bvh.unQuantize(nodes[i]->m_quantizedAabbMax);
    Block& block = mesh->blocks[i / kBlock];
    for (int axis = 0; axis < 3; ++axis) {
      block.low[axis][i % kBlock] = nodes[i]->m_quantizedAabbMin[axis];
      block.high[axis][i % kBlock] = nodes[i]->m_quantizedAabbMax[axis];
    }
  }
  ++gathers_;
}

void TriangleCache::overlapping(const Mesh& mesh, const unsigned short low[3], const unsigned short high[3]) {
  hits_.clear();
  const std::uint16_t l0 = low[0], l1 = low[1], l2 = low[2];
  const std::uint16_t h0 = high[0], h1 = high[1], h2 = high[2];
  for (std::size_t b = 0; b < mesh.blocks.size(); ++b) {
    const Block& block = mesh.blocks[b];
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
      if (meets[i] != 0) hits_.push_back(static_cast<int>(b) * kBlock + i);
    }
  }
}

TriangleCache::Mesh* TriangleCache::leaves_meeting(const btCollisionShape* shape, const btVector3& low,
                                                   const btVector3& high) {
  Mesh* mesh = region_for(shape, low, high);
  if (mesh == nullptr) return nullptr;
  // As reportAabbOverlappingNodex quantises the query.
  unsigned short q_low[3];
  unsigned short q_high[3];
  mesh->bvh->quantizeWithClamp(q_low, low, 0);
  mesh->bvh->quantizeWithClamp(q_high, high, 1);
  overlapping(*mesh, q_low, q_high);
  return mesh;
}

bool TriangleCache::process_all_triangles(const btCollisionShape* shape, btTriangleCallback* callback,
                                          const btVector3& low, const btVector3& high) {
  const Mesh* mesh = leaves_meeting(shape, low, high);
  if (mesh == nullptr) return false;
  for (const int i : hits_) {
    const CachedTriangle& t = mesh->leaves[static_cast<std::size_t>(i)].triangle;
    btVector3 triangle[3] = {t.vertices[0], t.vertices[1], t.vertices[2]};  // the callback may write
    callback->processTriangle(triangle, t.part, t.index);
  }
  return true;
}

bool TriangleCache::visit_triangles(const btCollisionShape* shape, const btVector3& low, const btVector3& high,
                                    TriangleVisitor* visitor) {
  Mesh* mesh = leaves_meeting(shape, low, high);
  if (mesh == nullptr) return false;
  for (const int i : hits_) visitor->visit(mesh->leaves[static_cast<std::size_t>(i)].triangle);
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
  const Mesh* mesh = region_for(shape, ray_low, ray_high);
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
  overlapping(*mesh, q_low, q_high);
  for (const int i : hits_) {
    const Leaf& leaf = mesh->leaves[static_cast<std::size_t>(i)];
    btScalar param = 1.0;
    if (!btRayAabb2(from, direction, sign, leaf.bounds, param, 0.0, lambda_max)) continue;
    const CachedTriangle& t = leaf.triangle;
    btVector3 triangle[3] = {t.vertices[0], t.vertices[1], t.vertices[2]};
    callback->processTriangle(triangle, t.part, t.index);
  }
  return true;
}

}  // namespace stepslide
