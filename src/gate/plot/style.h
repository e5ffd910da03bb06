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
/// Failed expectations: a cross on every view.
constexpr const char* kFailureColour = "#c2185b";
constexpr const char* kGroundColour = "#d8cfbf";
constexpr const char* kBodyStroke = "#6b5f4e";
/// A mesh's walls where they cross the character's waist, and what is above its head (top view).
constexpr const char* kWallColour = "#3b3226";
constexpr const char* kOverheadColour = "#cfd5dc";
constexpr const char* kGridColour = "#e4e4e4";
constexpr const char* kTextColour = "#222";
constexpr const char* kMutedText = "#666";
constexpr const char* kFont = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Colour of trace `index`: any trace after the first is drawn as a reference.
inline const char* trace_colour(std::size_t index) { return kTraceColour[std::min<std::size_t>(index, 1)]; }

}  // namespace stepslide::plot
