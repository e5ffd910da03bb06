#include "gate/view/three.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

#include "base/file_io.h"

namespace stepslide::view {

namespace {

/// The library's text, or why it cannot be used.
Expected<std::string> read_script(const std::string& path) {
  Expected<std::string> text = read_file(path, 64ll * 1024 * 1024);
  if (!text) {
    return Expected<std::string>::failure(
        "cannot read " + path + " (" + text.error() + "): stepslide view inlines three.js from the Debian package "
        "libjs-three; install it (apt-get install libjs-three, or tools/install-deps.sh) or set STEPSLIDE_THREE_DIR "
        "to a folder laid out like /usr/share/javascript/three");
  }
  // Inside <script>, "</script" (any case) would end the element.
  std::string lower = *text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower.find("</script") != std::string::npos) {
    return Expected<std::string>::failure(path + ": contains \"</script\", so it cannot be inlined in a page");
  }
  return text;
}

}  // namespace

std::string default_three_dir() {
  const char* set = std::getenv("STEPSLIDE_THREE_DIR");
  return set != nullptr && *set != '\0' ? std::string(set) : std::string(kDebianThreeDir);
}

Expected<ThreeJs> load_three_js(const std::string& dir) {
  ThreeJs js;
  js.dir = dir;
  Expected<std::string> three = read_script(dir + "/three.min.js");
  if (!three) return Expected<ThreeJs>::failure(three.error());
  Expected<std::string> orbit = read_script(dir + "/examples/js/controls/OrbitControls.js");
  if (!orbit) return Expected<ThreeJs>::failure(orbit.error());
  js.three = three.take();
  js.orbit_controls = orbit.take();
  static const std::regex revision(R"(REVISION\s*=\s*["'](\w+)["'])");
  std::smatch match;
  const std::string head = js.three.substr(0, 4096);
  if (std::regex_search(head, match, revision)) js.revision = match[1];
  return js;
}

}  // namespace stepslide::view
