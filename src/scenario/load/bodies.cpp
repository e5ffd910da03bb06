// The world (docs/format.md §1.1): its bodies, each a shape placed, rotated and
// perhaps moving, with unique names, within the body limit.

#include <algorithm>

#include "scenario/load/parts.h"

namespace stepslide::loader {

namespace {

const char* static_only_noun(ShapeType type) {
  switch (type) {
    case ShapeType::Mesh:
      return "mesh";
    case ShapeType::Heightfield:
      return "heightfield";
    case ShapeType::Stairs:
      return "stairs";
    case ShapeType::Ramp:
      return "ramp";
    default:
      return nullptr;
  }
}

/// Room for `more` bodies (an array's items; includes and split meshes may
/// add more). Grows geometrically, so a world of many small level includes
/// does not reallocate once per include.
void reserve_more(std::vector<BodyDef>& world, std::size_t more) {
  const std::size_t needed = world.size() + more;
  if (needed > world.capacity()) world.reserve(std::max(needed, 2 * world.capacity()));
}

/// Body names must be unique; the later use is the error.
void check_name(JsonReader& r, const Field& name_field, const BodyDef& body, WorldBudget& budget) {
  const auto [first, inserted] = budget.first_use_of_name.emplace(body.name, body.json_path);
  if (!inserted) {
    r.error(name_field.where, "duplicate body name " + quote(body.name) + ", first used by " + first->second);
  }
}

void count_body(JsonReader& r, const Field& f, const ShapeDef& shape, WorldBudget& budget) {
  budget.bodies += shape.type == ShapeType::Stairs ? std::max(shape.steps, 1) : 1;
  if (budget.bodies > Limits::max_bodies && !budget.bodies_reported) {
    r.error(f.where, "expected at most " + std::to_string(Limits::max_bodies) +
                         " bodies (the body limit; stairs count one per step), got more");
    budget.bodies_reported = true;
  }
}

/// A mesh file read with "merge": false becomes one body per node, named
/// after the node ("<name>/<node>" when the body has a name), all placed
/// like the body. Each counts against the body limit and must have a unique name.
void add_split_bodies(JsonReader& r, const Field& f, const BodyDef& body, SplitMesh& split,
                      std::vector<BodyDef>& world, WorldBudget& budget) {
  for (ShapeDef& part : split.parts) {
    BodyDef node_body = body;
    node_body.name = body.name.empty() ? part.mesh_file.node : body.name + "/" + part.mesh_file.node;
    node_body.shape = std::move(part);
    count_body(r, f, node_body.shape, budget);
    const auto [first, inserted] = budget.first_use_of_name.emplace(node_body.name, node_body.json_path);
    if (!inserted) {
      r.error(f.where, "duplicate body name " + quote(node_body.name) + " (a node of the mesh file), first used by " +
                           first->second);
    }
    world.push_back(std::move(node_body));
  }
}

void read_body(JsonReader& r, const Field& f, std::vector<BodyDef>& world, WorldBudget& budget) {
  if (!r.object(f)) return;
  BodyDef body;
  body.json_path = budget.context->pointer_prefix + f.where.pointer();
  ObjectReader o(r, f);
  const Field name = o.optional("name");
  if (r.string(name, body.name)) check_name(r, name, body, budget);
  SplitMesh split;
  const bool shape_known = read_body_shape(r, o.required("shape"), body.shape, budget, split);
  const bool is_split = shape_known && body.shape.type == ShapeType::Mesh && !body.shape.mesh_file.merge;
  if (!is_split) count_body(r, f, body.shape, budget);
  r.numbers(o.optional("position"), kCoordinate, body.position);
  r.numbers(o.optional("rotation_deg"), kAngle, body.rotation_deg);
  r.integer(o.optional("layer"), between(0.0, kLayerLimit), body.layer);
  r.boolean(o.optional("one_way"), body.one_way);
  const Field motion = o.optional("motion");
  const char* static_noun = shape_known ? static_only_noun(body.shape.type) : nullptr;
  if (motion && static_noun) {
    r.error(motion.where, std::string("expected no \"motion\": ") + static_noun + " bodies are static only");
  } else {
    read_motion(r, motion, body.motion);
  }
  o.reject_unknown();
  if (is_split) {
    add_split_bodies(r, f, body, split, world, budget);
  } else {
    world.push_back(std::move(body));
  }
}

}  // namespace

void read_world_items(JsonReader& r, const Field& f, std::vector<BodyDef>& world, WorldBudget& budget) {
  if (!r.array(f)) return;
  if (f.value->size() > static_cast<std::size_t>(Limits::max_bodies)) {
    r.error(f.where, "expected at most " + std::to_string(Limits::max_bodies) + " bodies (the body limit), got " +
                         JsonReader::describe_count(*f.value));
    return;
  }
  reserve_more(world, f.value->size());
  budget.first_use_of_name.reserve(budget.first_use_of_name.size() + f.value->size());
  for (std::size_t i = 0; i < f.value->size(); ++i) {
    const Field item = f.item(i);
    if (item.value->is_object() && item.value->contains("include")) {
      read_include(r, item, world, budget);
    } else {
      read_body(r, item, world, budget);
    }
  }
}

void read_world(JsonReader& r, const Field& f, std::vector<BodyDef>& world, LoadContext& context) {
  WorldBudget budget;
  budget.context = &context;
  read_world_items(r, f, world, budget);
}

}  // namespace stepslide::loader
