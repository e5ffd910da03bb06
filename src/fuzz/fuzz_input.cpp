#include "fuzz/fuzz_input.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "base/file_io.h"
#include "fuzz/campaign.h"
#include "fuzz/random.h"
#include "fuzz/random_world.h"
#include "scenario/load/load.h"

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kLabel = "fuzz-input.json";
constexpr const char* kDescription = "random world drawn from the bytes of a libFuzzer input";

bool blank(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Scenario text that may name a file (a level, a mesh, a heightfield image,
/// an included level): skipped unread, so that an input never reads the disk
/// (a path would mean another file on every machine). A key spelled with
/// escapes that still names one is loaded, then skipped.
bool names_files(const std::string& text) {
  return text.find("\"file\"") != std::string::npos || text.find("\"include\"") != std::string::npos;
}

/// The generator's world for `data`, as a document.
Json generated_document(const std::uint8_t* data, std::size_t size, const FuzzInputLimits& limits) {
  FuzzRandom draws = FuzzRandom::from_bytes(data, size);
  FuzzWorldOptions options;
  options.min_ticks = limits.min_generated_ticks;
  options.max_ticks = limits.max_generated_ticks;
  return generate_fuzz_scenario(draws, "fuzz_input", kDescription, options);
}

/// Loads `text` and bounds it; `decoded.skipped` says why when it cannot run.
void load_bounded(const std::string& text, const FuzzInputLimits& limits, DecodedFuzzInput& decoded) {
  LoadResult load = load_scenario_text(text, kLabel);
  if (!load.scenario) {
    decoded.skipped = "the loader refused it: " + (load.errors.empty() ? std::string("?") : format_error(load.errors.front()));
    return;
  }
  if (load.inputs.size() > 1) {
    decoded.skipped = "it names level or mesh files";
    return;
  }
  load.scenario->ticks = std::min(load.scenario->ticks, limits.max_ticks);
  load.scenario->expect.clear();  // their ticks may lie past the cut; the invariants are what is checked
  decoded.scenario = std::move(load.scenario);
}

DecodedFuzzInput decode(const std::uint8_t* data, std::size_t size, const FuzzInputLimits& limits, Json* document) {
  DecodedFuzzInput decoded;
  decoded.kind = fuzz_input_kind(data, size);
  if (decoded.kind == FuzzInputKind::ScenarioText) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (names_files(text)) {
      decoded.skipped = "it names level or mesh files";
      return decoded;
    }
    load_bounded(text, limits, decoded);
    if (decoded.scenario && document != nullptr) {
      *document = Json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
      if (document->is_object()) {
        (*document)["ticks"] = decoded.scenario->ticks;
        document->erase("expect");
      }
    }
    return decoded;
  }
  Json generated = generated_document(data, size, limits);
  load_bounded(generated.dump(), limits, decoded);
  if (!decoded.scenario) {
    decoded.generator_bug = true;
    decoded.skipped = "the generator made an invalid scenario (" + decoded.skipped + ")";
  }
  if (document != nullptr) *document = std::move(generated);
  return decoded;
}

}  // namespace

const char* fuzz_input_kind_name(FuzzInputKind kind) {
  return kind == FuzzInputKind::ScenarioText ? "scenario text" : "generator draws";
}

FuzzInputKind fuzz_input_kind(const std::uint8_t* data, std::size_t size) {
  std::size_t i = 0;
  while (i < size && blank(data[i])) ++i;
  const bool text = i < size && (data[i] == '{' || data[i] == '/');
  return text ? FuzzInputKind::ScenarioText : FuzzInputKind::GeneratorDraws;
}

DecodedFuzzInput decode_fuzz_input(const std::uint8_t* data, std::size_t size, const FuzzInputLimits& limits) {
  try {
    return decode(data, size, limits, nullptr);
  } catch (const std::exception& e) {
    DecodedFuzzInput decoded;
    decoded.kind = fuzz_input_kind(data, size);
    decoded.skipped = std::string("decoding threw: ") + e.what();
    return decoded;
  }
}

FuzzInputCheck check_fuzz_input(const std::uint8_t* data, std::size_t size, const FuzzInputLimits& limits) {
  FuzzInputCheck check;
  check.decoded = decode_fuzz_input(data, size, limits);
  if (check.decoded.scenario) check.report = check_invariants(*check.decoded.scenario);
  return check;
}

Expected<nlohmann::ordered_json> fuzz_input_document(const std::string& bytes, const std::string& input_label,
                                                    const FuzzInputLimits& limits) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  Json document;
  DecodedFuzzInput decoded;
  try {
    decoded = decode(data, bytes.size(), limits, &document);
  } catch (const std::exception& e) {
    return Expected<Json>::failure(std::string("decoding threw: ") + e.what());
  }
  if (!decoded.scenario) return Expected<Json>::failure("input skipped: " + decoded.skipped);
  if (!document.is_object()) return Expected<Json>::failure("the scenario text is not a JSON object");
  const std::string origin = "Decoded by `stepslide fuzz --from-input " + input_label + "` (" +
                             fuzz_input_kind_name(decoded.kind) + ")";
  const InvariantReport report = check_invariants(*decoded.scenario);
  if (report.ok()) {
    document["description"] = origin + "; no invariant broken.";
    return document;
  }
  const Violation& first = report.violations.front();
  Json finding = finding_document(document, 0, first, "not shrunk");
  finding["name"] = "fuzz_input_" + std::string(invariant_name(first.kind));
  finding["description"] = origin + ": " + invariant_name(first.kind) + " at tick " + std::to_string(first.tick) +
                           ": " + first.message + ". Replay with `stepslide fuzz --replay FILE`.";
  return finding;
}

Expected<std::string> scenario_to_fuzz_input(const std::string& path) {
  const LoadResult load = load_scenario_file(path);
  if (!load.scenario) return Expected<std::string>::failure(format_load_errors(load));
  if (load.inputs.size() > 1) {
    return Expected<std::string>::failure(path + ": names level or mesh files (" + load.inputs[1].path +
                                          "); a fuzz input must hold the whole scenario");
  }
  const Expected<std::string> text = read_file(path);
  if (!text.ok()) return Expected<std::string>::failure(path + ": " + text.error());
  const Json document = Json::parse(*text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (!document.is_object()) return Expected<std::string>::failure(path + ": not a JSON object");
  const std::string input = document.dump();
  if (names_files(input)) {
    return Expected<std::string>::failure(path + ": has a \"file\" or \"include\" key; a fuzz input must hold the whole scenario");
  }
  return input;
}

}  // namespace stepslide
