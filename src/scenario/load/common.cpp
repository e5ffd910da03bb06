// Values more than one part of a scenario reads: directions (the document's
// "up", a spin axis) and the strictly increasing ticks of keyframes (motion
// keys, input keys).

#include <algorithm>

#include "scenario/load/parts.h"

namespace stepslide::loader {

namespace {

/// Direction vectors ("up", a spin axis) and gravity shorter than this count as zero.
constexpr double kMinVectorLength = 1e-12;

std::string format_vector(const Vec3& v) {
  return "[" + number_text(v[0]) + ", " + number_text(v[1]) + ", " + number_text(v[2]) + "]";
}

}  // namespace

bool normalize(const Vec3& v, Vec3& out) {
  const double len = length(v);
  if (!(len >= kMinVectorLength)) return false;
  out = {v[0] / len, v[1] / len, v[2] / len};
  return true;
}

bool read_direction(JsonReader& r, const Field& f, Vec3& out) {
  Vec3 v{};
  if (!r.numbers(f, kCoordinate, v)) return false;
  if (normalize(v, out)) return true;
  r.error(f.where, "expected a non-zero vector, got " + format_vector(v));
  return false;
}

void require_increasing(JsonReader& r, const Field& tick_field, std::int64_t tick, std::int64_t& latest,
                        const char* note) {
  if (latest >= 0 && tick <= latest) r.within(tick_field, above(static_cast<double>(latest), note), "an integer");
  latest = std::max(latest, tick);
}

}  // namespace stepslide::loader
