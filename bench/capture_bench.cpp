// What the capture recorder costs a game: the capture tests' course (static
// shapes, a sliding platform, a turntable; tests/capture/game_rig.h) stepped
// 600 ticks through the recorder against the controller alone, both with the
// world moving first; and writing the scenario of 10 s of history.
#include <benchmark/benchmark.h>

#include "capture/game_rig.h"

namespace stepslide::bench {
namespace {

using test::GameRig;

void run_course(benchmark::State& state, bool recording) {
  std::int64_t ticks = 0;
  for (auto _ : state) {
    state.PauseTiming();
    GameRig rig;
    test::build_course(rig);
    CaptureConfig config;
    config.window_seconds = 10;
    rig.start(btVector3(0.3, 0.2, 1.5), config);
    state.ResumeTiming();
    for (int t = 0; t < 600; ++t) {
      if (recording) {
        rig.tick(test::course_input(t));
      } else {
        rig.tick_without_recorder(test::course_input(t));
      }
    }
    ticks += 600;
  }
  state.counters["per_tick"] =
      benchmark::Counter(static_cast<double>(ticks), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_CAPTURE(run_course, controller_alone, false)->Name("capture/course/controller")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_course, through_recorder, true)->Name("capture/course/recorder")->Unit(benchmark::kMillisecond);

void write_scenario(benchmark::State& state) {
  GameRig rig;
  test::build_course(rig);
  CaptureConfig config;
  config.window_seconds = 10;
  rig.start(btVector3(0.3, 0.2, 1.5), config);
  for (int t = 0; t < 600; ++t) rig.tick(test::course_input(t));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const Expected<std::string> text = rig.recorder().scenario_text();
    if (!text) {
      state.SkipWithError(text.error().c_str());
      return;
    }
    bytes = text->size();
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(write_scenario)->Name("capture/scenario_text/10s")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace stepslide::bench
