// The input of the controller's libFuzzer target (fuzz/controller/): any
// bytes decode to a bounded scenario, which is simulated with every invariant
// of invariants.h checked on every tick. Two kinds of input:
//   - scenario text: bytes whose first non-blank byte is '{' or '/' are a
//     scenario file (JSON with comments), loaded like one. Every scenario of
//     the repository is an input as it stands, and `stepslide fuzz --to-input`
//     writes one without comments. Ticks are cut to FuzzInputLimits::max_ticks
//     and expectations dropped (the invariants are what is checked). Text the
//     loader refuses, or that names level or mesh files, is skipped.
//   - generator draws: any other bytes drive the random-world generator of
//     `stepslide fuzz` (random_world.h) in place of its seeded engine, each
//     decision reading the next bytes and zeros past the end, so every input
//     makes a valid world and a mutated byte changes one decision.
// No global state: each call builds its own world.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "fuzz/invariants.h"
#include "scenario/scenario.h"
#include "stepslide/expected.h"

namespace stepslide {

/// How long an input may run, so that one input costs milliseconds.
struct FuzzInputLimits {
  std::int64_t min_generated_ticks = 30;
  std::int64_t max_generated_ticks = 240;
  std::int64_t max_ticks = 600;  ///< scenario text runs at most this many ticks
};

enum class FuzzInputKind { ScenarioText, GeneratorDraws };

/// "scenario text" or "generator draws".
const char* fuzz_input_kind_name(FuzzInputKind kind);

/// Which kind `data` is: scenario text when its first non-blank byte is '{' or '/'.
FuzzInputKind fuzz_input_kind(const std::uint8_t* data, std::size_t size);

struct DecodedFuzzInput {
  FuzzInputKind kind = FuzzInputKind::GeneratorDraws;
  /// The scenario to check; empty when the input is skipped.
  std::optional<Scenario> scenario;
  std::string skipped;  ///< why there is no scenario
  /// The generator made a scenario the loader refuses: a bug of the fuzzer
  /// itself (its worlds must always load), which the target reports too.
  bool generator_bug = false;
};

/// Decodes `data` into a scenario within `limits`. Never throws.
DecodedFuzzInput decode_fuzz_input(const std::uint8_t* data, std::size_t size, const FuzzInputLimits& limits = {});

struct FuzzInputCheck {
  DecodedFuzzInput decoded;
  InvariantReport report;  ///< empty when the input was skipped
};

/// Decodes `data` and checks every invariant on every tick of its scenario
/// (the rerun comparison included). What the libFuzzer entry point runs.
FuzzInputCheck check_fuzz_input(const std::uint8_t* data, std::size_t size, const FuzzInputLimits& limits = {});

/// The scenario document an input decodes to, as it is run (ticks cut,
/// expectations dropped), with a description naming `input_label`; when the
/// input breaks an invariant, the description says which at what tick and,
/// where the loader has a matching check, an expectation makes `stepslide
/// run` fail on it too. A failure when the input is skipped.
Expected<nlohmann::ordered_json> fuzz_input_document(const std::string& bytes, const std::string& input_label,
                                                    const FuzzInputLimits& limits = {});

/// The input for scenario file `path`: its text without comments or
/// layout. A failure when the file does not load or names level or mesh
/// files (an input must be self-contained).
Expected<std::string> scenario_to_fuzz_input(const std::string& path);

}  // namespace stepslide
