// File helpers against what is not a regular file: writes replace
// only regular files, trajectory reads open only regular files, and an output
// is never one of the inputs. Each of these failed before the fix: the rename
// turned a FIFO, a symbolic link (to /dev/null) and a scenario into new files.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file_io.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

class FileKindsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("stepslide_file_kinds_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void put(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }
  /// Nothing but `names` in the directory: no temporary was left behind.
  std::size_t entries() const {
    std::size_t n = 0;
    for (const auto& entry : fs::directory_iterator(dir_)) n += entry.path().filename().string()[0] == '.' ? 100 : 1;
    return n;
  }

  fs::path dir_;
};

TEST_F(FileKindsTest, WriteRefusesAFifoAndLeavesItAFifo) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  const Status written = write_file_atomic(path("pipe"), "data");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error(), "it is a FIFO; only regular files are written or replaced");
  EXPECT_TRUE(fs::is_fifo(path("pipe")));
  EXPECT_EQ(entries(), 1u) << "no temporary left";
}

TEST_F(FileKindsTest, WriteRefusesASymlinkToADeviceWithoutFollowingOrReplacingIt) {
  // Compared before and after rather than asserted a device: on a shared
  // machine something else may already have replaced /dev/null.
  struct stat before {}, after {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  fs::create_symlink("/dev/null", path("null"));
  const Status written = write_file_atomic(path("null"), "data");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error(), "it is a symbolic link; only regular files are written or replaced");
  EXPECT_TRUE(fs::is_symlink(path("null")));
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_mode, before.st_mode);
}

TEST_F(FileKindsTest, WriteRefusesASymlinkToARegularFileToo) {
  put("real.csv", "old\n");
  fs::create_symlink("real.csv", path("link.csv"));
  EXPECT_FALSE(write_file_atomic(path("link.csv"), "new\n"));
  EXPECT_TRUE(fs::is_symlink(path("link.csv")));
  std::ifstream in(path("real.csv"));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "old");
}

TEST_F(FileKindsTest, WriteRefusesADirectoryNamingIt) {
  fs::create_directories(path("d"));
  const Status written = write_file_atomic(path("d"), "data");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error(), "it is a directory; only regular files are written or replaced");
}

TEST_F(FileKindsTest, WriteStillReplacesARegularFile) {
  put("a.csv", "old\n");
  EXPECT_TRUE(write_file_atomic(path("a.csv"), "new\n"));
  EXPECT_TRUE(fs::is_regular_file(path("a.csv")));
  EXPECT_EQ(fs::file_size(path("a.csv")), 4u);
}

TEST_F(FileKindsTest, ReadRegularRefusesDevicesAndFifosBeforeReading) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", path("zero.csv"));
  Expected<std::string> read = read_regular_file(path("pipe"), 100);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error(), "cannot read: it is a FIFO, not a regular file");
  read = read_regular_file(path("zero.csv"), 1ll << 40);
  ASSERT_FALSE(read) << "a symlink is followed, and /dev/zero is a device";
  EXPECT_EQ(read.error(), "cannot read: it is a character device, not a regular file");
  put("ok.csv", "x\n");
  fs::create_symlink("ok.csv", path("ok_link.csv"));
  read = read_regular_file(path("ok_link.csv"), 100);
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(*read, "x\n");
}

TEST_F(FileKindsTest, AnOutputThatIsAnInputIsRefusedHoweverSpelled) {
  put("s.json", "{}");
  fs::create_hard_link(path("s.json"), path("hard.json"));
  const std::vector<std::string> inputs = {path("s.json")};
  const Status same = not_an_input(path("s.json"), inputs);
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error(), "cannot write " + path("s.json") + ": it is the input " + path("s.json") +
                              " (an output never replaces a file the command reads)");
  EXPECT_FALSE(not_an_input((dir_ / "." / "s.json").string(), inputs));
  EXPECT_FALSE(not_an_input(path("hard.json"), inputs)) << "a hard link is the same file";
  EXPECT_TRUE(not_an_input(path("other.csv"), inputs)) << "nothing there yet";
  put("other.csv", "");
  EXPECT_TRUE(not_an_input(path("other.csv"), inputs));
}

}  // namespace
}  // namespace stepslide
