// The controller's libFuzzer input (fuzz/fuzz_input.h): any bytes decode to a
// bounded scenario that loads, scenario files are inputs as they stand, and
// the converters go both ways.
#include "fuzz/fuzz_input.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/random.h"
#include "scenario/load/load.h"

namespace stepslide {
namespace {

const std::uint8_t* bytes_of(const std::string& text) { return reinterpret_cast<const std::uint8_t*>(text.data()); }

std::string scenario_file(const std::string& relative) {
  return std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/" + relative;
}

TEST(FuzzRandomFromBytes, DrawsReadTheBytesInOrderThenZeros) {
  const std::vector<std::uint8_t> data = {7, 0x34, 0x12, 200, 0xff, 0xff};
  FuzzRandom r = FuzzRandom::from_bytes(data.data(), data.size());
  EXPECT_EQ(r.integer(0, 99), 7);                // one byte for 100 values
  EXPECT_EQ(r.integer(0, 0xffff), 0x1234);       // two bytes, little-endian
  EXPECT_EQ(r.integer(10, 10), 10);              // a single choice reads nothing
  EXPECT_EQ(r.integer(0, 9), 200 % 10);
  EXPECT_DOUBLE_EQ(r.unit(), 65535.0 / 65536.0);  // two bytes; below 1
  EXPECT_EQ(r.bytes_read(), data.size());
  EXPECT_EQ(r.integer(-5, 5), -5);  // past the end: zeros
  EXPECT_EQ(r.unit(), 0.0);
  EXPECT_EQ(r.bytes_read(), data.size());
}

TEST(FuzzRandomFromBytes, IntegersStayInTheirRangeWhateverTheBytes) {
  std::vector<std::uint8_t> data(4096);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 37 + 11);
  FuzzRandom r = FuzzRandom::from_bytes(data.data(), data.size());
  for (int i = 0; i < 500; ++i) {
    const std::int64_t lo = -i, hi = i * 1000 + 3;
    const std::int64_t value = r.integer(lo, hi);
    EXPECT_GE(value, lo);
    EXPECT_LE(value, hi);
    const double u = r.unit();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

TEST(FuzzInput, AnyBytesMakeABoundedWorldThatLoads) {
  const FuzzInputLimits limits;
  std::vector<std::string> inputs = {"", std::string(64, '\0'), std::string(300, '\xff'), "abc"};
  std::string noise;
  for (int i = 0; i < 2000; ++i) noise.push_back(static_cast<char>((i * 7919) % 251));
  inputs.push_back(noise);
  for (const std::string& input : inputs) {
    const DecodedFuzzInput decoded = decode_fuzz_input(bytes_of(input), input.size(), limits);
    EXPECT_EQ(decoded.kind, FuzzInputKind::GeneratorDraws);
    ASSERT_TRUE(decoded.scenario.has_value()) << decoded.skipped;
    EXPECT_FALSE(decoded.generator_bug);
    EXPECT_GE(decoded.scenario->ticks, limits.min_generated_ticks);
    EXPECT_LE(decoded.scenario->ticks, limits.max_generated_ticks);
  }
}

TEST(FuzzInput, TheSameBytesMakeTheSameWorldAndOneByteChangesIt) {
  std::string input(512, '\0');
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<char>(i * 13 + 5);
  const Expected<nlohmann::ordered_json> a = fuzz_input_document(input, "a");
  const Expected<nlohmann::ordered_json> b = fuzz_input_document(input, "a");
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a->dump(), b->dump());
  input[1] = static_cast<char>(input[1] + 1);
  const Expected<nlohmann::ordered_json> c = fuzz_input_document(input, "a");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_NE(a->dump(), c->dump());
}

TEST(FuzzInput, AScenarioFileIsAnInputAsItStandsAndConvertsBothWays) {
  const std::string path = scenario_file("stairs/up_straight.json");
  const LoadResult original = load_scenario_file(path);
  ASSERT_TRUE(original.scenario.has_value());

  const Expected<std::string> input = scenario_to_fuzz_input(path);
  ASSERT_TRUE(input.ok()) << input.error();
  ASSERT_EQ(input->front(), '{');
  EXPECT_EQ(input->find('\n'), std::string::npos);  // no layout, no comments
  const DecodedFuzzInput decoded = decode_fuzz_input(bytes_of(*input), input->size());
  EXPECT_EQ(decoded.kind, FuzzInputKind::ScenarioText);
  ASSERT_TRUE(decoded.scenario.has_value()) << decoded.skipped;
  EXPECT_EQ(decoded.scenario->ticks, original.scenario->ticks);
  EXPECT_TRUE(decoded.scenario->expect.empty());
  EXPECT_EQ(decoded.scenario->world.size(), original.scenario->world.size());

  // Back to a scenario document: it loads, and as an input again it is the same run.
  const Expected<nlohmann::ordered_json> document = fuzz_input_document(*input, "up_straight.input");
  ASSERT_TRUE(document.ok()) << document.error();
  EXPECT_FALSE(document->contains("expect"));
  const std::string again = document->dump();
  const DecodedFuzzInput redecoded = decode_fuzz_input(bytes_of(again), again.size());
  ASSERT_TRUE(redecoded.scenario.has_value()) << redecoded.skipped;
  EXPECT_EQ(redecoded.scenario->ticks, decoded.scenario->ticks);
}

TEST(FuzzInput, ScenarioTextIsCutToTheTickLimitAndMayStartWithACommentOrBlank) {
  const std::string text =
      "  // a comment first\n{\"format\": \"stepslide/scenario@1\", \"ticks\": 5000, \"world\": "
      "[{\"shape\": {\"type\": \"box\", \"half_extents\": [5, 0.5, 5]}, \"position\": [0, -0.5, 0]}]}";
  FuzzInputLimits limits;
  limits.max_ticks = 50;
  const DecodedFuzzInput decoded = decode_fuzz_input(bytes_of(text), text.size(), limits);
  EXPECT_EQ(decoded.kind, FuzzInputKind::ScenarioText);
  ASSERT_TRUE(decoded.scenario.has_value()) << decoded.skipped;
  EXPECT_EQ(decoded.scenario->ticks, 50);
  const FuzzInputCheck check = check_fuzz_input(bytes_of(text), text.size(), limits);
  EXPECT_TRUE(check.report.ok()) << format_violations(check.report);
  EXPECT_EQ(check.report.ticks_checked, 50);
}

TEST(FuzzInput, TextThatDoesNotLoadOrNamesFilesIsSkippedNotReported) {
  for (const std::string& text : {std::string("{\"format\": 1"), std::string("{}"),
                                 std::string("{\"format\": \"stepslide/scenario@1\", \"world\": [{\"shape\": "
                                             "{\"type\": \"mesh\", \"file\": \"/etc/passwd\"}}]}")}) {
    const FuzzInputCheck check = check_fuzz_input(bytes_of(text), text.size());
    EXPECT_EQ(check.decoded.kind, FuzzInputKind::ScenarioText);
    EXPECT_FALSE(check.decoded.scenario.has_value()) << text;
    EXPECT_FALSE(check.decoded.skipped.empty());
    EXPECT_FALSE(check.decoded.generator_bug);
    EXPECT_TRUE(check.report.ok());
  }
  EXPECT_FALSE(fuzz_input_document("{}", "x").ok());
}

TEST(FuzzInput, AScenarioNamingLevelFilesIsNotConverted) {
  const Expected<std::string> input = scenario_to_fuzz_input(scenario_file("levels/oa_dm3/doorway_north.json"));
  ASSERT_FALSE(input.ok());
  EXPECT_NE(input.error().find("level or mesh files"), std::string::npos) << input.error();
}

}  // namespace
}  // namespace stepslide
