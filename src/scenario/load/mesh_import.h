// Triangle meshes from files (docs/format.md §1.1 "mesh file"): glTF 2.0
// (.gltf with its buffers, .glb), Wavefront OBJ and FBX, read by Assimp
// behind this small interface. Node transforms are applied; vertices are
// welded; degenerate and duplicate triangles are dropped and counted. The
// result depends only on the bytes of the files: nodes are visited in file
// order, never in pointer or hash order.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/load/input_files.h"
#include "scenario/scenario.h"
#include "stepslide/expected.h"

namespace stepslide {

/// Largest mesh file (and each buffer it names) read: a level with embedded
/// textures is far larger than its triangles.
inline constexpr std::int64_t kMaxMeshFileBytes = 512ll * 1024 * 1024;
/// Vertices are welded on a grid of this pitch (2^-20 m, about 1 µm): each
/// coordinate is rounded to the nearest multiple, and vertices that round to
/// the same point are one vertex.
inline constexpr double kWeldPitch = 1.0 / 1048576.0;

struct MeshImportOptions {
  /// Applied after the node transforms. An FBX file's own unit (UnitScaleFactor)
  /// is applied too, so a file in centimetres comes in in metres at scale 1.
  double scale = 1.0;
  UpAxis up_axis = UpAxis::Y;  ///< Z: the file is Z-up and is turned so its +Z becomes +Y
  /// Globs (`*`, `?`) matched against a node's name, its ancestors' names and
  /// the mesh's name: a mesh is kept when `include` is empty or any name
  /// matches an include glob, and no name matches an exclude glob.
  std::vector<std::string> include, exclude;
  bool merge = true;  ///< one part for the whole file; false: one part per node
  /// Triangles this file may hold (counted as read, after filtering, before
  /// cleaning): what the scenario's triangle limit leaves after the meshes
  /// before it, which hold `triangles_before`.
  std::int64_t max_triangles = ScenarioLimits::max_triangles;
  std::int64_t triangles_before = 0;
  PathPolicy paths;  ///< where the buffers a file names may lie
};

/// A spawn point a mesh file names (docs/format.md §1.1 "spawn points"): a
/// node whose name says so (is_spawn_node_name), at its origin, in the mesh's
/// own frame (node transforms, scale and up axis applied; a body's pose not).
struct SpawnPointDef {
  std::string name;  ///< the node's name
  Vec3 position{0, 0, 0};
};

/// Triangles ready for a static mesh body: welded, each with non-zero area,
/// no two on the same three vertices.
struct MeshPart {
  std::string name;  ///< the node's name (unique within the file); "" when merged
  std::vector<Vec3> vertices;
  std::vector<std::array<std::int32_t, 3>> triangles;
};

struct MeshImportStats {
  std::int64_t nodes = 0;             ///< nodes with kept triangles
  std::int64_t source_triangles = 0;  ///< triangles of the kept meshes, before cleaning
  std::int64_t degenerate = 0;        ///< dropped: two corners weld together, or no area
  std::int64_t duplicate = 0;         ///< dropped: same three vertices as an earlier one (either winding)
  std::int64_t source_vertices = 0;   ///< corners referenced before welding
  std::int64_t vertices = 0;          ///< after welding
  std::int64_t triangles = 0;         ///< kept
};

struct ImportedMesh {
  std::vector<MeshPart> parts;  ///< in file order (depth-first, children in order)
  /// Nodes named as spawn points (is_spawn_node_name), at their origins, in
  /// file order; whatever "include" and "exclude" say (they choose meshes).
  std::vector<SpawnPointDef> spawns;
  MeshImportStats stats;
  std::vector<InputFile> files;  ///< the file and every buffer it named, as opened, with digests
};

/// How the reason starts when a file holds more triangles than
/// MeshImportOptions::max_triangles.
inline constexpr const char* kOverTriangleLimit = "over the triangle limit";

/// "mesh", "glTF 2.0", ...: the formats by file extension, lower case
/// (".gltf", ".glb", ".obj", ".fbx"); null for any other.
const char* mesh_format_name(const std::string& path);

/// Reads `path` (already resolved, see resolve_input_path). Fails with a
/// one-line reason: unknown format, unreadable, corrupt, not a mesh, no
/// triangles left, non-finite or too distant vertices, over the triangle
/// limit. Never throws; Assimp's own logging stays silent.
Expected<ImportedMesh> import_mesh_file(const std::string& path, const MeshImportOptions& options);

/// The spawn points of the mesh file at `path`, in file order (depth-first),
/// whatever "include" and "exclude" say (they choose meshes, not spawns);
/// reads only the node tree, for what a scenario's loaded meshes name.
Expected<std::vector<SpawnPointDef>> import_spawn_points(const std::string& path, const MeshImportOptions& options);

/// The spawn sidecar of a mesh file: beside it, its name with the extension
/// replaced by ".spawns.gltf" (levels/oa_dm3.glb: levels/oa_dm3.spawns.gltf).
/// A glTF of spawn nodes only, in the mesh file's frame, for a level whose
/// mesh file must keep its bytes (they are an input of every golden that walks
/// on it); read as import_spawn_points reads the mesh file, when it exists.
std::string spawn_sidecar_path(const std::string& mesh_path);

/// "1204 triangles in 3 nodes; dropped 2 degenerate, 5 duplicate; 3612 corners welded to 700 vertices"
std::string describe_import(const MeshImportStats& stats);

/// True for a node name that marks a spawn point, compared without case:
/// "spawn" followed by nothing or by a character that is not a letter
/// ("spawn", "Spawn.001", "spawn_red_2"), "info_player_*" (Quake's
/// info_player_start and info_player_deathmatch, as level converters name
/// entities) and "PlayerStart*" (Unreal's).
bool is_spawn_node_name(const std::string& name);


}  // namespace stepslide
