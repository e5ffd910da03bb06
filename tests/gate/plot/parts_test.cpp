// The plot's pieces on their own: the SVG writer, body outlines and marks.
#include <gtest/gtest.h>

#include "gate/picture_test_util.h"
#include "gate/plot/marks.h"
#include "gate/plot/outlines.h"
#include "gate/plot/svg_writer.h"

namespace stepslide::test {
namespace {

TEST(SvgWriter, FixedHasNoTrailingZerosAndNoMinusZero) {
  EXPECT_EQ(plot::fixed(1.5), "1.5");
  EXPECT_EQ(plot::fixed(2.0), "2");
  EXPECT_EQ(plot::fixed(12.3456), "12.35");
  EXPECT_EQ(plot::fixed(-0.001), "0");
  EXPECT_EQ(plot::fixed(7.25, 0), "7");
  EXPECT_EQ(plot::fixed(std::nan("")), "0") << "a coordinate never breaks the document";
}

TEST(SvgWriter, ClipTextNeverCutsACharacter) {
  EXPECT_EQ(plot::clip_text("abc", 3), "abc");
  EXPECT_EQ(plot::clip_text("abcd", 3), "abc...");
  EXPECT_EQ(plot::clip_text("caf\xC3\xA9s", 4), "caf...") << "not inside the two bytes of \xC3\xA9";
}

TEST(SvgWriter, IdsArePrefixed) {
  plot::Svg svg;
  svg.id_prefix = "p2";
  EXPECT_EQ(svg.id("arrow"), "p2-arrow");
}

TEST(PlotOutlines, ConvexHullIsCounterClockwiseWithoutInnerPoints) {
  const std::vector<plot::P2> hull = plot::convex_hull({{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 0}});
  ASSERT_EQ(hull.size(), 4u) << "the centre and a point on an edge are dropped";
  double area = 0;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const plot::P2& a = hull[i];
    const plot::P2& b = hull[(i + 1) % hull.size()];
    area += a.x * b.y - b.x * a.y;
  }
  EXPECT_DOUBLE_EQ(area / 2, 4.0) << "positive: counter-clockwise";
}

TEST(PlotMarks, AboutADozenTickMarksPerRun) {
  EXPECT_EQ(plot::tick_interval(90), 10);
  EXPECT_EQ(plot::tick_interval(600), 50);
  EXPECT_EQ(plot::tick_interval(5), 1) << "never less than one tick";
}

TEST(PlotMarks, StepMarkersPointTheWayTheyStep) {
  const std::string up_text = plot::step_marker({10, 10}, true, "#000", "step up 0.18 m, tick 12");
  const std::string down_text = plot::step_marker({10, 10}, false, "#000");
  xml_check::Reader up_reader(up_text), down_reader(down_text);
  const std::unique_ptr<Node> up = up_reader.read(), down = down_reader.read();
  ASSERT_TRUE(up && down) << up_reader.error() << down_reader.error();
  EXPECT_TRUE(up->has_class("step-up"));
  EXPECT_EQ(up->attribute("points"), "10,5 5,13.5 15,13.5") << "the tip above the centre";
  ASSERT_NE(up->child("title"), nullptr);
  EXPECT_EQ(up->child("title")->text, "step up 0.18 m, tick 12");
  EXPECT_TRUE(down->has_class("step-down"));
  EXPECT_EQ(down->attribute("points"), "10,15 5,6.5 15,6.5") << "the tip below the centre";
  EXPECT_EQ(down->child("title"), nullptr);
}

// ---------------------------------------------------------------------------
// plot_svg

}  // namespace
}  // namespace stepslide::test
