#include "gate/view/page.h"

#include "base/xml.h"

namespace stepslide::view {

namespace assets {
// Generated from view/assets/ by cmake/embed_text.cmake.
extern const char* const kViewStyle;
extern const char* const kViewGuard;
extern const char* const kViewScript;
}  // namespace assets

namespace {

/// What the page's script fills in. Ids are what view/assets/*.js look up.
constexpr const char* kSkeleton = R"html(<div id="app">
<header id="top"><h1 id="title"></h1><p id="description" class="muted"></p><div id="problems" hidden></div></header>
<main id="main">
<section id="stage" aria-label="3D view of the level and the run">
<div id="scene"></div>
<div id="camera-buttons" role="toolbar" aria-label="camera">
<button type="button" id="view-top" title="look down on the level">Top</button>
<button type="button" id="view-side" title="look across the path">Side</button>
<button type="button" id="view-three-quarter" title="the starting view">3/4</button>
<label title="keep the character at the centre (F)"><input type="checkbox" id="follow"/> follow</label>
<span id="cut-controls" hidden="hidden">
<label title="cut the level open above the character's head and fade what stands between the camera and the character (C)"><input type="checkbox" id="cutaway" checked="checked"/> cutaway</label>
<label title="height of the cut above the feet ([ lower, ] higher)">cut <input type="range" id="cut-height" min="0.2" max="8" step="0.1" value="2"/></label>
<output id="cut-value" for="cut-height"></output>
</span>
</div>
<div id="camera-help">mouse: drag to orbit, right-drag or shift-drag to pan, wheel to zoom.
Keys: A / D orbit, W / S tilt, + / &#8722; zoom, shift+W A S D pan, F follow<span id="cut-keys" hidden="hidden">,
C cutaway, [ / ] cut height</span>; &#8592; / &#8594; step a tick (shift: 10), space plays.</div>
<div id="legend"></div>
</section>
<aside id="panel" aria-label="the tick shown"></aside>
</main>
<footer id="timeline" aria-label="timeline">
<button type="button" id="play" title="play or pause (space)">Play</button>
<label>speed <select id="speed"><option value="0.1">0.1x</option><option value="0.25">0.25x</option>
<option value="0.5">0.5x</option><option value="1" selected="selected">1x</option><option value="2">2x</option>
<option value="4">4x</option></select></label>
<button type="button" id="previous" title="previous tick (left arrow; shift: 10)">&lt;</button>
<div id="track"><canvas id="strip" height="10"></canvas>
<input type="range" id="slider" min="0" max="0" step="1" value="0" aria-label="tick"/></div>
<button type="button" id="next" title="next tick (right arrow; shift: 10)">&gt;</button>
<span id="tick-label"></span>
<button type="button" id="to-divergence" hidden="hidden">first divergence</button>
</footer>
</div>
<noscript><p>This page replays a stepslide run in 3D with JavaScript (three.js, inlined);
allow scripts to see it.</p></noscript>
)html";

std::string script_element(const std::string& id, const std::string& text, const char* type = nullptr) {
  std::string out = "<script" + xml_attribute("id", id);
  if (type != nullptr) out += xml_attribute("type", type);
  return out + ">\n" + text + "\n</script>\n";
}

}  // namespace

std::string script_json(const Json& data) {
  const std::string text = data.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + 64);
  for (char c : text) {
    switch (c) {
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default: out += c;
    }
  }
  return out;
}

std::string page_html(const Json& data, const ThreeJs& three) {
  const std::string name = data["scenario"]["name"].get<std::string>();
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
  html += "<meta name=\"generator\"" + xml_attribute("content", "stepslide view; three.js r" + three.revision) + "/>\n";
  html += "<title>" + xml_escape_text(name + " - stepslide view") + "</title>\n";
  html += "<style>\n" + std::string(assets::kViewStyle) + "</style>\n</head>\n";
  html += "<body data-status=\"loading\">\n";
  html += kSkeleton;
  html += script_element("view-guard", assets::kViewGuard);
  html += script_element("view-data", script_json(data), "application/json");
  html += script_element("three-js", three.three);
  html += script_element("orbit-controls-js", three.orbit_controls);
  html += script_element("view-js", assets::kViewScript);
  return html + "</body>\n</html>\n";
}

}  // namespace stepslide::view
