// The trajectory model: columns by name, cells by position.

#include "scenario/trajectory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "scenario/columns.h"

namespace stepslide {
namespace {

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

TEST(Trajectory, CellIsNaNWhereThereIsNone) {
  Trajectory t;
  t.columns = {"a", "b"};
  t.rows = {{1, 2}, {3}};
  EXPECT_EQ(t.cell(0, 1), 2.0);
  EXPECT_EQ(t.cell(1, 0), 3.0);
  EXPECT_TRUE(std::isnan(t.cell(1, 1))) << "short row";
  EXPECT_TRUE(std::isnan(t.cell(2, 0))) << "missing row";
  EXPECT_TRUE(std::isnan(t.cell(0, -1))) << "missing column";
}

}  // namespace
}  // namespace stepslide
