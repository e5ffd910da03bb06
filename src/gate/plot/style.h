// The colours and font of the pictures, shared by every part so that the
// legend shows exactly what the views draw.
#pragma once

#include <algorithm>
#include <cstddef>

namespace stepslide::plot {

/// The judged run, then the reference.
constexpr const char* kTraceColour[] = {"#1565c0", "#ef6c00"};
constexpr const char* kStepUpColour = "#00897b";
constexpr const char* kStepDownColour = "#8e24aa";
constexpr const char* kDivergenceColour = "#d50000";
constexpr const char* kGroundColour = "#d8cfbf";
constexpr const char* kBodyStroke = "#6b5f4e";
constexpr const char* kGridColour = "#e4e4e4";
constexpr const char* kTextColour = "#222";
constexpr const char* kMutedText = "#666";
constexpr const char* kFont = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Colour of trace `index`: any trace after the first is drawn as a reference.
inline const char* trace_colour(std::size_t index) { return kTraceColour[std::min<std::size_t>(index, 1)]; }

}  // namespace stepslide::plot
