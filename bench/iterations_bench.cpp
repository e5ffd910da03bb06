// The iteration trade-off: max_slide_iterations x step_up_slide_iterations on
// the scenarios where running out of iterations shows (a corner, stairs beside
// a wall, an acute seam). Cost counters as for scenario/..., and quality
// against the most generous setting of the grid (8 slide, 4 step-up):
//   distance_lost_m: horizontal path length the reference covered and this
//     setting did not (negative: this one went further);
//   end_error_m: distance between the two final feet positions;
//   stuck_ticks: ticks where the reference moved at least 1 mm sideways and
//     this setting less than a tenth of that.
#include <cmath>
#include <map>
#include <memory>

#include "bench_support.h"

namespace stepslide::bench {

namespace {

constexpr int kReferenceSlide = 8;
constexpr int kReferenceStepUp = 4;

const char* const kScenarios[] = {"walls/corner", "stairs/beside_wall_diagonal", "walls/acute_seam"};

struct Path {
  std::vector<double> x, z;
};

Path path_of(const Trajectory& t) {
  Path p;
  const int x = t.column_index("x"), z = t.column_index("z");
  for (const auto& row : t.rows) {
    p.x.push_back(row[static_cast<std::size_t>(x)]);
    p.z.push_back(row[static_cast<std::size_t>(z)]);
  }
  return p;
}

double step_length(const Path& p, std::size_t i) { return std::hypot(p.x[i] - p.x[i - 1], p.z[i] - p.z[i - 1]); }

double length_of(const Path& p) {
  double length = 0.0;
  for (std::size_t i = 1; i < p.x.size(); ++i) length += step_length(p, i);
  return length;
}

Scenario with_iterations(Scenario scenario, int slide, int step_up) {
  scenario.character.settings.max_slide_iterations = slide;
  scenario.character.settings.step_up_slide_iterations = step_up;
  return scenario;
}

void iteration_tradeoff(benchmark::State& state, const std::shared_ptr<const Scenario>& base,
                        const std::shared_ptr<const Path>& reference) {
  const Scenario scenario =
      with_iterations(*base, static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  RunTally tally;
  Path path;
  for (auto _ : state) {
    const SimulationResult result = run_and_tally(scenario, ControllerKind::Stepslide, &tally);
    state.SetIterationTime(result.update_seconds);
    path = path_of(result.trajectory);
  }
  set_cost_counters(state, tally);
  const std::size_t last = path.x.size() - 1;
  int stuck = 0;
  for (std::size_t i = 1; i <= last; ++i) {
    const double wanted = step_length(*reference, i);
    if (wanted >= 1e-3 && step_length(path, i) < 0.1 * wanted) ++stuck;
  }
  state.counters["distance_lost_m"] = length_of(*reference) - length_of(path);
  state.counters["end_error_m"] = std::hypot(path.x[last] - reference->x[last], path.z[last] - reference->z[last]);
  state.counters["stuck_ticks"] = stuck;
}

}  // namespace

void register_iteration_benchmarks() {
  for (const char* name : kScenarios) {
    std::optional<Scenario> loaded = load_named(name);
    if (!loaded) continue;
    const auto base = std::make_shared<const Scenario>(std::move(*loaded));
    const auto reference = std::make_shared<const Path>(
        path_of(simulate(with_iterations(*base, kReferenceSlide, kReferenceStepUp)).trajectory));
    with_min_statistic(benchmark::RegisterBenchmark(("iterations/" + std::string(name)).c_str(), iteration_tradeoff,
                                                    base, reference))
        ->ArgsProduct({{1, 2, 3, 4, 6, 8}, {0, 1, 2, 4}})
        ->ArgNames({"slide", "step_up"})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace stepslide::bench
