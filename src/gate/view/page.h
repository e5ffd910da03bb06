// The view page's HTML: its skeleton (title, scene, panel, timeline), the
// style and script of view/assets/ (compiled in), three.js and
// OrbitControls as read from libjs-three, and the data document, each inline.
#pragma once

#include <string>

#include "gate/view/encoding.h"
#include "gate/view/three.h"

namespace stepslide::view {

/// The page for `data` (view_document). Deterministic: the same inputs give the same bytes.
std::string page_html(const Json& data, const ThreeJs& three);

/// `data` as JSON text that cannot end a <script> element: every '<', '>'
/// and '&' written as a \u escape; invalid UTF-8 replaced by U+FFFD.
std::string script_json(const Json& data);

}  // namespace stepslide::view
