// The world (docs/format.md §1.1): its bodies, each a shape placed, rotated and
// perhaps moving, with unique names, within the body limit.

#include <algorithm>

#include "scenario/load_parts.h"

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

void read_body(JsonReader& r, const Field& f, BodyDef& body, WorldBudget& budget) {
  if (!r.object(f)) return;
  body.json_path = f.where.pointer();
  ObjectReader o(r, f);
  const Field name = o.optional("name");
  if (r.string(name, body.name)) check_name(r, name, body, budget);
  const bool shape_known = read_body_shape(r, o.required("shape"), body.shape, budget);
  count_body(r, f, body.shape, budget);
  r.numbers(o.optional("position"), kCoordinate, body.position);
  r.numbers(o.optional("rotation_deg"), kAngle, body.rotation_deg);
  const Field motion = o.optional("motion");
  const char* static_noun = shape_known ? static_only_noun(body.shape.type) : nullptr;
  if (motion && static_noun) {
    r.error(motion.where, std::string("expected no \"motion\": ") + static_noun + " bodies are static only");
  } else {
    read_motion(r, motion, body.motion);
  }
  o.reject_unknown();
}

}  // namespace

void read_world(JsonReader& r, const Field& f, std::vector<BodyDef>& world) {
  if (!r.array(f)) return;
  if (f.value->size() > static_cast<std::size_t>(Limits::max_bodies)) {
    r.error(f.where, "expected at most " + std::to_string(Limits::max_bodies) + " bodies (the body limit), got " +
                         JsonReader::describe_count(*f.value));
    return;
  }
  WorldBudget budget;
  world.resize(f.value->size());
  for (std::size_t i = 0; i < world.size(); ++i) read_body(r, f.item(i), world[i], budget);
}

}  // namespace stepslide::loader
