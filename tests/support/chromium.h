// Headless Chromium for rendering tests: find it, screenshot a page, read
// the PNG back and count pixels. Tests skip with a message when it is absent.
#pragma once

#include <gtest/gtest.h>
#include <png.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace stepslide::test {

/// Why a rendering test skips on a machine without Chromium.
constexpr const char* kNoChromium =
    "chromium is not installed: run STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh "
    "(or set STEPSLIDE_CHROMIUM to a Chromium binary) to check the rendering";

inline std::string chromium_binary() {
  if (const char* set = std::getenv("STEPSLIDE_CHROMIUM"); set != nullptr && *set != '\0') return set;
  for (const char* name : {"chromium", "chromium-browser"}) {
    if (std::system(("command -v " + std::string(name) + " >/dev/null 2>&1").c_str()) == 0) return name;
  }
  return "";
}

struct Image {
  unsigned width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

inline std::optional<Image> read_png(const fs::path& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return std::nullopt;
  image.format = PNG_FORMAT_RGB;
  Image out;
  out.width = image.width;
  out.height = image.height;
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr)) return std::nullopt;
  return out;
}

/// Screenshots `page` (a file) at W x H with the flags headless Chromium needs as root.
inline std::optional<Image> screenshot(const std::string& chromium, const fs::path& page, int width, int height,
                                const fs::path& work) {
  const fs::path profile = work / "profile";
  const fs::path png = work / "shot.png";
  fs::create_directories(profile);
  const std::string command = "timeout 120 " + chromium +
                              " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                              "--disable-background-networking --disable-component-update --disable-sync "
                              "--hide-scrollbars --user-data-dir='" + profile.string() + "' --screenshot='" +
                              png.string() + "' --window-size=" + std::to_string(width) + "," +
                              std::to_string(height) + " 'file://" + page.string() + "' >'" +
                              (work / "chromium.log").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_EQ(status, 0) << command << "\n" << read_text(work / "chromium.log");
  return read_png(png);
}

/// Pixels within `tolerance` of `rgb` on every channel.
inline std::size_t pixels_near(const Image& image, unsigned r, unsigned g, unsigned b, int tolerance) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < image.rgb.size(); i += 3) {
    n += std::abs(image.rgb[i] - static_cast<int>(r)) <= tolerance &&
                 std::abs(image.rgb[i + 1] - static_cast<int>(g)) <= tolerance &&
                 std::abs(image.rgb[i + 2] - static_cast<int>(b)) <= tolerance
             ? 1
             : 0;
  }
  return n;
}

inline std::size_t distinct_colours(const Image& image) {
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 2 < image.rgb.size(); i += 3) {
    colours.insert((image.rgb[i] >> 3) << 10 | (image.rgb[i + 1] >> 3) << 5 | (image.rgb[i + 2] >> 3));
  }
  return colours.size();
}

}  // namespace stepslide::test
