// The character (docs/format.md §1, settings §1.3): its shape, start position and velocity, the
// controller settings, each checked against the settings table, and the state to resume.

#include "scenario/load/parts.h"

#include <algorithm>
#include <cstdio>

#include "scenario/load/convert.h"

#include "stepslide/settings.h"

namespace stepslide::loader {

namespace {

void read_settings(JsonReader& r, const Field& f, ControllerSettings& settings) {
  if (!r.object(f)) return;
  const Json::Members members = f.value->members();
  std::size_t i = 0;
  for (auto it = members.begin(); it != members.end(); ++it, ++i) {
    const Field value{&it->second, Where::member(f.where, it->first, i)};
    const SettingInfo* info = find_setting(it->first);
    if (!info) {
      r.error(value.where, "unknown setting " + quote(it->first));
      continue;
    }
    const Range range = between(info->min_value, info->max_value);
    if (info->is_integer) {
      int v = 0;
      if (r.integer(value, range, v)) set_setting(settings, *info, v);
    } else {
      double v = 0.0;
      if (r.number(value, range, v)) set_setting(settings, *info, v);
    }
  }
}

/// `state`: the rest of the controller's state at tick 0 (docs/format.md §1).
void read_state(JsonReader& r, const Field& f, ResumeState& state) {
  if (!r.object(f)) return;
  ObjectReader o(r, f);
  Vec3 normal{};
  if (r.numbers(o.optional("ground_normal"), between(-1.0, 1.0), normal)) state.ground_normal = normal;
  r.number(o.optional("camera_dy"), kCoordinate, state.camera_dy);
  r.boolean(o.optional("jump_held"), state.jump_held);
  r.number(o.optional("ground_yaw_deg"), kAngle, state.ground_yaw_deg);
  o.reject_unknown();
}

/// `collides_with`: the layers (0 .. 31) the character collides with, as
/// a mask. Absent: all of them.
void read_layers(JsonReader& r, const Field& f, std::uint32_t& mask) {
  if (!r.array(f)) return;
  mask = 0;
  for (std::size_t i = 0; i < f.value->size(); ++i) {
    int layer = 0;
    if (r.integer(f.item(i), between(0.0, kLayerLimit), layer)) mask |= std::uint32_t{1} << layer;
  }
}

/// `crouch_shape`: any character shape kind, but no taller along up than the
/// standing shape (crouching never needs more headroom than standing; a
/// wider one is allowed).
void read_crouch_shape(JsonReader& r, const Field& f, const ShapeDef& standing, std::optional<ShapeDef>& crouch) {
  if (!f) return;
  ShapeDef shape = default_character_shape();
  read_character_shape(r, f, shape);
  const double stand_height = 2 * feet_to_center(character_shape_desc(standing));
  const double crouch_height = 2 * feet_to_center(character_shape_desc(shape));
  if (crouch_height > stand_height) {
    char message[200];
    std::snprintf(message, sizeof message,
                  "expected a shape no taller than the character's shape (%.6g m along up), got one %.6g m tall",
                  stand_height, crouch_height);
    r.error(f.where, message);
    return;
  }
  crouch = shape;
}

}  // namespace

const Options<Placement> kPlacements = {{"on_floor", Placement::OnFloor}};

void read_character(JsonReader& r, const Field& f, CharacterDef& character, const Vec3& up,
                    std::vector<InputKey>* input) {
  if (!r.object(f)) return;
  character.json_path = f.where.pointer();
  ObjectReader o(r, f);
  if (input != nullptr) {
    // One of "characters": named (its name prefixes its columns), with its own input.
    const Field name = o.required("name");
    if (r.string(name, character.name) && !column_safe(character.name)) {
      r.error(name.where, "expected a non-empty name of letters, digits, '_' and '-' (it prefixes the "
                          "character's trajectory columns), got " + describe(*name.value));
    }
    read_input(r, o.optional("input"), up, *input);
  }
  read_character_shape(r, o.optional("shape"), character.shape);
  read_crouch_shape(r, o.optional("crouch_shape"), character.shape, character.crouch_shape);
  const Field place = o.optional("place");
  // "on_floor" drops the character from a point: without one there is nothing to drop from.
  const Field position = place ? o.required("position") : o.optional("position");
  r.numbers(position, kCoordinate, character.position);
  if (place && r.choice(place, kPlacements, character.place)) character.requested_position = character.position;
  r.numbers(o.optional("velocity"), kSpeed, character.velocity);
  read_settings(r, o.optional("settings"), character.settings);
  read_state(r, o.optional("state"), character.state);
  read_layers(r, o.optional("collides_with"), character.collides_with);
  r.integer(o.optional("layer"), between(0.0, kLayerLimit), character.layer);
  o.reject_unknown();
}

void read_characters(JsonReader& r, const Field& f, Scenario& s) {
  if (!r.array(f)) return;
  if (f.value->size() == 0) {
    r.error(f.where, "expected at least one character (or \"character\" for one)");
    return;
  }
  std::vector<std::pair<std::string, std::string>> first_use;  // name, pointer; few characters
  for (std::size_t i = 0; i < f.value->size(); ++i) {
    const Field item = f.item(i);
    CharacterDef def;
    std::vector<InputKey> input;
    read_character(r, item, def, s.up, &input);
    if (!def.name.empty()) {
      const auto same = std::find_if(first_use.begin(), first_use.end(),
                                     [&](const auto& used) { return used.first == def.name; });
      if (same != first_use.end()) {
        r.error(Where::member(item.where, "name", 0),
                "duplicate character name " + quote(def.name) + ", first used by " + same->second);
      } else {
        first_use.emplace_back(def.name, item.where.pointer());
      }
    }
    if (i == 0) {
      s.character = std::move(def);
      s.input = std::move(input);
    } else {
      s.others.push_back(OtherCharacter{std::move(def), std::move(input)});
    }
  }
}

void check_character_names(JsonReader& r, const Field& f, const Scenario& s) {
  if (!f || !f.value->is_array()) return;
  for (std::size_t i = 0; i < s.character_count() && i < f.value->size(); ++i) {
    const std::string& name = s.character_at(i).name;
    for (const BodyDef& body : s.world) {
      if (body.dynamic() && !name.empty() && body.name == name) {
        r.error(Where::member(f.item(i).where, "name", 0),
                "expected a name no dynamic body has (both prefix trajectory columns), got " + quote(name) +
                    ", the name of " + body.json_path);
      }
    }
  }
}

}  // namespace stepslide::loader
