// Which rows of the history a scenario covers: the longest run up to the
// last row with one fixed dt, no teleport or settings change, every written
// moving body present throughout, and a first row the controller can be
// restarted from exactly.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "stepslide/capture/recorder.h"
#include "stepslide/expected.h"

namespace stepslide::capture {

struct Window {
  std::size_t first = 0;  ///< index into the history of row 0
  std::size_t last = 0;   ///< ... of the last row
  int tick_rate = 0;
  double dt = 0.0;
  /// Bodies written, in the world's order (the level file's left out).
  std::vector<const btCollisionObject*> fixed;
  std::vector<const btCollisionObject*> moving;
  int skipped_absent = 0;  ///< moving bodies near the path but not there throughout
  std::string late_start;  ///< CaptureSummary::late_start
};

/// Chooses the window and the bodies near its path.
Expected<Window> choose_window(const std::deque<CapturedTick>& rows, const btCollisionWorld& world,
                               const CharacterShapeDesc& shape, const CaptureConfig& config);

/// The pose of `object` in `row`, or null when it was not in the world then.
const CapturedPose* pose_in(const CapturedTick& row, const btCollisionObject* object);

}  // namespace stepslide::capture
