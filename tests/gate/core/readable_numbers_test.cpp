// Numbers people read in messages have six significant digits (readable_number),
// never the 17 of the data (format_number): expectation failures and the first
// divergence. Where six digits would hide the difference, every digit shows.
#include <gtest/gtest.h>

#include <string>

#include "gate/core/diff.h"
#include "gate/core/diff_report.h"
#include "scenario/expect/expectations.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"

namespace stepslide {
namespace {

Scenario load(const std::string& relative) {
  const LoadResult r = load_scenario_file(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/" + relative);
  EXPECT_TRUE(r.scenario.has_value()) << relative;
  return *r.scenario;
}

TEST(ReadableNumbers, ExpectationFailuresPrintSixSignificantDigits) {
  // Step height too low for up_straight: the feet stay at the first riser,
  // 1.7999999999999998 m below where the scenario expects them.
  Scenario s = load("stairs/up_straight.json");
  s.character.settings.max_step_height = 0.15;
  const SimulationResult run = simulate(s);
  ASSERT_FALSE(run.expectation_failures.empty());
  const std::string& message = run.expectation_failures.front().message;
  EXPECT_NE(message.find(" are 1.8 m from the expected position, more than the tolerance 1e-05"), std::string::npos)
      << message;
  EXPECT_EQ(message.find("99999"), std::string::npos) << message;
  EXPECT_EQ(message.find("e-18"), std::string::npos) << "round-off noise reads as 0: " << message;
}

TEST(ReadableNumbers, TheFirstDivergenceReadsInSixDigitsUnlessThatHidesIt) {
  Divergence d;
  d.tick = 12;
  d.column = "y";
  d.expected = "0.006070175062859468";
  d.actual = "-2.6984587403410154e-17";
  d.error = 0.006070175062859495;
  d.tolerance = 1e-6;
  DiffResult result;
  result.equal = false;
  result.first = d;
  EXPECT_EQ(diff_summary(result),
            "first divergence at tick 12, column y: expected 0.00607018, got 0 (error 0.00607 > tolerance 1e-06)");
  // A last-bit difference (another CPU) reads the same in six digits: every digit then.
  d.expected = "1.8";
  d.actual = "1.8000000000000003";
  d.error = 2.220446049250313e-16;
  d.tolerance = 0;
  EXPECT_EQ(readable_values(d).expected, "1.8");
  EXPECT_EQ(readable_values(d).actual, "1.8000000000000003");
  result.first = d;
  EXPECT_EQ(diff_summary(result),
            "first divergence at tick 12, column y: expected 1.8, got 1.8000000000000003 "
            "(error 2.22e-16 > tolerance 0)");
}

}  // namespace
}  // namespace stepslide
