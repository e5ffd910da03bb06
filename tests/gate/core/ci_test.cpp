// CI detection (gate/core/ci.h), the one test bless, the update mode and the
// console share: CI unset, empty, 0 or false (any case) is not CI; anything
// else is: CI=false and CI=0 are not CI.
#include "gate/core/ci.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "gate/commands/bless.h"
#include "gate/core/console.h"
#include "gate/core/pending.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

EnvLookup env_of(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

/// Every spelling this test knows, and whether it means a CI job.
const std::map<std::string, bool> kValues = {
    {"", false},     {"0", false},   {"false", false}, {"False", false}, {"FALSE", false}, {"fAlSe", false},
    {"1", true},     {"true", true}, {"TRUE", true},   {"yes", true},    {"on", true},     {"no", true},
    {"00", true},    {" 0", true},   {"false ", true}, {"falsely", true}, {"-1", true},    {"woodpecker", true},
};

TEST(Ci, EachValue) {
  EXPECT_FALSE(ci_value_means_ci(nullptr)) << "unset";
  for (const auto& [value, ci] : kValues) EXPECT_EQ(ci_value_means_ci(value.c_str()), ci) << "CI='" << value << "'";
}

TEST(Ci, ReadsTheCiVariableOnly) {
  EXPECT_FALSE(running_in_ci(env_of({})));
  EXPECT_FALSE(running_in_ci(env_of({{"GITHUB_ACTIONS", "true"}}))) << "only CI decides";
  EXPECT_TRUE(running_in_ci(env_of({{"CI", "true"}})));
  EXPECT_FALSE(running_in_ci(env_of({{"CI", "false"}})));
  EXPECT_EQ(ci_setting_text(env_of({{"CI", "woodpecker"}})), "CI=woodpecker");
}

TEST(Ci, TheUpdateModeAutoFollowsIt) {
  for (const auto& [value, ci] : kValues) {
    const Expected<PendingAction> action = pending_action("", false, env_of({{"CI", value}}));
    ASSERT_TRUE(action) << action.error();
    EXPECT_EQ(*action, ci ? PendingAction::None : PendingAction::WriteNew) << "CI='" << value << "'";
  }
}

/// The console reads the process environment: set CI for the duration.
class CiConsole : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* saved = std::getenv("CI");
    had_ = saved != nullptr;
    if (had_) saved_ = saved;
  }
  void TearDown() override {
    if (had_) {
      ::setenv("CI", saved_.c_str(), 1);
    } else {
      ::unsetenv("CI");
    }
  }

 private:
  bool had_ = false;
  std::string saved_;
};

TEST_F(CiConsole, TheProgressLineFollowsIt) {
  ::unsetenv("CI");
  EXPECT_FALSE(read_console_facts(1).ci);
  for (const auto& [value, ci] : kValues) {
    ::setenv("CI", value.c_str(), 1);
    EXPECT_EQ(read_console_facts(1).ci, ci) << "CI='" << value << "'";
  }
}

class CiBless : public test::WorkingDirTest {};

TEST_F(CiBless, BlessFollowsIt) {
  write("scenarios/a.json",
        R"({"format": "stepslide/scenario@1", "ticks": 2, "world": [{"shape": {"type": "box", "half_extents": )"
        R"([5, 0.5, 5]}, "position": [0, -0.5, 0]}]})");
  for (const auto& [value, ci] : kValues) {
    BlessRequest request;
    request.fingerprint = "test build";
    request.env = env_of({{"CI", value}});
    const BlessRun run = run_bless(request);
    EXPECT_EQ(run.exit_code, ci ? kExitInvalid : kExitOk) << "CI='" << value << "'\n" << run.errors;
    if (ci) {
      EXPECT_CONTAINS(run.errors, "the CI environment variable is set (CI=" + value + ")");
    }
  }
}

}  // namespace
}  // namespace stepslide
