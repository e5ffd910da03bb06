// three.js for `stepslide view`: read at run time from Debian's libjs-three
// (r111 in Debian 12), so the binary stays small, building needs no
// JavaScript, and each page inlines the library it was made with. The page
// holds the library's text as is; nothing is fetched when it is opened.
#pragma once

#include <string>

#include "stepslide/expected.h"

namespace stepslide::view {

/// Where Debian's libjs-three installs three.js.
inline constexpr const char* kDebianThreeDir = "/usr/share/javascript/three";

/// The scripts a page inlines.
struct ThreeJs {
  std::string dir;             ///< where they were read from
  std::string three;           ///< three.min.js
  std::string orbit_controls;  ///< examples/js/controls/OrbitControls.js (adds THREE.OrbitControls)
  std::string revision;        ///< three.js's REVISION, e.g. "111"; "" when not found
};

/// $STEPSLIDE_THREE_DIR when set and not empty, else kDebianThreeDir.
std::string default_three_dir();

/// Reads both scripts from `dir`. Fails with a message naming the file and
/// the Debian package libjs-three when either is missing or unreadable, and
/// when a script could end the page's <script> element early.
Expected<ThreeJs> load_three_js(const std::string& dir = default_three_dir());

}  // namespace stepslide::view
