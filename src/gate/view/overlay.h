// The trace overlay of a view page: one tick's recorded controller events
// (record_trace, the events `stepslide trace` prints) reduced to what the
// page draws, each with the very line `trace` prints for it.
//
//   text     the line, as trace_event_text gives it
//   event    "sweep", "ray", "step-up", "depenetration", "ground", "velocity"
//   purpose  sweeps and rays: "slide", "step-up", "tread", ...
//   from, to the query's start and requested end (sweeps: feet positions);
//            step-up: where it started and where the forward move points
//   hit      sweeps and rays; then reached (sweeps: feet where the shape
//            stopped), point (the world contact point) and normal
//   normals  depenetration: each overlap's normal; correction: the push
//   normal   ground: the ground's normal when one was found
// Points and vectors as three integers at kGeometryDigits.
#pragma once

#include "gate/view/encoding.h"

namespace stepslide::view {

/// One tick's events (a JSON array as record_trace records them) for the page.
Json overlay_events(const Json& events);

}  // namespace stepslide::view
