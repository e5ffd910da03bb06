#include "fuzz/shrink.h"

#include <string>
#include <vector>

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;

class Shrinker {
 public:
  Shrinker(Json scenario, std::int64_t failing_tick, const FailsAt& fails_at, const ShrinkOptions& options)
      : best_(std::move(scenario)), tick_(failing_tick), fails_at_(fails_at), options_(options) {}

  ShrinkResult run() {
    cut_ticks();
    bool progress = true;
    for (int round = 0; round < 8 && progress && budget_left(); ++round) {
      progress = false;
      progress |= drop_items({"world"});
      progress |= drop_items({"characters"});  // a candidate without any fails to load, and is not kept
      progress |= simplify_bodies();
      progress |= drop_items({"input"});
      progress |= drop_input_fields();
      progress |= drop_keys({"character", "settings"});
      progress |= drop_keys({"character"}, {"velocity", "shape", "settings"});
      progress |= drop_keys({}, {"gravity", "tick_rate"});
    }
    return ShrinkResult{best_, tick_, attempts_};
  }

 private:
  bool budget_left() const { return attempts_ < options_.max_attempts; }

  /// Keeps `candidate` when it still fails; then cuts the ticks after the failure.
  bool try_candidate(const Json& candidate) {
    if (!budget_left()) return false;
    ++attempts_;
    const std::optional<std::int64_t> tick = fails_at_(candidate);
    if (!tick) return false;
    best_ = candidate;
    tick_ = *tick;
    cut_ticks();
    return true;
  }

  /// Ticks after the failing row cannot matter; neither can input keyframes
  /// from that row on (keyframe N drives the step from row N to N+1).
  void cut_ticks() {
    if (tick_ < 1 || !best_.contains("ticks") || best_["ticks"].get<std::int64_t>() <= tick_) return;
    Json candidate = best_;
    candidate["ticks"] = tick_;
    if (candidate.contains("input")) {
      Json kept = Json::array();
      for (const Json& key : candidate["input"]) {
        if (key["tick"].get<std::int64_t>() < tick_) kept.push_back(key);
      }
      candidate["input"] = kept;
    }
    if (!budget_left()) return;
    ++attempts_;
    const std::optional<std::int64_t> tick = fails_at_(candidate);
    if (!tick) return;  // failing needs the later ticks after all (e.g. a rerun difference)
    best_ = candidate;
    tick_ = *tick;
  }

  /// The object at `path` in `document` (created when missing).
  static Json& at(Json& document, const std::vector<std::string>& path) {
    Json* node = &document;
    for (const std::string& key : path) node = &(*node)[key];
    return *node;
  }
  bool has(const std::vector<std::string>& path) const {
    const Json* node = &best_;
    for (const std::string& key : path) {
      if (!node->is_object() || !node->contains(key)) return false;
      node = &(*node)[key];
    }
    return true;
  }

  /// Tries removing each element of the array at `path`, last first.
  bool drop_items(const std::vector<std::string>& path) {
    bool progress = false;
    if (!has(path)) return false;
    for (std::size_t i = at(best_, path).size(); i-- > 0;) {
      if (i >= at(best_, path).size()) continue;  // a tick cut removed it already
      Json candidate = best_;
      at(candidate, path).erase(i);
      progress |= try_candidate(candidate);
    }
    return progress;
  }

  /// Tries removing each key of the object at `path` (only `only` when given).
  bool drop_keys(const std::vector<std::string>& path, const std::vector<std::string>& only = {}) {
    if (!path.empty() && !has(path)) return false;
    std::vector<std::string> keys = only;
    if (keys.empty()) {
      for (const auto& item : at(best_, path).items()) keys.push_back(item.key());
    }
    bool progress = false;
    for (const std::string& key : keys) {
      if (!at(best_, path).contains(key)) continue;
      Json candidate = best_;
      at(candidate, path).erase(key);
      progress |= try_candidate(candidate);
    }
    return progress;
  }

  /// Static instead of moving, unrotated, fewer motion keys.
  bool simplify_bodies() {
    bool progress = false;
    if (!has({"world"})) return false;
    for (std::size_t i = 0; i < best_["world"].size(); ++i) {
      for (const char* key : {"motion", "rotation_deg", "name"}) {
        if (i >= best_["world"].size() || !best_["world"][i].contains(key)) continue;
        Json candidate = best_;
        candidate["world"][i].erase(key);
        progress |= try_candidate(candidate);
      }
      if (i >= best_["world"].size()) continue;
      const Json& motion = best_["world"][i].value("motion", Json::object());
      if (!motion.contains("keys")) continue;
      for (std::size_t k = motion["keys"].size(); k-- > 1;) {
        if (k >= best_["world"][i]["motion"]["keys"].size()) continue;
        Json candidate = best_;
        candidate["world"][i]["motion"]["keys"].erase(k);
        progress |= try_candidate(candidate);
      }
    }
    return progress;
  }

  bool drop_input_fields() {
    bool progress = false;
    if (!has({"input"})) return false;
    for (std::size_t i = 0; i < best_["input"].size(); ++i) {
      for (const char* field : {"move", "wish_velocity", "yaw_deg", "jump"}) {
        if (i >= best_["input"].size() || !best_["input"][i].contains(field)) continue;
        Json candidate = best_;
        candidate["input"][i].erase(field);
        progress |= try_candidate(candidate);
      }
    }
    return progress;
  }

  Json best_;
  std::int64_t tick_;
  const FailsAt& fails_at_;
  ShrinkOptions options_;
  int attempts_ = 0;
};

}  // namespace

ShrinkResult shrink_scenario(nlohmann::ordered_json scenario, std::int64_t failing_tick, const FailsAt& fails_at,
                             const ShrinkOptions& options) {
  return Shrinker(std::move(scenario), failing_tick, fails_at, options).run();
}

}  // namespace stepslide
