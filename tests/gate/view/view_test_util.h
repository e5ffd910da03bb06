// What the view tests share: the data document read back out of a page, the
// page without its inlined libraries, a stand-in for libjs-three (so that
// only the browser tests need the real one), and headless Chromium with
// software WebGL.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "gate/view/three.h"
#include "support/chromium.h"
#include "support/temp_dir.h"

namespace stepslide::test {

using ViewJson = nlohmann::ordered_json;

/// The text of the page's <script id="ID"...> element ("" when absent).
inline std::string script_text(const std::string& html, const std::string& id) {
  const std::size_t open = html.find("<script id=\"" + id + "\"");
  if (open == std::string::npos) return "";
  const std::size_t start = html.find('>', open) + 1;
  const std::size_t end = html.find("</script>", start);
  return html.substr(start, end - start);
}

/// The page's data document (gate/view/data.h).
inline ViewJson page_data(const std::string& html) { return ViewJson::parse(script_text(html, "view-data")); }

/// The page with the inlined three.js and OrbitControls left out: what stepslide itself wrote.
inline std::string without_libraries(std::string html) {
  for (const char* id : {"three-js", "orbit-controls-js"}) {
    const std::string text = script_text(html, id);
    const std::size_t at = html.find(text, html.find(std::string("<script id=\"") + id + "\""));
    html.erase(at, text.size());
  }
  return html;
}

/// Scripts that stand in for libjs-three where no browser runs them.
inline view::ThreeJs fake_three() {
  view::ThreeJs three;
  three.dir = "(test)";
  three.three = "/* three.js stand-in */";
  three.orbit_controls = "/* OrbitControls stand-in */";
  three.revision = "111";
  return three;
}

/// Writes the stand-in as a libjs-three folder under `dir`; returns the folder.
inline fs::path write_fake_three(const fs::path& dir) {
  const fs::path three = dir / "fake-three";
  fs::create_directories(three / "examples/js/controls");
  std::ofstream(three / "three.min.js") << fake_three().three;
  std::ofstream(three / "examples/js/controls/OrbitControls.js") << fake_three().orbit_controls;
  return three;
}

/// Debian's libjs-three, when installed.
inline bool have_libjs_three() { return view::load_three_js(view::kDebianThreeDir).ok(); }

/// Headless Chromium drawing WebGL in software (SwiftShader), with the flags
/// of support/chromium.h but the GPU process kept. `extra`: more flags.
inline std::string webgl_chromium(const std::string& chromium, const fs::path& work, const std::string& extra = "") {
  fs::create_directories(work / "profile");
  return "timeout 120 " + chromium +
         " --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader --disable-quic "
         "--no-first-run --disable-background-networking --disable-component-update --disable-sync "
         "--hide-scrollbars --enable-logging=stderr --v=0 --user-data-dir='" + (work / "profile").string() + "' " +
         extra;
}

/// What Chromium made of a page: the DOM after load (--dump-dom) and its log.
struct DomDump {
  int status = -1;
  std::string dom;
  std::string log;
};

inline DomDump dump_dom(const std::string& chromium, const std::string& url, const fs::path& work,
                        const std::string& extra = "") {
  DomDump d;
  const fs::path dom = work / "dom.html", log = work / "chromium.log";
  const std::string command = webgl_chromium(chromium, work, extra) + " --dump-dom '" + url + "' >'" + dom.string() +
                              "' 2>'" + log.string() + "'";
  d.status = std::system(command.c_str());
  d.dom = read_text(dom);
  d.log = read_text(log);
  return d;
}

/// The value of attribute `name` of the dumped page's <body>, or "".
inline std::string body_attribute(const std::string& dom, const std::string& name) {
  const std::size_t body = dom.find("<body");
  if (body == std::string::npos) return "";
  const std::size_t end = dom.find('>', body);
  const std::size_t at = dom.find(" " + name + "=\"", body);
  if (at == std::string::npos || at > end) return "";
  const std::size_t start = at + name.size() + 3;
  return dom.substr(start, dom.find('"', start) - start);
}

inline std::optional<Image> webgl_screenshot(const std::string& chromium, const std::string& url, int width,
                                             int height, const fs::path& work) {
  const fs::path png = work / "shot.png";
  fs::remove(png);
  const std::string command = webgl_chromium(chromium, work) + " --screenshot='" + png.string() +
                              "' --window-size=" + std::to_string(width) + "," + std::to_string(height) + " '" +
                              url + "' >'" + (work / "chromium.log").string() + "' 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command << "\n" << read_text(work / "chromium.log");
  return read_png(png);
}

}  // namespace stepslide::test
