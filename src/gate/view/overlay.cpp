#include "gate/view/overlay.h"

#include <string>

#include "gate/trace/trace.h"

namespace stepslide::view {

namespace {

btVector3 vec(const Json& j) { return btVector3(j[0].get<double>(), j[1].get<double>(), j[2].get<double>()); }

/// null when a coordinate cannot be packed (not finite, or beyond 2^53 / 10^digits): then it is not drawn.
Json point(const btVector3& p) {
  for (int axis = 0; axis < 3; ++axis) {
    if (!quantisable(p[axis], kGeometryDigits)) return nullptr;
  }
  return encode_point(p, kGeometryDigits);
}

Json overlay_event(const Json& e) {
  const std::string kind = e["event"];
  Json out{{"text", trace_event_text(e)}, {"event", kind}};
  if (kind == "sweep" || kind == "ray") {
    out["purpose"] = e["purpose"];
    out["from"] = point(vec(e["from"]));
    out["to"] = point(vec(e["to"]));
    out["hit"] = e["hit"];
    if (!e["hit"].get<bool>()) return out;
    if (kind == "sweep") {
      const btVector3 from = vec(e["from"]), to = vec(e["to"]);
      out["reached"] = point(from + (to - from) * e["fraction"].get<double>());
    }
    if (e.contains("point")) out["point"] = point(vec(e["point"]));
    out["normal"] = point(vec(e["normal"]));
  } else if (kind == "step-up") {
    out["from"] = point(vec(e["from"]));
    out["to"] = point(vec(e["from"]) + vec(e["forward"]));
    out["accepted"] = e["accepted"];
  } else if (kind == "depenetration") {
    Json normals = Json::array();
    for (const Json& overlap : e["overlaps"]) normals.push_back(point(vec(overlap["normal"])));
    out["normals"] = normals;
    out["correction"] = point(vec(e["correction"]));
  } else if (kind == "ground" && e["found"].get<bool>()) {
    out["normal"] = point(vec(e["normal"]));
  }
  return out;
}

}  // namespace

Json overlay_events(const Json& events) {
  Json out = Json::array();
  for (const Json& e : events) out.push_back(overlay_event(e));
  return out;
}

}  // namespace stepslide::view
