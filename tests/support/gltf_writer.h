// A tiny glTF 2.0 writer for tests and benchmarks: nodes with a name, a
// transform and one triangle mesh each, written as .glb (one binary chunk) or
// as .gltf with a separate .bin buffer. Only what the importer tests need:
// float positions, uint32 indices, a node tree one level deep.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace stepslide::testing {

struct GltfNode {
  std::string name;
  std::vector<std::array<float, 3>> positions;  ///< empty: a node without a mesh
  std::vector<std::uint32_t> indices;
  std::string mesh_name;
  std::array<double, 3> translation{0, 0, 0};
  std::optional<std::array<double, 4>> rotation;  ///< quaternion x, y, z, w
  std::optional<std::array<double, 3>> scale;
  int parent = -1;  ///< index of an earlier node, or -1 for a scene root
};

struct GltfParts {
  nlohmann::json document;
  std::string bin;
};

inline void append_bytes(std::string& out, const void* data, std::size_t size) {
  out.append(static_cast<const char*>(data), size);
}

inline GltfParts make_gltf_parts(const std::vector<GltfNode>& nodes) {
  GltfParts parts;
  nlohmann::json& doc = parts.document;
  doc["asset"] = {{"version", "2.0"}, {"generator", "stepslide tests"}};
  nlohmann::json json_nodes = nlohmann::json::array(), meshes = nlohmann::json::array(),
                 accessors = nlohmann::json::array(), views = nlohmann::json::array(), roots = nlohmann::json::array();
  std::vector<nlohmann::json> children(nodes.size(), nlohmann::json::array());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].parent >= 0) children[static_cast<std::size_t>(nodes[i].parent)].push_back(i);
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const GltfNode& n = nodes[i];
    nlohmann::json node = {{"name", n.name}};
    if (n.translation != std::array<double, 3>{0, 0, 0}) node["translation"] = n.translation;
    if (n.rotation) node["rotation"] = *n.rotation;
    if (n.scale) node["scale"] = *n.scale;
    if (!children[i].empty()) node["children"] = children[i];
    if (!n.positions.empty()) {
      std::array<float, 3> lo = n.positions[0], hi = n.positions[0];
      for (const auto& p : n.positions) {
        for (int k = 0; k < 3; ++k) {
          lo[k] = std::min(lo[k], p[k]);
          hi[k] = std::max(hi[k], p[k]);
        }
      }
      while (parts.bin.size() % 4 != 0) parts.bin.push_back('\0');
      const std::size_t position_offset = parts.bin.size();
      append_bytes(parts.bin, n.positions.data(), n.positions.size() * sizeof(n.positions[0]));
      const std::size_t index_offset = parts.bin.size();
      append_bytes(parts.bin, n.indices.data(), n.indices.size() * sizeof(std::uint32_t));
      const std::size_t view = views.size();
      views.push_back({{"buffer", 0}, {"byteOffset", position_offset},
                       {"byteLength", n.positions.size() * sizeof(n.positions[0])}, {"target", 34962}});
      views.push_back({{"buffer", 0}, {"byteOffset", index_offset},
                       {"byteLength", n.indices.size() * sizeof(std::uint32_t)}, {"target", 34963}});
      const std::size_t accessor = accessors.size();
      accessors.push_back({{"bufferView", view}, {"componentType", 5126}, {"count", n.positions.size()},
                           {"type", "VEC3"}, {"min", lo}, {"max", hi}});
      accessors.push_back({{"bufferView", view + 1}, {"componentType", 5125}, {"count", n.indices.size()},
                           {"type", "SCALAR"}});
      node["mesh"] = meshes.size();
      nlohmann::json mesh = {{"primitives", {{{"attributes", {{"POSITION", accessor}}}, {"indices", accessor + 1},
                                              {"mode", 4}}}}};
      if (!n.mesh_name.empty()) mesh["name"] = n.mesh_name;
      meshes.push_back(mesh);
    }
    json_nodes.push_back(node);
    if (n.parent < 0) roots.push_back(i);
  }
  while (parts.bin.size() % 4 != 0) parts.bin.push_back('\0');
  doc["scene"] = 0;
  doc["scenes"] = {{{"nodes", roots}}};
  doc["nodes"] = json_nodes;
  if (!meshes.empty()) {
    doc["meshes"] = meshes;
    doc["accessors"] = accessors;
    doc["bufferViews"] = views;
    doc["buffers"] = {{{"byteLength", parts.bin.size()}}};
  }
  return parts;
}

/// A binary glTF (.glb): header, JSON chunk, BIN chunk.
inline std::string make_glb(const std::vector<GltfNode>& nodes) {
  GltfParts parts = make_gltf_parts(nodes);
  std::string json = parts.document.dump();
  while (json.size() % 4 != 0) json.push_back(' ');
  const bool has_bin = !parts.bin.empty();
  const std::uint32_t total =
      static_cast<std::uint32_t>(12 + 8 + json.size() + (has_bin ? 8 + parts.bin.size() : 0));
  std::string out;
  const std::uint32_t header[3] = {0x46546C67u, 2u, total};  // "glTF", version 2
  append_bytes(out, header, sizeof header);
  const std::uint32_t json_chunk[2] = {static_cast<std::uint32_t>(json.size()), 0x4E4F534Au};  // "JSON"
  append_bytes(out, json_chunk, sizeof json_chunk);
  out += json;
  if (has_bin) {
    const std::uint32_t bin_chunk[2] = {static_cast<std::uint32_t>(parts.bin.size()), 0x004E4942u};  // "BIN\0"
    append_bytes(out, bin_chunk, sizeof bin_chunk);
    out += parts.bin;
  }
  return out;
}

/// A .gltf document whose one buffer is the file `bin_uri` (write `bin` there).
inline std::pair<std::string, std::string> make_gltf(const std::vector<GltfNode>& nodes, const std::string& bin_uri) {
  GltfParts parts = make_gltf_parts(nodes);
  if (parts.document.contains("buffers")) parts.document["buffers"][0]["uri"] = bin_uri;
  return {parts.document.dump(2), parts.bin};
}

/// A flat quad (two triangles) of `size` x `size` at height `y`, centred on the origin, facing +Y.
inline GltfNode quad_node(const std::string& name, float size, float y = 0.0f) {
  const float h = 0.5f * size;
  GltfNode n;
  n.name = name;
  n.positions = {{-h, y, -h}, {-h, y, h}, {h, y, h}, {h, y, -h}};
  n.indices = {0, 1, 2, 0, 2, 3};
  return n;
}

/// A grid of `cells` x `cells` squares (2 triangles each) spanning `size` m,
/// at height 0 with a gentle wave so no two triangles are coplanar duplicates.
inline GltfNode grid_node(const std::string& name, int cells, float size) {
  GltfNode n;
  n.name = name;
  const float step = size / static_cast<float>(cells);
  for (int z = 0; z <= cells; ++z) {
    for (int x = 0; x <= cells; ++x) {
      const float height = 0.05f * static_cast<float>((x * 7 + z * 13) % 5);
      n.positions.push_back({-0.5f * size + step * static_cast<float>(x), height, -0.5f * size + step * static_cast<float>(z)});
    }
  }
  const auto at = [cells](int x, int z) { return static_cast<std::uint32_t>(z * (cells + 1) + x); };
  for (int z = 0; z < cells; ++z) {
    for (int x = 0; x < cells; ++x) {
      n.indices.insert(n.indices.end(), {at(x, z), at(x, z + 1), at(x + 1, z + 1), at(x, z), at(x + 1, z + 1), at(x + 1, z)});
    }
  }
  return n;
}

}  // namespace stepslide::testing
