// Trajectory CSV: number formatting, writing, strict parsing.

#include "scenario/trajectory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace stepslide {
namespace {

std::string fixed_header() {
  std::string header;
  for (const std::string& name : fixed_columns()) header += (header.empty() ? "" : ",") + name;
  return header;
}

std::string parse_error(const std::string& text) {
  std::string error;
  EXPECT_FALSE(parse_csv(text, &error).has_value()) << "accepted:\n" << text;
  return error;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(FixedColumns, AreTheSpecColumnsInOrder) {
  const std::vector<std::string> expected = {
      "tick",     "time",     "x",        "y",       "z",         "vx",     "vy",          "vz",         "grounded",
      "normal_x", "normal_y", "normal_z", "step_dy", "camera_dy", "sweeps", "slide_iters", "depen_iters"};
  EXPECT_EQ(fixed_columns(), expected);
}

TEST(Trajectory, ColumnIndexFindsNamesAndReportsMissing) {
  Trajectory t;
  t.columns = fixed_columns();
  t.columns.push_back("stuck");
  EXPECT_EQ(t.column_index("tick"), 0);
  EXPECT_EQ(t.column_index("y"), 3);
  EXPECT_EQ(t.column_index("depen_iters"), 16);
  EXPECT_EQ(t.column_index("stuck"), 17);
  EXPECT_EQ(t.column_index("nope"), -1);
  EXPECT_EQ(t.column_index(""), -1);
}

TEST(FormatNumber, WritesShortestForms) {
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(format_number(1e-300), "1e-300");
  EXPECT_EQ(format_number(5e-324), "5e-324");
  EXPECT_EQ(format_number(240), "240");
  EXPECT_EQ(format_number(-1.5), "-1.5");
  EXPECT_EQ(format_number(9007199254740992.0), "9007199254740992");
}

TEST(FormatNumber, NegativeZeroIsZero) {
  EXPECT_EQ(format_number(-0.0), "0");
  EXPECT_EQ(format_number(0.0), "0");
}

TEST(FormatNumber, NonFiniteValues) {
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-inf");
}

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
  std::string error;
  const std::optional<Trajectory> back = parse_csv(to_csv(t), &error);
  ASSERT_TRUE(back.has_value()) << error;
  ASSERT_EQ(back->rows.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_TRUE(same_bits(back->rows[i][0], values[i])) << format_number(values[i]);
  }
}

TEST(Csv, NegativeZeroReadsBackAsPositiveZero) {
  Trajectory t;
  t.columns = {"a"};
  t.rows = {{-0.0}};
  const std::optional<Trajectory> back = parse_csv(to_csv(t), nullptr);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(same_bits(back->rows[0][0], 0.0));
}

TEST(Csv, NonFiniteValuesRoundTrip) {
  Trajectory t;
  t.columns = {"a", "b", "c"};
  t.rows = {{std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}};
  EXPECT_EQ(to_csv(t), "a,b,c\nnan,inf,-inf\n");
  const std::optional<Trajectory> back = parse_csv(to_csv(t), nullptr);
  ASSERT_TRUE(back.has_value());
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
  std::string error;
  const std::optional<Trajectory> back = parse_csv(csv, &error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_EQ(back->metadata, t.metadata);
  EXPECT_EQ(back->columns, t.columns);
  EXPECT_EQ(back->rows, t.rows);
  EXPECT_EQ(to_csv(*back), csv);
  EXPECT_EQ(csv.substr(csv.find('\n', csv.find("seed")) + 1, fixed_header().size()), fixed_header());
}

TEST(Csv, EmptyTableKeepsItsHeader) {
  std::string error;
  const std::optional<Trajectory> t = parse_csv("tick,y\n", &error);
  ASSERT_TRUE(t.has_value()) << error;
  EXPECT_EQ(t->columns, (std::vector<std::string>{"tick", "y"}));
  EXPECT_TRUE(t->rows.empty());
}

TEST(ParseCsv, ToleratesCrlfMissingFinalNewlineAndTrailingBlankLines) {
  for (const char* text : {"#m\r\ntick,y\r\n0,1\r\n1,2\r\n", "#m\ntick,y\n0,1\n1,2", "#m\ntick,y\n0,1\n1,2\n\n\n",
                           "#m\ntick,y\n0,1\n1,2\n \r\n"}) {
    std::string error;
    const std::optional<Trajectory> t = parse_csv(text, &error);
    ASSERT_TRUE(t.has_value()) << text << ": " << error;
    EXPECT_EQ(t->metadata, std::vector<std::string>{"m"});
    EXPECT_EQ(t->columns, (std::vector<std::string>{"tick", "y"}));
    EXPECT_EQ(t->rows, (std::vector<std::vector<double>>{{0, 1}, {1, 2}}));
  }
}

TEST(ParseCsv, AcceptsHandWrittenSpacingAndExponents) {
  const std::optional<Trajectory> t = parse_csv("tick, y\n0, 1e3\n1 ,-2.5E-1\n", nullptr);
  ASSERT_TRUE(t.has_value());
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

TEST(ParseCsv, ErrorPointerMayBeNull) { EXPECT_FALSE(parse_csv("", nullptr).has_value()); }

}  // namespace
}  // namespace stepslide
