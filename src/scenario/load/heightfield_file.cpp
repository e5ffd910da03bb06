// A heightfield read from a greyscale PNG (docs/format.md §1.1 "heightfield
// file"): one height per pixel, the image's top row at the grid's -Z edge,
// sample values mapped linearly onto "height_range".

#include <cmath>

#include "base/file_io.h"
#include "scenario/load/height_image.h"
#include "scenario/load/parts.h"

namespace stepslide::loader {

namespace {

/// Largest PNG read: far more than the cell limit needs even uncompressed.
constexpr std::int64_t kMaxImageBytes = 256ll * 1024 * 1024;

std::string describe_image(const HeightImage& image, const Vec2& range) {
  return std::to_string(image.width) + " x " + std::to_string(image.height) + " pixels, " +
         std::to_string(image.bit_depth) + "-bit, heights " + number_text(range[0]) + " to " +
         number_text(range[1]) + " m";
}

}  // namespace

void read_heightfield_file(JsonReader& r, ObjectReader& o, ShapeDef& shape, WorldBudget& budget) {
  const Field file = o.required("file");
  for (const char* inline_key : {"rows", "columns", "heights"}) {
    const Field stray = o.optional(inline_key);
    if (stray) r.error(stray.where, "expected either \"file\" or \"rows\", \"columns\" and \"heights\", got both");
  }
  bool ok = r.number(o.required("cell_size"), kSize, shape.cell_size);
  const Field range = o.required("height_range");
  if (r.numbers(range, kCoordinate, shape.height_range)) {
    if (!(shape.height_range[0] < shape.height_range[1])) {
      r.error(range.where, "expected [lowest, highest] with lowest < highest, got [" + number_text(shape.height_range[0]) +
                               ", " + number_text(shape.height_range[1]) + "]");
      ok = false;
    }
  } else {
    ok = false;
  }
  if (!r.string(file, shape.image_file) || !ok) return;
  LoadContext& context = *budget.context;
  const Expected<std::string> path = resolve_input_path(shape.image_file, context.dir, context.paths);
  if (!path) {
    r.error(file.where, path.error());
    return;
  }
  const std::string shown = input_display_path(*path, context.paths);
  const Expected<std::string> bytes = read_file(*path, kMaxImageBytes);
  if (!bytes) {
    r.error(file.where, shown + ": " + bytes.error());
    return;
  }
  add_input(*context.inputs, InputFile{shown, fnv1a64_of(*bytes)});
  const Expected<HeightImage> image = decode_height_png(*bytes, Limits::max_heightfield_cells);
  if (!image) {
    r.error(file.where, shown + ": " + image.error());
    return;
  }
  if (image->width < 2 || image->height < 2) {
    r.error(file.where, shown + ": " + std::to_string(image->width) + " x " + std::to_string(image->height) +
                            " pixels: expected at least 2 x 2");
    return;
  }
  shape.columns = image->width;
  shape.rows = image->height;
  const double lo = shape.height_range[0], span = shape.height_range[1] - shape.height_range[0];
  const double top = std::ldexp(1.0, image->bit_depth) - 1.0;
  shape.heights.resize(image->samples.size());
  for (std::size_t i = 0; i < image->samples.size(); ++i) shape.heights[i] = lo + span * (image->samples[i] / top);
  context.notes->push_back(context.scenario_label + ": " + context.pointer_prefix + file.where.pointer() + ": " +
                           shown + ": " + describe_image(*image, shape.height_range));
}

}  // namespace stepslide::loader
