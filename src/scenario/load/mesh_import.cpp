#include "scenario/load/mesh_import.h"

#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include "base/file_io.h"
#include "base/glob.h"
#include "scenario/load/mesh_builder.h"

namespace stepslide {

namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

/// A file's bytes, served to Assimp from memory.
class StringStream final : public Assimp::IOStream {
 public:
  explicit StringStream(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t Read(void* out, size_t size, size_t count) override {
    if (size == 0) return 0;
    const size_t n = std::min(count, (bytes_.size() - position_) / size);
    std::memcpy(out, bytes_.data() + position_, n * size);
    position_ += n * size;
    return n;
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }
  aiReturn Seek(size_t offset, aiOrigin origin) override {
    size_t target = 0;
    if (origin == aiOrigin_SET) {
      target = offset;
    } else if (origin == aiOrigin_CUR) {
      target = position_ + offset;
    } else {
      if (offset > bytes_.size()) return aiReturn_FAILURE;
      target = bytes_.size() - offset;
    }
    if (target > bytes_.size()) return aiReturn_FAILURE;
    position_ = target;
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return position_; }
  size_t FileSize() const override { return bytes_.size(); }
  void Flush() override {}

 private:
  std::string bytes_;
  size_t position_ = 0;
};

/// Assimp's file access: read-only, regular files within the path policy,
/// each file read recorded with its digest (a .gltf's buffers are inputs too).
class RecordingFiles final : public Assimp::IOSystem {
 public:
  explicit RecordingFiles(const PathPolicy& policy) : policy_(policy) {}

  bool Exists(const char* file) const override {
    std::error_code ec;
    return check_inside_root(file, policy_) && std::filesystem::is_regular_file(file, ec);
  }
  char getOsSeparator() const override { return '/'; }

  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+')) return nullptr;
    const std::string path = std::filesystem::path(file).lexically_normal().generic_string();
    if (Status inside = check_inside_root(path, policy_); !inside) {
      note_refusal(input_display_path(path, policy_) + " " + inside.error());
      return nullptr;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      note_refusal("cannot read " + input_display_path(path, policy_) + ": not a regular file");
      return nullptr;
    }
    Expected<std::string> bytes = read_file(path, kMaxMeshFileBytes);
    if (!bytes) {
      note_refusal("cannot read " + input_display_path(path, policy_) + ": " + bytes.error());
      return nullptr;
    }
    add_input(files_, InputFile{path, fnv1a64_of(*bytes)});
    return new StringStream(bytes.take());
  }
  void Close(Assimp::IOStream* stream) override { delete stream; }

  std::vector<InputFile> take_files() { return std::move(files_); }
  /// Why the first refused open was refused ("" when none was): a glTF whose
  /// buffer lies outside the root fails with this reason, not Assimp's.
  const std::string& refusal() const { return refusal_; }

 private:
  void note_refusal(std::string reason) {
    if (refusal_.empty()) refusal_ = std::move(reason);
  }
  PathPolicy policy_;
  std::vector<InputFile> files_;
  std::string refusal_;
};

/// 4x4 affine transform in doubles (Assimp's are float, row-major).
struct Affine {
  double m[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};

  static Affine of(const aiMatrix4x4& a) {
    Affine t;
    const float* rows[3] = {a[0], a[1], a[2]};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) t.m[r][c] = static_cast<double>(rows[r][c]);
    }
    return t;
  }
  Affine then(const Affine& child) const {  // this * child
    Affine t;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) {
        double v = m[r][0] * child.m[0][c] + m[r][1] * child.m[1][c] + m[r][2] * child.m[2][c];
        if (c == 3) v += m[r][3];
        t.m[r][c] = v;
      }
    }
    return t;
  }
  Vec3 apply(const aiVector3D& p) const {
    const double x = p.x, y = p.y, z = p.z;
    return {m[0][0] * x + m[0][1] * y + m[0][2] * z + m[0][3], m[1][0] * x + m[1][1] * y + m[1][2] * z + m[1][3],
            m[2][0] * x + m[2][1] * y + m[2][2] * z + m[2][3]};
  }
};

bool any_match(const std::vector<std::string>& globs, const std::vector<std::string>& names) {
  for (const std::string& glob : globs) {
    for (const std::string& name : names) {
      if (glob_match(glob, name)) return true;
    }
  }
  return false;
}

std::string format_point(const Vec3& p) {
  char text[128];
  std::snprintf(text, sizeof text, "(%.6g, %.6g, %.6g)", p[0], p[1], p[2]);
  return text;
}

/// Walks the node tree in file order and feeds the kept triangles to builders.
class SceneWalker {
 public:
  SceneWalker(const aiScene& scene, const MeshImportOptions& options) : scene_(scene), options_(options) {}

  Status walk(std::vector<MeshPart>& parts, MeshImportStats& stats) {
    parts_ = &parts;
    stats_ = &stats;
    if (scene_.mRootNode == nullptr) return Status::failure("the file has no scene nodes");
    std::vector<std::string> names;
    Status status = visit(*scene_.mRootNode, Affine(), names, 0);
    if (!status) return status;
    if (options_.merge) {
      MeshPart merged = merged_.take("", stats);  // counts even an empty result
      if (!merged.triangles.empty()) parts.push_back(std::move(merged));
    }
    stats.nodes = nodes_with_triangles_;
    return Status();
  }

 private:
  static constexpr int kMaxDepth = 1000;

  Status visit(const aiNode& node, const Affine& parent, std::vector<std::string>& names, int depth) {
    if (depth > kMaxDepth) return Status::failure("node tree deeper than " + std::to_string(kMaxDepth));
    const Affine world = parent.then(Affine::of(node.mTransformation));
    const std::string name = node.mName.C_Str();
    names.push_back(name);
    const std::int64_t node_index = node_count_++;
    MeshBuilder own;
    MeshBuilder& builder = options_.merge ? merged_ : own;
    const std::int64_t before = builder.triangles();
    for (unsigned i = 0; i < node.mNumMeshes; ++i) {
      if (node.mMeshes[i] >= scene_.mNumMeshes || scene_.mMeshes[node.mMeshes[i]] == nullptr) {
        return Status::failure("node " + name + " refers to a missing mesh");
      }
      const aiMesh& mesh = *scene_.mMeshes[node.mMeshes[i]];
      if (!kept(names, mesh)) continue;
      Status added = add_mesh(mesh, world, name, builder);
      if (!added) return added;
    }
    if (builder.triangles() > before) ++nodes_with_triangles_;
    if (!options_.merge) {
      MeshPart part = own.take("", *stats_);  // counts even an empty result
      if (!part.triangles.empty()) {
        part.name = unique_name(name, node_index);
        parts_->push_back(std::move(part));
      }
    }
    for (unsigned i = 0; i < node.mNumChildren; ++i) {
      if (node.mChildren[i] == nullptr) continue;
      Status status = visit(*node.mChildren[i], world, names, depth + 1);
      if (!status) return status;
    }
    names.pop_back();
    return Status();
  }

  bool kept(const std::vector<std::string>& node_names, const aiMesh& mesh) const {
    std::vector<std::string> names = node_names;
    names.emplace_back(mesh.mName.C_Str());
    if (!options_.include.empty() && !any_match(options_.include, names)) return false;
    return !any_match(options_.exclude, names);
  }

  Status add_mesh(const aiMesh& mesh, const Affine& world, const std::string& node, MeshBuilder& builder) {
    if (mesh.mVertices == nullptr) return Status();
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines: no surface
      Vec3 corners[3];
      for (int k = 0; k < 3; ++k) {
        const unsigned index = face.mIndices[k];
        if (index >= mesh.mNumVertices) {
          return Status::failure("node " + node + ": a face refers to vertex " + std::to_string(index) + " of " +
                                 std::to_string(mesh.mNumVertices));
        }
        Status placed = place(world.apply(mesh.mVertices[index]), node, corners[k]);
        if (!placed) return placed;
      }
      if (++triangles_seen_ > options_.max_triangles) {
        return Status::failure(std::string(kOverTriangleLimit) + ": more than " + std::to_string(options_.max_triangles) +
                               " triangles here, " + std::to_string(options_.triangles_before) +
                               " before it, " + std::to_string(ScenarioLimits::max_triangles) +
                               " allowed over all meshes of the scenario");
      }
      builder.add(corners[0], corners[1], corners[2]);
    }
    return Status();
  }

  /// File space to scenario space: the up axis, then the scale.
  Status place(const Vec3& p, const std::string& node, Vec3& out) const {
    Vec3 turned = p;
    if (options_.up_axis == UpAxis::Z) turned = {p[0], p[2], -p[1]};
    for (int i = 0; i < 3; ++i) out[i] = turned[i] * options_.scale;
    for (double v : out) {
      if (!std::isfinite(v)) return Status::failure("node " + node + " has a non-finite vertex");
      if (std::abs(v) > ScenarioLimits::max_coordinate) {
        return Status::failure("node " + node + " has a vertex at " + format_point(out) +
                               ", beyond the coordinate limit of 1e6 m (check \"scale\")");
      }
    }
    return Status();
  }

  /// Node names become body names: unnamed nodes get "node<index>" (index in
  /// file order), and a repeated name gets "#2", "#3", ...
  std::string unique_name(const std::string& name, std::int64_t index) {
    std::string base = name.empty() ? "node" + std::to_string(index) : name;
    const int uses = ++name_uses_[base];
    return uses == 1 ? base : base + "#" + std::to_string(uses);
  }

  const aiScene& scene_;
  const MeshImportOptions& options_;
  std::vector<MeshPart>* parts_ = nullptr;
  MeshImportStats* stats_ = nullptr;
  MeshBuilder merged_;
  std::map<std::string, int> name_uses_;
  std::int64_t node_count_ = 0, nodes_with_triangles_ = 0, triangles_seen_ = 0;
};

/// Assimp with only what collision needs; its logger is never created, so it
/// stays silent.
void configure(Assimp::Importer& importer) {
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_MATERIALS, false);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_TEXTURES, false);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_CAMERAS, false);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_LIGHTS, false);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_ANIMATIONS, false);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_WEIGHTS, false);
}

/// Metres per unit of the file: FBX records its unit as UnitScaleFactor in
/// centimetres (1: the file is in cm, 100: in m); glTF is in metres by its
/// specification, and OBJ has no unit (taken as metres).
double file_unit_metres(const aiScene& scene, const std::string& path) {
  if (lower_extension(path) != ".fbx" || scene.mMetaData == nullptr) return 1.0;
  double centimetres = 0.0;
  float centimetres_f = 0.0f;
  if (scene.mMetaData->Get("UnitScaleFactor", centimetres)) {
  } else if (scene.mMetaData->Get("UnitScaleFactor", centimetres_f)) {
    centimetres = static_cast<double>(centimetres_f);
  }
  return std::isfinite(centimetres) && centimetres > 0.0 ? centimetres / 100.0 : 1.0;
}

std::string assimp_reason(const std::string& error) {
  std::string reason = error.empty() ? "unknown error" : error;
  while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
  for (char& c : reason) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  constexpr std::size_t kMax = 300;
  if (reason.size() > kMax) reason = reason.substr(0, kMax) + "...";
  return reason;
}

/// Spawn nodes of the tree under `node`, in file order, placed as SceneWalker places vertices.
Status collect_spawns(const aiNode& node, const Affine& parent, const MeshImportOptions& options, int depth,
                      std::vector<SpawnPointDef>& spawns) {
  constexpr int kMaxDepth = 1000;
  if (depth > kMaxDepth) return Status::failure("node tree deeper than " + std::to_string(kMaxDepth));
  const Affine world = parent.then(Affine::of(node.mTransformation));
  const std::string name = node.mName.C_Str();
  if (is_spawn_node_name(name)) {
    const Vec3 origin = world.apply(aiVector3D(0, 0, 0));
    Vec3 p = options.up_axis == UpAxis::Z ? Vec3{origin[0], origin[2], -origin[1]} : origin;
    for (double& v : p) v *= options.scale;
    for (double v : p) {
      if (!std::isfinite(v) || std::abs(v) > ScenarioLimits::max_coordinate) {
        return Status::failure("spawn point " + name + " lies at " + format_point(p) + ", beyond the coordinate limit");
      }
    }
    spawns.push_back(SpawnPointDef{name, p});
  }
  for (unsigned i = 0; i < node.mNumChildren; ++i) {
    if (node.mChildren[i] == nullptr) continue;
    Status status = collect_spawns(*node.mChildren[i], world, options, depth + 1, spawns);
    if (!status) return status;
  }
  return Status();
}

Expected<ImportedMesh> import_checked(const std::string& path, const MeshImportOptions& options) {
  using Result = Expected<ImportedMesh>;
  const char* format = mesh_format_name(path);
  if (format == nullptr) {
    const std::string ext = lower_extension(path);
    return Result::failure("unknown mesh format " + (ext.empty() ? std::string("(no extension)") : "\"" + ext + "\"") +
                           ": expected .gltf, .glb, .obj or .fbx");
  }
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Result::failure("cannot read: no such file");
  if (!std::filesystem::is_regular_file(path, ec)) return Result::failure("cannot read: not a regular file");
  Assimp::Importer importer;
  configure(importer);
  auto* files = new RecordingFiles(options.paths);
  importer.SetIOHandler(files);  // the importer owns it from here
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_ValidateDataStructure);
  if (scene == nullptr) {
    std::string why = files->refusal().empty() ? assimp_reason(importer.GetErrorString()) : files->refusal();
    // Assimp's words when no importer recognises the bytes (a PNG renamed .glb, a wrong magic number).
    if (why.rfind("No suitable reader found", 0) == 0) why = "the contents are not " + std::string(format);
    return Result::failure(std::string("cannot read as ") + format + ": " + why);
  }
  ImportedMesh mesh;
  MeshImportOptions in_metres = options;
  in_metres.scale = options.scale * file_unit_metres(*scene, path);
  if (scene->mNumMeshes == 0) return Result::failure(std::string("not a mesh: the ") + format + " file has no meshes");
  Status walked = SceneWalker(*scene, in_metres).walk(mesh.parts, mesh.stats);
  if (!walked) return Result::failure(walked.error());
  if (mesh.stats.triangles == 0) {
    const bool filtered = !options.include.empty() || !options.exclude.empty();
    return Result::failure("no triangles" + std::string(filtered ? " left after \"include\"/\"exclude\"" : "") +
                           " (" + std::to_string(mesh.stats.source_triangles) + " read, " +
                           std::to_string(mesh.stats.degenerate) + " degenerate, " +
                           std::to_string(mesh.stats.duplicate) + " duplicate)");
  }
  Status spawns = collect_spawns(*scene->mRootNode, Affine(), in_metres, 0, mesh.spawns);
  if (!spawns) return Result::failure(spawns.error());
  mesh.files = files->take_files();
  return mesh;
}

Expected<std::vector<SpawnPointDef>> spawns_checked(const std::string& path, const MeshImportOptions& options) {
  using Result = Expected<std::vector<SpawnPointDef>>;
  if (mesh_format_name(path) == nullptr) return Result::failure("unknown mesh format");
  Assimp::Importer importer;
  configure(importer);
  importer.SetIOHandler(new RecordingFiles(options.paths));  // the importer owns it
  // Not validated: a spawn sidecar has nodes and no meshes, which Assimp's
  // validation refuses; only the node tree is read here.
  const aiScene* scene = importer.ReadFile(path, 0);
  if (scene == nullptr) return Result::failure("cannot read: " + assimp_reason(importer.GetErrorString()));
  std::vector<SpawnPointDef> spawns;
  if (scene->mRootNode == nullptr) return spawns;
  MeshImportOptions in_metres = options;
  in_metres.scale = options.scale * file_unit_metres(*scene, path);
  Status status = collect_spawns(*scene->mRootNode, Affine(), in_metres, 0, spawns);
  if (!status) return Result::failure(status.error());
  return spawns;
}

}  // namespace

Expected<std::vector<SpawnPointDef>> import_spawn_points(const std::string& path, const MeshImportOptions& options) {
  try {
    return spawns_checked(path, options);
  } catch (const std::exception& e) {
    return Expected<std::vector<SpawnPointDef>>::failure(std::string("cannot read: ") + e.what());
  } catch (...) {
    return Expected<std::vector<SpawnPointDef>>::failure("cannot read: unknown error");
  }
}

const char* mesh_format_name(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".gltf" || ext == ".glb") return "glTF 2.0";
  if (ext == ".obj") return "Wavefront OBJ";
  if (ext == ".fbx") return "FBX";
  return nullptr;
}

Expected<ImportedMesh> import_mesh_file(const std::string& path, const MeshImportOptions& options) {
  try {
    return import_checked(path, options);
  } catch (const std::exception& e) {
    return Expected<ImportedMesh>::failure(std::string("cannot read: ") + e.what());
  } catch (...) {
    return Expected<ImportedMesh>::failure("cannot read: unknown error");
  }
}

bool is_spawn_node_name(const std::string& name) {
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto starts = [&lower](const char* prefix) { return lower.rfind(prefix, 0) == 0; };
  if (starts("spawn")) return lower.size() == 5 || !std::isalpha(static_cast<unsigned char>(lower[5]));
  return starts("info_player_") || starts("playerstart");
}

std::string spawn_sidecar_path(const std::string& mesh_path) {
  return std::filesystem::path(mesh_path).replace_extension(".spawns.gltf").generic_string();
}

std::string describe_import(const MeshImportStats& s) {
  return std::to_string(s.triangles) + " triangles in " + std::to_string(s.nodes) + (s.nodes == 1 ? " node" : " nodes") +
         "; dropped " + std::to_string(s.degenerate) + " degenerate, " + std::to_string(s.duplicate) +
         " duplicate; " + std::to_string(s.source_vertices) + " corners welded to " + std::to_string(s.vertices) +
         " vertices";
}


}  // namespace stepslide
