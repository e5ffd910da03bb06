// What the controller's observer costs: the same scenarios run with nothing
// attached (what `run` does), with the per-row hook installed but no observer
// (what `trace` does outside the ticks it traces), and with an observer that
// receives every event. The first two should cost the same: absent, the
// observer is one null test per event.
#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "scenario/run/simulate.h"
#include "stepslide/controller.h"

namespace stepslide::bench {
namespace {

struct CountingObserver : ControllerObserver {
  std::int64_t events = 0;
  void on_depenetration(const DepenetrationEvent&) override { ++events; }
  void on_sweep(const SweepEvent&) override { ++events; }
  void on_ray(const RayEvent&) override { ++events; }
  void on_step_attempt(const StepAttemptEvent&) override { ++events; }
  void on_ground(const GroundEvent&) override { ++events; }
  void on_velocity(const VelocityEvent&) override { ++events; }
};

enum class Observing { None, HookOnly, Attached };

void observer_cost(benchmark::State& state, const std::string& name, Observing observing) {
  const std::optional<Scenario> scenario = load_named(name);
  if (!scenario) {
    state.SkipWithError("scenario not found");
    return;
  }
  CountingObserver counter;
  SimulationOptions options;
  if (observing != Observing::None) {
    options.on_tick = [&](const TickView& view) {
      view.controller.set_observer(observing == Observing::Attached ? &counter : nullptr);
    };
  }
  std::int64_t ticks = 0;
  for (auto _ : state) {
    SimulationResult result = simulate(*scenario, options);
    benchmark::DoNotOptimize(result.trajectory.rows.data());
    ticks += scenario->ticks;
  }
  state.counters["us_per_tick"] = benchmark::Counter(static_cast<double>(ticks) * 1e-6,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["events_per_tick"] =
      ticks > 0 ? static_cast<double>(counter.events) / static_cast<double>(ticks) : 0.0;
}

const bool registered = [] {
  for (const char* name : {"stairs/up_straight", "walls/corner", "platforms/crushed"}) {
    for (const auto& [label, observing] :
         {std::pair{"none", Observing::None}, std::pair{"hook_only", Observing::HookOnly},
          std::pair{"attached", Observing::Attached}}) {
      benchmark::RegisterBenchmark((std::string("observer/") + name + "/" + label).c_str(), observer_cost,
                                   std::string(name), observing)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

}  // namespace
}  // namespace stepslide::bench
