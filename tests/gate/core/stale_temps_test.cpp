// Temporaries an interrupted write leaves: found, warned about,
// removed, and never confused with a live process's or another file's.

#include "gate/core/stale_temps.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace stepslide {
namespace {

namespace fs = std::filesystem;

/// The pid of a process that has exited (and been reaped).
long dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

class StaleTempsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("stepslide_stale_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "golden" / "basics");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& rel) const { return (dir_ / rel).generic_string(); }
  void put(const std::string& rel) const { std::ofstream(path(rel)) << "partial"; }

  fs::path dir_;
};

TEST(StaleTemps, NamesAreReadExactly) {
  EXPECT_EQ(temporary_owner(".a.csv.tmp.123"), 123);
  EXPECT_EQ(temporary_owner(".a.csv.tmp.123.4"), 123);
  EXPECT_EQ(temporary_owner(".a.tmp.b.csv.tmp.77"), 77);
  EXPECT_EQ(temporary_owner("a.csv.tmp.123"), 0) << "not hidden";
  EXPECT_EQ(temporary_owner(".a.csv.tmp.12x"), 0);
  EXPECT_EQ(temporary_owner(".a.csv.tmp."), 0);
  EXPECT_EQ(temporary_owner(".a.csv.tmp.1.x"), 0);
  EXPECT_TRUE(is_temporary_of(".a.csv.tmp.5", "a.csv"));
  EXPECT_TRUE(is_temporary_of(".a.csv.tmp.5.2", "a.csv"));
  EXPECT_FALSE(is_temporary_of(".ab.csv.tmp.5", "a.csv"));
  EXPECT_FALSE(is_temporary_of(".a.csv.tmp.5", "b.csv"));
}

TEST_F(StaleTempsTest, FindsOnlyThoseOfProcessesThatAreGone) {
  const std::string dead = std::to_string(dead_pid());
  put("golden/basics/.fall.csv.tmp." + dead);
  put("golden/.top.csv.tmp." + dead + ".1");
  put("golden/basics/.live.csv.tmp." + std::to_string(::getpid()));
  put("golden/basics/fall.csv");
  EXPECT_EQ(find_stale_temporaries(path("golden")),
            (std::vector<std::string>{path("golden/.top.csv.tmp." + dead + ".1"),
                                      path("golden/basics/.fall.csv.tmp." + dead)}));
  const std::string warning = stale_temporaries_warning(path("golden"));
  EXPECT_NE(warning.find("warning: stale temporary file " + path("golden/basics/.fall.csv.tmp." + dead) +
                         " left by an interrupted write (process " + dead + " is gone)"),
            std::string::npos)
      << warning;
  EXPECT_EQ(stale_temporaries_warning(path("nothing_here")), "");
}

TEST_F(StaleTempsTest, RemovesTheDeadTemporariesOfOneTargetOnly) {
  const std::string dead = std::to_string(dead_pid());
  put("golden/basics/.fall.csv.tmp." + dead);
  put("golden/basics/.fall.csv.tmp." + dead + ".3");
  put("golden/basics/.fall.csv.tmp." + std::to_string(::getpid()));
  put("golden/basics/.other.csv.tmp." + dead);
  const std::vector<std::string> removed = remove_stale_temporaries_of(path("golden/basics/fall.csv"));
  EXPECT_EQ(removed, (std::vector<std::string>{path("golden/basics/.fall.csv.tmp." + dead),
                                               path("golden/basics/.fall.csv.tmp." + dead + ".3")}));
  EXPECT_TRUE(fs::exists(path("golden/basics/.fall.csv.tmp." + std::to_string(::getpid())))) << "alive: kept";
  EXPECT_TRUE(fs::exists(path("golden/basics/.other.csv.tmp." + dead))) << "another golden's: kept";
}

}  // namespace
}  // namespace stepslide
