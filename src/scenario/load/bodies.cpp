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

/// A damping given to a body without a mass: nothing would be damped.
void reject_without_mass(JsonReader& r, const Field& f, const char* key) {
  if (f) {
    r.error(f.where, std::string("expected no \"") + key +
                         "\" on a body without a \"mass\" (only dynamic bodies are damped or start moving)");
  }
}

/// "mass" (making the body dynamic), "friction", "restitution" and the
/// dampings (docs/format.md §1.1 "dynamic bodies"). `static_noun`: the shape
/// is static only; `motion`, `name`: the body's own, checked against a mass.
void read_dynamics(JsonReader& r, ObjectReader& o, const Field& body_field, const char* static_noun,
                   const Field& motion, const Field& name, BodyDef& body) {
  DynamicsDef& d = body.dynamics;
  const Field mass = o.optional("mass");
  const Range mass_range{0.0, Limits::max_mass, true, false, nullptr, "the mass limit"};
  if (mass && static_noun) {
    r.error(mass.where, std::string("expected no \"mass\": ") + static_noun + " bodies are static only");
  } else if (mass && r.number(mass, mass_range, d.mass)) {
    if (motion) {
      r.error(motion.where, "expected no \"motion\" on a body with a \"mass\": a dynamic body is moved by the physics");
    }
    if (!name) {
      r.error(body_field.where, "missing required key \"name\" (a dynamic body's trajectory columns are named after it)");
    } else if (!body.name.empty() && !column_safe(body.name)) {
      r.error(name.where, "expected a name of letters, digits, '_' and '-' (a dynamic body's columns are named " +
                              quote(body.name + ".x") + " and so on), got " + quote(body.name));
    }
  }
  r.number(o.optional("friction"), between(0.0, 1000.0), d.friction);
  r.number(o.optional("restitution"), between(0.0, 1.0), d.restitution);
  const Field linear = o.optional("linear_damping"), angular = o.optional("angular_damping");
  const Field velocity = o.optional("velocity"), spin = o.optional("angular_velocity");
  if (body.dynamic()) {
    r.number(linear, between(0.0, 1.0), d.linear_damping);
    r.number(angular, between(0.0, 1.0), d.angular_damping);
    r.numbers(velocity, kSpeed, d.velocity);
    r.numbers(spin, kSpeed, d.angular_velocity);
  } else if (!mass) {
    reject_without_mass(r, linear, "linear_damping");
    reject_without_mass(r, angular, "angular_damping");
    reject_without_mass(r, velocity, "velocity");
    reject_without_mass(r, spin, "angular_velocity");
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
  read_dynamics(r, o, f, static_noun, motion, name, body);
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

/// A dynamic body's name (and another character's) prefixes its trajectory
/// columns (`crate.x`), so it keeps to the characters a column name may hold.
bool column_safe(const std::string& name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

}  // namespace stepslide::loader
