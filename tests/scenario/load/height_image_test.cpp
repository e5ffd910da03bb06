// Heightfields from greyscale PNG images (scenario/load/height_image.h and the
// heightfield "file" of the loader).
#include <gtest/gtest.h>

#include <png.h>

#include "scenario/load/floor_probe.h"
#include "scenario/load/height_image.h"
#include "scenario/load/load.h"
#include "scenario/load/world.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

using test::TempDirTest;

/// A PNG of `width` x `height` pixels in libpng's simplified `format`, from
/// `pixels` (bytes; 16-bit formats take native-endian uint16).
std::string encode_png(int width, int height, png_uint_32 format, const void* pixels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = format;
  png_alloc_size_t size = 0;
  EXPECT_TRUE(png_image_write_to_memory(&image, nullptr, &size, 0, pixels, 0, nullptr));
  std::string out(size, '\0');
  EXPECT_TRUE(png_image_write_to_memory(&image, out.data(), &size, 0, pixels, 0, nullptr));
  out.resize(size);
  return out;
}

std::string grey16(int width, int height, const std::vector<std::uint16_t>& values) {
  return encode_png(width, height, PNG_FORMAT_LINEAR_Y, values.data());
}

TEST(HeightImage, Decodes16BitValuesAsStoredTopRowFirst) {
  const std::vector<std::uint16_t> values = {0, 1, 2, 65535, 32768, 12345};
  const Expected<HeightImage> image = decode_height_png(grey16(3, 2, values), 100);
  ASSERT_TRUE(image) << image.error();
  EXPECT_EQ(image->width, 3);
  EXPECT_EQ(image->height, 2);
  EXPECT_EQ(image->bit_depth, 16);
  EXPECT_EQ(image->samples, values);
}

TEST(HeightImage, Decodes8Bit) {
  const std::vector<std::uint8_t> values = {0, 128, 255, 7};
  const Expected<HeightImage> image = decode_height_png(encode_png(2, 2, PNG_FORMAT_GRAY, values.data()), 100);
  ASSERT_TRUE(image) << image.error();
  EXPECT_EQ(image->bit_depth, 8);
  EXPECT_EQ(image->samples, (std::vector<std::uint16_t>{0, 128, 255, 7}));
}

TEST(HeightImage, RefusesColourCorruptAndOversizedImages) {
  const std::vector<std::uint8_t> rgb(2 * 2 * 3, 100);
  EXPECT_EQ(decode_height_png(encode_png(2, 2, PNG_FORMAT_RGB, rgb.data()), 100).error(),
            "a colour image: expected a greyscale image (no colour, palette or alpha)");
  const std::vector<std::uint8_t> grey_alpha(2 * 2 * 2, 100);
  EXPECT_EQ(decode_height_png(encode_png(2, 2, PNG_FORMAT_GA, grey_alpha.data()), 100).error(),
            "a greyscale image with alpha: expected a greyscale image (no colour, palette or alpha)");
  EXPECT_EQ(decode_height_png("GIF89a........", 100).error(), "not a PNG file");
  const std::string whole = grey16(3, 2, {1, 2, 3, 4, 5, 6});
  const Expected<HeightImage> cut = decode_height_png(whole.substr(0, whole.size() - 30), 100);
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().rfind("corrupt: ", 0), 0u) << cut.error();
  EXPECT_EQ(decode_height_png(whole, 5).error(), "3 x 2 pixels: more than the 5 heightfield cells allowed");
}

class HeightfieldFile : public TempDirTest {};

TEST_F(HeightfieldFile, PixelsBecomeHeightsOverTheRange) {
  // 3 columns x 2 rows: the top row at the grid's -Z edge.
  write("terrain.png", grey16(3, 2, {0, 0, 0, 65535, 65535, 65535}));
  write("s.json", R"({"format": "stepslide/scenario@1", "ticks": 1,
                      "world": [{"name": "ground", "shape": {"type": "heightfield", "file": "terrain.png",
                                 "cell_size": 2, "height_range": [-1, 3]}}]})");
  const LoadResult load = load_scenario_file(path("s.json").string());
  ASSERT_TRUE(load.scenario) << format_load_errors(load);
  const ShapeDef& shape = load.scenario->world[0].shape;
  EXPECT_EQ(shape.columns, 3);
  EXPECT_EQ(shape.rows, 2);
  EXPECT_EQ(shape.heights, (std::vector<double>{-1, -1, -1, 3, 3, 3}));
  ASSERT_EQ(load.inputs.size(), 2u);
  EXPECT_EQ(load.inputs[1].path, "terrain.png");
  ASSERT_EQ(load.notes.size(), 1u);
  EXPECT_EQ(load.notes[0], path("s.json").string() + ": /world/0/shape/file: terrain.png: 3 x 2 pixels, 16-bit, heights -1 to 3 m");
  // Halfway between the rows (z 0) the surface is halfway up: 1 m.
  World world(*load.scenario);
  const std::vector<FloorHit> floors = floors_under(world, *load.scenario, 0.5, 0.0);
  ASSERT_EQ(floors.size(), 1u);
  EXPECT_NEAR(floors[0].point[1], 1.0, 1e-9);
  EXPECT_EQ(floors[0].body, "ground");
  // The top row of the image is the -Z edge (low), the bottom row the +Z edge (high).
  EXPECT_NEAR(floors_under(world, *load.scenario, 0.5, -0.999)[0].point[1], -1.0, 1e-2);
  EXPECT_NEAR(floors_under(world, *load.scenario, 0.5, 0.999)[0].point[1], 3.0, 1e-2);
}

TEST_F(HeightfieldFile, Errors) {
  write("terrain.png", grey16(2, 2, {0, 1, 2, 3}));
  auto errors = [&](const std::string& shape) {
    write("s.json", R"({"format": "stepslide/scenario@1", "ticks": 1, "world": [{"shape": )" + shape + "}]}");
    std::string text;
    for (const LoadError& e : load_scenario_file(path("s.json").string()).errors) text += e.json_path + ": " + e.message + "\n";
    return text;
  };
  EXPECT_EQ(errors(R"({"type": "heightfield", "file": "terrain.png", "cell_size": 1, "height_range": [2, 2]})"),
            "/world/0/shape/height_range: expected [lowest, highest] with lowest < highest, got [2, 2]\n");
  EXPECT_EQ(errors(R"({"type": "heightfield", "file": "terrain.png", "cell_size": 1, "height_range": [0, 1], "rows": 2})"),
            "/world/0/shape/rows: expected either \"file\" or \"rows\", \"columns\" and \"heights\", got both\n");
  EXPECT_EQ(errors(R"({"type": "heightfield", "file": "missing.png", "cell_size": 1, "height_range": [0, 1]})"),
            "/world/0/shape/file: missing.png: cannot open: No such file or directory\n");
  EXPECT_EQ(errors(R"({"type": "heightfield", "file": "terrain.png", "height_range": [0, 1]})"),
            "/world/0/shape: missing required key \"cell_size\"\n");
  write("line.png", grey16(5, 1, {0, 1, 2, 3, 4}));
  EXPECT_EQ(errors(R"({"type": "heightfield", "file": "line.png", "cell_size": 1, "height_range": [0, 1]})"),
            "/world/0/shape/file: line.png: 5 x 1 pixels: expected at least 2 x 2\n");
}

}  // namespace
}  // namespace stepslide
