#include "scenario/load/height_image.h"

#include <png.h>

#include <csetjmp>
#include <cstring>

namespace stepslide {

namespace {

struct MemoryReader {
  const unsigned char* data;
  std::size_t size;
  std::size_t position;
};

void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
  auto* reader = static_cast<MemoryReader*>(png_get_io_ptr(png));
  if (count > reader->size - reader->position) png_error(png, "the file ends early");
  std::memcpy(out, reader->data + reader->position, count);
  reader->position += count;
}

/// libpng reports through these; the message is kept for the caller, nothing is printed.
void on_error(png_structp png, png_const_charp message) {
  auto* reason = static_cast<char*>(png_get_error_ptr(png));
  std::strncpy(reason, message, 255);
  reason[255] = '\0';
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

const char* colour_kind(int colour_type) {
  switch (colour_type) {
    case PNG_COLOR_TYPE_PALETTE: return "a palette image";
    case PNG_COLOR_TYPE_RGB: return "a colour image";
    case PNG_COLOR_TYPE_RGB_ALPHA: return "a colour image with alpha";
    case PNG_COLOR_TYPE_GRAY_ALPHA: return "a greyscale image with alpha";
    default: return "an image";
  }
}

/// The decoding proper. libpng reports errors by longjmp to the setjmp here:
/// this frame holds only trivially destructible locals (the buffers `out`
/// and `row` live in the caller), so no destructor is skipped. Returns "" or
/// the reason.
std::string decode(const std::string& bytes, std::int64_t max_pixels, HeightImage& out,
                   std::vector<unsigned char>& row) {
  char reason[256] = "";
  MemoryReader reader{reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reason, on_error, on_warning);
  if (png == nullptr) return "out of memory";
  png_infop info = png_create_info_struct(png);
  if (info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, info != nullptr ? &info : nullptr, nullptr);
    return std::string("corrupt: ") + (reason[0] != '\0' ? reason : "unreadable");
  }
  png_set_read_fn(png, &reader, read_from_memory);
  png_set_user_limits(png, 1000000, 1000000);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
  const int depth = png_get_bit_depth(png, info), colour = png_get_color_type(png, info);
  if (colour != PNG_COLOR_TYPE_GRAY) {
    png_destroy_read_struct(&png, &info, nullptr);
    return std::string(colour_kind(colour)) + ": expected a greyscale image (no colour, palette or alpha)";
  }
  if (static_cast<std::int64_t>(width) * height > max_pixels) {
    png_destroy_read_struct(&png, &info, nullptr);
    return std::to_string(width) + " x " + std::to_string(height) + " pixels: more than the " +
           std::to_string(max_pixels) + " heightfield cells allowed";
  }
  // 1, 2 and 4 bits come out one byte per pixel with their values unchanged (not scaled to 8 bits).
  if (depth < 8) png_set_packing(png);
  out.bit_depth = depth;
  png_read_update_info(png, info);
  row.resize(png_get_rowbytes(png, info));
  out.width = static_cast<int>(width);
  out.height = static_cast<int>(height);
  out.samples.resize(static_cast<std::size_t>(width) * height);
  for (png_uint_32 y = 0; y < height; ++y) {
    png_read_row(png, row.data(), nullptr);
    for (png_uint_32 x = 0; x < width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * width + x;
      out.samples[i] = depth == 16 ? static_cast<std::uint16_t>((row[2 * x] << 8) | row[2 * x + 1])  // big-endian
                                   : row[x];
    }
  }
  png_destroy_read_struct(&png, &info, nullptr);
  return "";
}

}  // namespace

Expected<HeightImage> decode_height_png(const std::string& bytes, std::int64_t max_pixels) {
  using Result = Expected<HeightImage>;
  if (bytes.size() < 8 || png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, 8) != 0) {
    return Result::failure("not a PNG file");
  }
  HeightImage image;
  std::vector<unsigned char> row;
  try {
    const std::string reason = decode(bytes, max_pixels, image, row);
    if (!reason.empty()) return Result::failure(reason);
  } catch (const std::exception& e) {
    return Result::failure(std::string("cannot decode: ") + e.what());
  }
  return image;
}

}  // namespace stepslide
