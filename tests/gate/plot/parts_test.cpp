// The plot's pieces on their own: the SVG writer, body outlines (a level cut
// open at the character) and marks.
#include <gtest/gtest.h>

#include "gate/picture_test_util.h"
#include "gate/plot/marks.h"
#include "gate/plot/outlines.h"
#include "gate/plot/svg_writer.h"
#include "gate/plot/traces.h"
#include "scenario/load/world.h"

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

/// Whether `p` is inside the convex, counter-clockwise `outline` (or on its edge).
bool inside(const std::vector<plot::P2>& outline, const plot::P2& p) {
  if (outline.size() < 3) return false;
  for (std::size_t i = 0; i < outline.size(); ++i) {
    const plot::P2& a = outline[i];
    const plot::P2& b = outline[(i + 1) % outline.size()];
    if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < -1e-9) return false;
  }
  return true;
}

TEST(PlotOutlines, ALevelIsCutOpenAtTheCharacterSoTheFloorUnderEachSampleIsOnTop) {
  // Up oa_dm3's east stairs: walls on both sides, the roof and the upper
  // floors above. Seen from above, the uncut level is its roof.
  const std::string path = kSource + "/scenarios/levels/oa_dm3/stairs_8u_up.json";
  const Scenario scenario = load_or_die(path);
  const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
  ASSERT_TRUE(golden);
  const plot::Frame f = plot::make_frame(scenario.up);
  const plot::TraceData run = plot::trace_data(f, PlotTrace{"golden", &*golden}, scenario.tick_rate);
  const plot::CutSamples cut = plot::cut_samples({run}, scenario.character.shape, 1000);
  EXPECT_EQ(cut.plane.size(), run.valid.size()) << "a short run keeps every row";
  EXPECT_DOUBLE_EQ(cut.head, 1.8);
  EXPECT_DOUBLE_EQ(cut.waist, 0.9);
  const World world(scenario);
  const std::vector<plot::BodyDrawing> bodies = plot::level_drawings(f, scenario, world, cut, plot::Box{});
  ASSERT_EQ(bodies.size(), 1u);
  const plot::BodyDrawing& level = bodies.front();
  EXPECT_TRUE(level.cut);
  EXPECT_GE(level.extent.size(), 3u);
  std::size_t overhead = 0;
  for (const plot::Part& part : level.end) overhead += part.overhead ? 1 : 0;
  EXPECT_GT(overhead, 100u) << "the roof and upper floors";
  EXPECT_GT(level.end.size() - overhead, 100u) << "the floors";
  // Overhead parts come first, so that every floor is drawn over them.
  bool seen_floor = false;
  for (const plot::Part& part : level.end) {
    EXPECT_FALSE(seen_floor && part.overhead) << "an overhead part after a floor";
    seen_floor = seen_floor || !part.overhead;
  }
  // The walls of the corridor and the stairwell, at the waist.
  EXPECT_GT(level.walls.size(), 10u);

  // Under every row, the part drawn last (the one a reader sees) is a floor
  // at the feet: the tread stood on, never the roof.
  for (std::size_t row = 0; row < run.valid.size(); ++row) {
    const plot::Part* seen = nullptr;
    for (const plot::Part& part : level.end) {
      if (inside(part.outline, run.plane[row])) seen = &part;
    }
    ASSERT_NE(seen, nullptr) << "nothing under row " << row;
    EXPECT_FALSE(seen->overhead) << "row " << row;
    EXPECT_NEAR(seen->top, run.height[row], 0.3) << "row " << row << ": the surface seen is not the one stood on";
  }
}

TEST(PlotOutlines, WithoutARunAMeshIsDrawnWholeAsBefore) {
  const Scenario scenario = load_or_die(kSource + "/scenarios/terrain/mesh_stairs.json");
  const World world(scenario);
  const plot::Frame f = plot::make_frame(scenario.up);
  const std::vector<plot::BodyDrawing> bodies = plot::level_drawings(f, scenario, world, plot::CutSamples{}, plot::Box{});
  for (const plot::BodyDrawing& body : bodies) {
    EXPECT_FALSE(body.cut);
    EXPECT_TRUE(body.walls.empty());
  }
}

}  // namespace
}  // namespace stepslide::test
