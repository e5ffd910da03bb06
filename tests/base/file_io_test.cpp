// File helpers: bounded reads, atomic writes that leave nothing behind.

#include "base/file_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace stepslide {
namespace {

namespace fs = std::filesystem;

/// A fresh directory per test, removed afterwards.
class FileIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("stepslide_file_io_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static std::vector<std::string> listing(const fs::path& directory) {
    std::vector<std::string> names;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(directory)) {
      names.push_back(fs::relative(entry.path(), directory).string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  static void write_plain(const std::string& file, const std::string& content) {
    std::ofstream(file, std::ios::binary) << content;
  }

  fs::path dir_;
};

TEST_F(FileIoTest, ReadsWholeFileIncludingNulBytes) {
  const std::string content("a\0b\r\nc", 6);
  write_plain(path("f.bin"), content);
  const Expected<std::string> read = read_file(path("f.bin"));
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(*read, content);
}

TEST_F(FileIoTest, ReadsEmptyFile) {
  write_plain(path("empty"), "");
  const Expected<std::string> read = read_file(path("empty"));
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->empty());
}

TEST_F(FileIoTest, MissingFileGivesTheReason) {
  const Expected<std::string> read = read_file(path("nope.csv"));
  EXPECT_FALSE(read.ok());
  EXPECT_EQ(read.error(), "cannot open: No such file or directory");
}

TEST_F(FileIoTest, DirectoryIsNotAFile) {
  const Expected<std::string> read = read_file(dir_.string());
  EXPECT_FALSE(read.ok());
  EXPECT_EQ(read.error(), "cannot open: Is a directory");
}

TEST_F(FileIoTest, RefusesFilesOverTheLimit) {
  write_plain(path("big"), std::string(100, 'x'));
  const Expected<std::string> read = read_file(path("big"), 99);
  EXPECT_FALSE(read.ok());
  EXPECT_EQ(read.error(), "file too large: 100 bytes (limit 99)");
  EXPECT_TRUE(read_file(path("big"), 100).ok());
}

TEST_F(FileIoTest, LimitAppliesToFilesOfUnknownSize) {
  // /proc files report size 0; the limit must still hold while reading.
  const Expected<std::string> limited = read_file("/proc/self/maps", 10);
  EXPECT_FALSE(limited.ok());
  EXPECT_EQ(limited.error().rfind("file too large", 0), 0u) << limited.error();
  const Expected<std::string> maps = read_file("/proc/self/maps");
  ASSERT_TRUE(maps.ok()) << maps.error();
  EXPECT_FALSE(maps->empty());
}

TEST_F(FileIoTest, AtomicWriteCreatesTheFileAndLeavesNoTemp) {
  EXPECT_EQ(write_file_atomic(path("out.csv"), "tick\n0\n").error(), "");
  EXPECT_EQ(read_file(path("out.csv")).value_or("?"), "tick\n0\n");
  EXPECT_EQ(listing(dir_), std::vector<std::string>{"out.csv"});
}

TEST_F(FileIoTest, AtomicWriteReplacesExistingContent) {
  write_plain(path("out.csv"), std::string(1000, 'o'));
  EXPECT_EQ(write_file_atomic(path("out.csv"), "new").error(), "");
  EXPECT_EQ(read_file(path("out.csv")).value_or("?"), "new");
  EXPECT_EQ(listing(dir_), std::vector<std::string>{"out.csv"});
}

TEST_F(FileIoTest, AtomicWriteKeepsThePermissionsOfTheFileItReplaces) {
  write_plain(path("golden.csv"), "old");
  ASSERT_EQ(::chmod(path("golden.csv").c_str(), 0640), 0);
  EXPECT_EQ(write_file_atomic(path("golden.csv"), "new").error(), "");
  struct stat info {};
  ASSERT_EQ(::stat(path("golden.csv").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
}

TEST_F(FileIoTest, AtomicWriteReplacesAFileThatIsStillOpen) {
  write_plain(path("out.csv"), "old");
  std::ifstream reader(path("out.csv"));
  EXPECT_EQ(write_file_atomic(path("out.csv"), "new").error(), "");
  std::string seen;
  reader >> seen;
  EXPECT_EQ(seen, "old") << "a reader keeps the complete old file";
  EXPECT_EQ(read_file(path("out.csv")).value_or("?"), "new");
}

TEST_F(FileIoTest, AtomicWriteSkipsAStaleTempFile) {
  const std::string stale = path(".out.csv.tmp." + std::to_string(::getpid()));
  write_plain(stale, "left over by a crash");
  EXPECT_EQ(write_file_atomic(path("out.csv"), "fresh").error(), "");
  EXPECT_EQ(read_file(path("out.csv")).value_or("?"), "fresh");
  EXPECT_EQ(read_file(stale).value_or("?"), "left over by a crash");
  EXPECT_EQ(listing(dir_).size(), 2u);
}

TEST_F(FileIoTest, AtomicWriteCreatesMissingDirectories) {
  EXPECT_EQ(write_file_atomic(path("golden/stairs/up.csv"), "x").error(), "");
  EXPECT_EQ(read_file(path("golden/stairs/up.csv")).value_or("?"), "x");
  EXPECT_EQ(listing(dir_), (std::vector<std::string>{"golden", "golden/stairs", "golden/stairs/up.csv"}));
}

TEST_F(FileIoTest, AtomicWriteOfEmptyAndLargeContent) {
  EXPECT_EQ(write_file_atomic(path("empty"), "").error(), "");
  EXPECT_EQ(read_file(path("empty")).value_or("?"), "");
  std::string big(3 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
  EXPECT_EQ(write_file_atomic(path("big"), big).error(), "");
  EXPECT_EQ(read_file(path("big")).value_or("?"), big);
}

TEST_F(FileIoTest, ParentThatIsAFileFailsAndLeavesNothing) {
  write_plain(path("plain"), "i am a file");
  const std::vector<std::string> before = listing(dir_);
  const std::string error = write_file_atomic(path("plain/sub/out.csv"), "x").error();
  EXPECT_NE(error, "");
  EXPECT_NE(error.find("plain"), std::string::npos) << error;
  EXPECT_EQ(listing(dir_), before);
  EXPECT_EQ(read_file(path("plain")).value_or("?"), "i am a file");

  EXPECT_NE(write_file_atomic(path("plain/out.csv"), "x").error(), "");
  EXPECT_EQ(listing(dir_), before);
}

TEST_F(FileIoTest, TargetThatIsADirectoryFailsAndLeavesNothing) {
  fs::create_directories(path("golden"));
  const std::string error = write_file_atomic(path("golden"), "x").error();
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
  EXPECT_EQ(listing(dir_), std::vector<std::string>{"golden"});
}

TEST_F(FileIoTest, UnwritableLocationReturnsAReason) {
  // /proc refuses new files even for root.
  const std::string error = write_file_atomic("/proc/stepslide_no_such_dir/out.csv", "x").error();
  EXPECT_NE(error, "");
  const std::string in_proc = write_file_atomic("/proc/self/stepslide_out.csv", "x").error();
  EXPECT_NE(in_proc, "");
  EXPECT_FALSE(fs::exists("/proc/self/stepslide_out.csv"));
}

TEST_F(FileIoTest, PathWithoutFileNameIsRejected) {
  EXPECT_NE(write_file_atomic("", "x").error(), "");
  EXPECT_NE(write_file_atomic(path("sub/"), "x").error(), "");
  EXPECT_EQ(listing(dir_), std::vector<std::string>{});
}

}  // namespace
}  // namespace stepslide
