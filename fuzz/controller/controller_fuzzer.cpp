// libFuzzer target for the controller: any bytes decode to a bounded world,
// character, settings and input track (fuzz/fuzz_input.h: scenario text, or
// the draws of the random-world generator), and every invariant of
// fuzz/invariants.h is checked on every tick, the rerun's byte-identity too.
// A violation aborts with the invariant, the tick and the message, so
// libFuzzer saves the input; `stepslide fuzz --from-input FILE -o x.json`
// turns it into a scenario. Each input builds its own world: no state is kept
// between inputs.
//
// Built with -fsanitize=fuzzer when STEPSLIDE_FUZZ=ON (clang), and always with
// replay_main.cpp as stepslide_controller_fuzz_replay, which the ctest test
// `fuzz/controller-corpus` runs over the seed corpus and committed crashes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const stepslide::FuzzInputCheck check = stepslide::check_fuzz_input(data, size);
  if (check.decoded.generator_bug) {
    std::fprintf(stderr, "controller fuzzer: %s\n", check.decoded.skipped.c_str());
    std::abort();
  }
  if (!check.report.failing()) return 0;  // open invariants are counted by `stepslide fuzz`, not trapped
  for (const stepslide::Violation& v : check.report.violations) {
    std::fprintf(stderr, "controller fuzzer: invariant %s broken at tick %lld (%s): %s\n",
                 stepslide::invariant_name(v.kind), static_cast<long long>(v.tick),
                 stepslide::fuzz_input_kind_name(check.decoded.kind), v.message.c_str());
  }
  std::abort();
}
