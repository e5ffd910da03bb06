// Heightfields from greyscale PNG images (docs/format.md §1.1 "heightfield
// file"): what DCC tools and terrain editors export. 16-bit images keep their
// full precision; 8-bit (and 1-, 2-, 4-bit) ones are accepted too. Read with libpng, raw sample
// values (no gamma conversion, which would bend the terrain).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stepslide/expected.h"

namespace stepslide {

struct HeightImage {
  int width = 0;       ///< columns (local X)
  int height = 0;      ///< rows (local Z), the image's top row first
  int bit_depth = 0;   ///< 1, 2, 4, 8 or 16
  std::vector<std::uint16_t> samples;  ///< row-major, each in [0, 2^bit_depth - 1], as stored
};

/// Decodes `bytes`, a PNG file, refusing anything but a greyscale image
/// (colour, palette, alpha) of at most `max_pixels`. Fails with a one-line
/// reason ("not a PNG file", "a colour image: expected greyscale", "corrupt:
/// <libpng's reason>"). Never throws.
Expected<HeightImage> decode_height_png(const std::string& bytes, std::int64_t max_pixels);

}  // namespace stepslide
