#include "gate/commands/floor_survey.h"

#include <algorithm>
#include <cmath>

#include "base/format.h"
#include "scenario/load/floor_probe.h"
#include "scenario/load/world.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

/// Two floors of neighbouring cells go on into each other when their heights
/// differ by no more than their slope explains over one cell, plus this.
constexpr double kContinuitySlack = 0.02;

/// The extent of all bodies on X and Z (their bounding boxes at tick 0).
void extent_xz(World& world, double& x0, double& z0, double& x1, double& z1) {
  btCollisionWorld* collision = world.collision_world();
  x0 = z0 = 1e300;
  x1 = z1 = -1e300;
  for (int i = 0; i < collision->getNumCollisionObjects(); ++i) {
    const btCollisionObject* object = collision->getCollisionObjectArray()[i];
    btVector3 lo, hi;
    object->getCollisionShape()->getAabb(object->getWorldTransform(), lo, hi);
    x0 = std::min(x0, static_cast<double>(lo.x()));
    z0 = std::min(z0, static_cast<double>(lo.z()));
    x1 = std::max(x1, static_cast<double>(hi.x()));
    z1 = std::max(z1, static_cast<double>(hi.z()));
  }
  if (x0 > x1) x0 = z0 = x1 = z1 = 0.0;
}

bool continuous(const SurveyFloor& a, const SurveyFloor& b, double pitch) {
  const double slope = std::min(std::max(a.slope_deg, b.slope_deg), 89.0) * kDegToRad;
  return std::abs(a.y - b.y) <= pitch * std::tan(slope) + kContinuitySlack;
}

/// What `floor` of one cell meets in the neighbouring cell `other`.
enum class Meets { Floor, StepDown, StepUp, Edge };

Meets meets(const SurveyFloor& floor, const std::vector<SurveyFloor>& other, double pitch, double& riser) {
  double below = -1.0;
  bool above = false;
  for (const SurveyFloor& g : other) {
    if (continuous(floor, g, pitch)) return Meets::Floor;
    const double d = floor.y - g.y;
    if (d > 0.0 && d <= kSurveyMaxRiser && (below < 0.0 || d < below)) below = d;
    if (d < 0.0 && -d <= kSurveyMaxRiser) above = true;
  }
  if (below > 0.0) {
    riser = below;
    return Meets::StepDown;
  }
  return above ? Meets::StepUp : Meets::Edge;
}

void add_edges(FloorSurvey& survey, int i, int j, int di, int dj) {
  const auto& a = survey.floors[static_cast<std::size_t>(j) * survey.nx + i];
  const auto& b = survey.floors[static_cast<std::size_t>(j + dj) * survey.nx + i + di];
  // The side the two cells share.
  const double x0 = survey.x0 + (i + di) * survey.pitch, z0 = survey.z0 + (j + dj) * survey.pitch;
  const double x1 = x0 + (di == 0 ? survey.pitch : 0.0), z1 = z0 + (dj == 0 ? survey.pitch : 0.0);
  auto look = [&](const std::vector<SurveyFloor>& from, const std::vector<SurveyFloor>& to) {
    for (const SurveyFloor& f : from) {
      double riser = 0.0;
      const Meets m = meets(f, to, survey.pitch, riser);
      if (m == Meets::Floor || m == Meets::StepUp) continue;  // a step up is the other floor's step down
      SurveyEdge edge{x0, z0, x1, z1, f.y, riser, m == Meets::StepDown};
      if (edge.step) ++survey.risers[static_cast<std::int64_t>(std::llround(riser * 1000.0))];
      survey.edges.push_back(edge);
    }
  };
  look(a, b);
  look(b, a);
}

}  // namespace

FloorSurvey survey_floors(World& world, const Scenario& scenario, const SurveyOptions& options) {
  FloorSurvey survey;
  survey.max_step_height = scenario.character.settings.max_step_height;
  survey.max_slope_deg = scenario.character.settings.max_slope_deg;
  double x0, z0, x1, z1;
  extent_xz(world, x0, z0, x1, z1);
  const double longer = std::max(x1 - x0, z1 - z0);
  survey.pitch = options.pitch > 0.0 ? options.pitch : std::max(kSurveyMinPitch, longer / kSurveyMaxCells);
  survey.nx = std::max(1, static_cast<int>(std::ceil((x1 - x0) / survey.pitch)));
  survey.nz = std::max(1, static_cast<int>(std::ceil((z1 - z0) / survey.pitch)));
  // Centred on the extent, so the cells overhang both sides alike.
  survey.x0 = 0.5 * (x0 + x1) - 0.5 * survey.nx * survey.pitch;
  survey.z0 = 0.5 * (z0 + z1) - 0.5 * survey.nz * survey.pitch;
  survey.floors.resize(static_cast<std::size_t>(survey.nx) * survey.nz);
  bool any = false;
  for (int j = 0; j < survey.nz; ++j) {
    for (int i = 0; i < survey.nx; ++i) {
      auto& cell = survey.floors[static_cast<std::size_t>(j) * survey.nx + i];
      for (const FloorHit& hit : floors_under(world, scenario, survey.centre_x(i), survey.centre_z(j))) {
        if (!hit.walkable) continue;
        const double y = hit.point[1];
        if ((options.below && y > *options.below) || (options.above && y < *options.above)) continue;
        cell.push_back({y, hit.slope_deg});
      }
      std::reverse(cell.begin(), cell.end());  // floors_under lists top to bottom
      for (const SurveyFloor& f : cell) {
        survey.lowest = any ? std::min(survey.lowest, f.y) : f.y;
        survey.highest = any ? std::max(survey.highest, f.y) : f.y;
        any = true;
      }
    }
  }
  for (int j = 0; j < survey.nz; ++j) {
    for (int i = 0; i < survey.nx; ++i) {
      if (i + 1 < survey.nx) add_edges(survey, i, j, 1, 0);
      if (j + 1 < survey.nz) add_edges(survey, i, j, 0, 1);
    }
  }
  return survey;
}

std::vector<FloorLevel> floor_levels(const FloorSurvey& survey, double min_area) {
  std::map<std::int64_t, std::int64_t> cells;  // centimetres -> cells
  for (const auto& cell : survey.floors) {
    for (const SurveyFloor& f : cell) ++cells[static_cast<std::int64_t>(std::llround(f.y * 100.0))];
  }
  std::vector<FloorLevel> levels;
  const double cell_area = survey.pitch * survey.pitch;
  for (const auto& [cm, count] : cells) {
    const double area = static_cast<double>(count) * cell_area;
    if (area >= min_area) levels.push_back({static_cast<double>(cm) / 100.0, area});
  }
  return levels;
}

std::string riser_summary(const FloorSurvey& survey, std::size_t most) {
  std::vector<std::pair<std::int64_t, std::int64_t>> byCount(survey.risers.begin(), survey.risers.end());
  std::stable_sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (byCount.empty()) return "none";
  std::string text;
  for (std::size_t k = 0; k < byCount.size() && k < most; ++k) {
    if (!text.empty()) text += ", ";
    text += readable_number(static_cast<double>(byCount[k].first) / 1000.0) + " m x" + std::to_string(byCount[k].second);
  }
  if (byCount.size() > most) text += ", ...";
  return text;
}

std::optional<double> common_riser_over_step(const FloorSurvey& survey) {
  std::optional<double> best;
  std::int64_t best_count = 0;
  for (const auto& [mm, count] : survey.risers) {
    const double h = static_cast<double>(mm) / 1000.0;
    if (h > survey.max_step_height && count > best_count) {
      best = h;
      best_count = count;
    }
  }
  return best;
}

std::vector<FloorRegion> floor_regions(const FloorSurvey& survey) {
  // Flood fill over (cell, floor index) through continuous neighbours.
  std::vector<std::size_t> first(survey.floors.size() + 1, 0);
  for (std::size_t c = 0; c < survey.floors.size(); ++c) first[c + 1] = first[c] + survey.floors[c].size();
  std::vector<bool> seen(first.back(), false);
  std::vector<FloorRegion> regions;
  const double cell_area = survey.pitch * survey.pitch;
  for (std::size_t c = 0; c < survey.floors.size(); ++c) {
    for (std::size_t k = 0; k < survey.floors[c].size(); ++k) {
      if (seen[first[c] + k]) continue;
      FloorRegion region;
      std::vector<std::pair<std::size_t, std::size_t>> stack{{c, k}};
      seen[first[c] + k] = true;
      while (!stack.empty()) {
        const auto [cell, index] = stack.back();
        stack.pop_back();
        const SurveyFloor& f = survey.floors[cell][index];
        region.cells.emplace_back(static_cast<std::int64_t>(cell), f.y);
        const int i = static_cast<int>(cell % survey.nx), j = static_cast<int>(cell / survey.nx);
        const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (const auto& s : steps) {
          const int ni = i + s[0], nj = j + s[1];
          if (ni < 0 || nj < 0 || ni >= survey.nx || nj >= survey.nz) continue;
          const std::size_t n = static_cast<std::size_t>(nj) * survey.nx + ni;
          for (std::size_t m = 0; m < survey.floors[n].size(); ++m) {
            if (seen[first[n] + m] || !continuous(f, survey.floors[n][m], survey.pitch)) continue;
            seen[first[n] + m] = true;
            stack.emplace_back(n, m);
          }
        }
      }
      std::sort(region.cells.begin(), region.cells.end());
      region.area = static_cast<double>(region.cells.size()) * cell_area;
      regions.push_back(std::move(region));
    }
  }
  std::stable_sort(regions.begin(), regions.end(),
                   [](const FloorRegion& a, const FloorRegion& b) { return a.cells.size() > b.cells.size(); });
  return regions;
}

}  // namespace stepslide
