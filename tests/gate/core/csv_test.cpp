// Trajectory CSV: number formatting, writing, strict parsing, reading files.

#include "gate/core/csv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

#include "base/format.h"
#include "scenario/columns.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

std::string fixed_header() {
  std::string header;
  for (const std::string& name : fixed_columns()) header += (header.empty() ? "" : ",") + name;
  return header;
}

std::string parse_error(const std::string& text) {
  const Expected<Trajectory> parsed = parse_csv(text);
  EXPECT_FALSE(parsed) << "accepted:\n" << text;
  return parsed.error();
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(Csv, TrickyDoublesRoundTripBitForBit) {
  const std::vector<double> values = {0.1,
                                      0.2,
                                      1.0 / 3.0,
                                      1e-300,
                                      5e-324,
                                      2.2250738585072014e-308,
                                      std::numeric_limits<double>::max(),
                                      -std::numeric_limits<double>::max(),
                                      9007199254740993.0,  // rounds to 2^53
                                      123456789012345678.0,
                                      1e22,
                                      -2.5e-7,
                                      0.30000000000000004,
                                      std::nextafter(1.0, 2.0)};
  Trajectory t;
  t.columns = {"value"};
  for (double v : values) t.rows.push_back({v});
  const Expected<Trajectory> back = parse_csv(to_csv(t));
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->rows.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_TRUE(same_bits(back->rows[i][0], values[i])) << format_number(values[i]);
  }
}

TEST(Csv, NegativeZeroReadsBackAsPositiveZero) {
  Trajectory t;
  t.columns = {"a"};
  t.rows = {{-0.0}};
  const Expected<Trajectory> back = parse_csv(to_csv(t));
  ASSERT_TRUE(back) << back.error();
  EXPECT_TRUE(same_bits(back->rows[0][0], 0.0));
}

TEST(Csv, NonFiniteValuesRoundTrip) {
  Trajectory t;
  t.columns = {"a", "b", "c"};
  t.rows = {{std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}};
  EXPECT_EQ(to_csv(t), "a,b,c\nnan,inf,-inf\n");
  const Expected<Trajectory> back = parse_csv(to_csv(t));
  ASSERT_TRUE(back) << back.error();
  EXPECT_TRUE(std::isnan(back->rows[0][0]));
  EXPECT_EQ(back->rows[0][1], std::numeric_limits<double>::infinity());
  EXPECT_EQ(back->rows[0][2], -std::numeric_limits<double>::infinity());
}

TEST(Csv, WritesMetadataHeaderAndRows) {
  Trajectory t;
  t.metadata = {" stepslide 0.1.0", "scenario=stairs"};
  t.columns = {"tick", "time", "y"};
  t.rows = {{0, 0, 0.2}, {1, 1.0 / 60.0, 0.25}};
  EXPECT_EQ(to_csv(t), "# stepslide 0.1.0\n#scenario=stairs\ntick,time,y\n0,0,0.2\n1,0.016666666666666666,0.25\n");
}

TEST(Csv, MetadataLineBreaksCannotCorruptTheFile) {
  Trajectory t;
  t.metadata = {"a\nb"};
  t.columns = {"tick"};
  EXPECT_EQ(to_csv(t), "#a b\ntick\n");
}

TEST(Csv, FullTableRoundTrips) {
  Trajectory t;
  t.metadata = {" format=stepslide/trajectory@1", " seed 7"};
  t.columns = fixed_columns();
  t.columns.push_back("stuck");
  for (int tick = 0; tick < 5; ++tick) {
    std::vector<double> row(t.columns.size(), 0.0);
    row[0] = tick;
    row[1] = tick / 60.0;
    row[3] = 0.1 * tick;
    t.rows.push_back(row);
  }
  const std::string csv = to_csv(t);
  const Expected<Trajectory> back = parse_csv(csv);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->metadata, t.metadata);
  EXPECT_EQ(back->columns, t.columns);
  EXPECT_EQ(back->rows, t.rows);
  EXPECT_EQ(to_csv(*back), csv);
  EXPECT_EQ(csv.substr(csv.find('\n', csv.find("seed")) + 1, fixed_header().size()), fixed_header());
}

TEST(Csv, EmptyTableKeepsItsHeader) {
  const Expected<Trajectory> t = parse_csv("tick,y\n");
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->columns, (std::vector<std::string>{"tick", "y"}));
  EXPECT_TRUE(t->rows.empty());
}

TEST(ParseCsv, ToleratesCrlfAndTrailingBlankLines) {
  for (const char* text : {"#m\r\ntick,y\r\n0,1\r\n1,2\r\n", "#m\ntick,y\n0,1\n1,2\n\n\n",
                           "#m\ntick,y\n0,1\n1,2\n \r\n"}) {
    const Expected<Trajectory> t = parse_csv(text);
    ASSERT_TRUE(t) << text << ": " << t.error();
    EXPECT_EQ(t->metadata, std::vector<std::string>{"m"});
    EXPECT_EQ(t->columns, (std::vector<std::string>{"tick", "y"}));
    EXPECT_EQ(t->rows, (std::vector<std::vector<double>>{{0, 1}, {1, 2}}));
  }
}

// Failed before the fix: a file cut inside its last number ("1,2" of "1,2.5")
// parsed as a whole table, so a truncated golden passed `check`.
TEST(ParseCsv, MissingFinalNewlineMeansTheFileWasCut) {
  EXPECT_EQ(parse_error("#m\ntick,y\n0,1\n1,2"),
            "line 4: expected a newline at the end of the file, got end of file (the file is cut short)");
  EXPECT_EQ(parse_error("tick,y"),
            "line 1: expected a newline at the end of the file, got end of file (the file is cut short)");
  EXPECT_EQ(parse_error("tick,y\n0,1\n1\n"), "line 3: expected 2 cells, got 1") << "a short last row";
  EXPECT_EQ(parse_error("tick,y\n0,1\n\n "),
            "line 4: expected a newline at the end of the file, got end of file (the file is cut short)");
}

TEST(ParseCsv, NonFiniteCellsAreNamedByLineAndColumn) {
  const Expected<Trajectory> t = parse_csv("#m\ntick,y,vy\n0,1,2\n1,2,nan\n");
  ASSERT_TRUE(t) << t.error();
  const Status finite = check_finite_cells(*t, "why");
  ASSERT_FALSE(finite);
  EXPECT_EQ(finite.error(), "line 4: column vy is nan (row 1); why");
  EXPECT_TRUE(check_finite_cells(*parse_csv("tick,y\n0,1\n"), "why"));
  EXPECT_EQ(check_finite_cells(*parse_csv("tick,y\n0,-inf\n"), "w").error(), "line 2: column y is -inf (row 0); w");
}

// The documented bound (docs/format.md §2.1, docs/fuzzing.md "Files and
// numbers"): if the column table or a limit changes, the documents change
// with it.
TEST(ParseCsv, TheTrajectoryBoundIsTheDocumentedNumber) {
  EXPECT_EQ(max_trajectory_bytes(), 617174950);
  for (double v : {-2.2250738585072014e-308, -1.7976931348623157e308, -4.9406564584124654e-324,
                   -0.30000000000000004, -123456789012345680.0}) {
    EXPECT_LE(format_number(v).size(), 24u) << format_number(v);
  }
}

TEST(ParseCsv, AcceptsHandWrittenSpacingAndExponents) {
  const Expected<Trajectory> t = parse_csv("tick, y\n0, 1e3\n1 ,-2.5E-1\n");
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->columns, (std::vector<std::string>{"tick", "y"}));
  EXPECT_EQ(t->rows[0][1], 1000.0);
  EXPECT_EQ(t->rows[1][1], -0.25);
}

TEST(ParseCsv, RequiresAHeader) {
  EXPECT_EQ(parse_error(""), "line 1: expected a header line, got end of file");
  EXPECT_EQ(parse_error("#only metadata\n#more\n"), "line 3: expected a header line, got end of file");
  EXPECT_EQ(parse_error("\ntick\n0\n"), "line 1: expected a header line, got an empty line");
  const std::string missing = parse_error("#m\n0,0.1,0\n1,0.2,0\n");
  EXPECT_EQ(missing.rfind("line 2: expected a header", 0), 0u) << missing;
  EXPECT_NE(missing.find("got a number \"0\""), std::string::npos) << missing;
}

TEST(ParseCsv, RejectsBadColumnNames) {
  EXPECT_EQ(parse_error("tick,,y\n"), "line 1: expected a column name in header cell 2, got an empty cell");
  EXPECT_EQ(parse_error("tick,y,y\n"), "line 1: expected unique column names, got \"y\" twice (cells 2 and 3)");
}

TEST(ParseCsv, EveryRowHasAsManyCellsAsTheHeader) {
  EXPECT_EQ(parse_error("tick,x,y\n0,1,2\n1,2\n"), "line 3: expected 3 cells, got 2");
  EXPECT_EQ(parse_error("#a\n#b\ntick,x\n0,1\n1,2,3\n"), "line 5: expected 2 cells, got 3");
  EXPECT_EQ(parse_error("tick,x\r\n0,1\r\n1,2,\r\n"), "line 3: expected 2 cells, got 3");
}

TEST(ParseCsv, CellsMustBeWholeNumbers) {
  EXPECT_EQ(parse_error("tick,y\n0,1\n1,abc\n"), "line 3: expected a number in column y, got \"abc\"");
  EXPECT_EQ(parse_error("tick,y\n0,1.5x\n"), "line 2: expected a number in column y, got \"1.5x\"");
  EXPECT_EQ(parse_error("tick,y\n0,\n"), "line 2: expected a number in column y, got an empty cell");
  EXPECT_EQ(parse_error("tick,y\n0,+1\n"), "line 2: expected a number in column y, got \"+1\"");
  EXPECT_EQ(parse_error("tick,y\n0,1 2\n"), "line 2: expected a number in column y, got \"1 2\"");
}

TEST(ParseCsv, MetadataOnlyBeforeTheHeader) {
  EXPECT_EQ(parse_error("tick,y\n0,1\n#late\n1,2\n"), "line 3: expected 2 cells, got 1");
  EXPECT_EQ(parse_error("tick\n0\n#late\n"), "line 3: expected a number in column tick, got \"#late\"");
}

TEST(ParseCsv, BlankLineInsideTheTableIsAnError) {
  EXPECT_EQ(parse_error("tick,y\n0,1\n\n1,2\n"), "line 3: expected 2 cells, got an empty line");
}

TEST(ParseCsv, LongGarbageIsQuotedShort) {
  const std::string garbage(500, 'z');
  const std::string error = parse_error("y\n" + garbage + "\n");
  EXPECT_LT(error.size(), 120u) << error;
  EXPECT_NE(error.find("...\""), std::string::npos) << error;
}

// ---------------------------------------------------------------------------
// Files

/// A file in a fresh temp directory, removed with it.
class TrajectoryFile : public test::TempDirTest {
 protected:
  /// Writes `text` to NAME in the directory and returns its path.
  std::string write_file(const std::string& name, const std::string& text) const {
    write(name, text);
    return path(name).string();
  }
};

TEST_F(TrajectoryFile, ReadsWhatToCsvWrote) {
  Trajectory t;
  t.metadata = {" m"};
  t.columns = {"tick", "y"};
  t.rows = {{0, 0.5}, {1, 0.25}};
  const Expected<Trajectory> back = read_trajectory_file(write_file("t.csv", to_csv(t)));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->metadata, t.metadata);
  EXPECT_EQ(back->rows, t.rows);
}

TEST_F(TrajectoryFile, AMissingFileIsNamedInTheError) {
  const std::string path = (dir_ / "nope.csv").string();
  const Expected<Trajectory> t = read_trajectory_file(path);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().rfind(path + ": cannot open: ", 0), 0u) << t.error();
}

TEST_F(TrajectoryFile, ADirectoryIsNotATrajectory) {
  const Expected<Trajectory> t = read_trajectory_file(dir_.string());
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().rfind(dir_.string() + ": cannot open: ", 0), 0u) << t.error();
}

TEST_F(TrajectoryFile, AParseErrorNamesTheFileAndTheLine) {
  const std::string path = write_file("conflict.csv", "<<<<<<< HEAD\ntick,y\n0,1\n");
  const Expected<Trajectory> t = read_trajectory_file(path);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error(), path + ": line 2: expected 1 cells, got 2");
}

TEST_F(TrajectoryFile, StoredKeepsTheBytesAndTellsUnreadableFromBroken) {
  const std::string text = "#m\r\ntick\r\n0\r\n";
  const Expected<StoredTrajectory> stored = read_stored_trajectory(write_file("crlf.csv", text));
  ASSERT_TRUE(stored) << stored.error();
  EXPECT_EQ(stored->bytes, text);
  ASSERT_TRUE(stored->table) << stored->table.error();
  EXPECT_EQ(stored->table->columns, std::vector<std::string>{"tick"});

  const Expected<StoredTrajectory> broken = read_stored_trajectory(write_file("broken.csv", "tick\nx\n"));
  ASSERT_TRUE(broken) << "the file reads; only its text is wrong";
  EXPECT_EQ(broken->table.error(), "line 2: expected a number in column tick, got \"x\"");

  const Expected<StoredTrajectory> missing = read_stored_trajectory((dir_ / "nope.csv").string());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().rfind("cannot open: ", 0), 0u) << missing.error();
}

}  // namespace
}  // namespace stepslide
