// Whether a view page shows a run inside a level, and where it cuts the
// level open. Seen from outside, an enclosed level is its roof and its outer
// walls; the page then cuts away what is above the character's head and
// fades what stands between the camera and the character
// (view/assets/cutaway.js), and follows the character from behind.
#pragma once

#include <cstdint>
#include <optional>

#include "scenario/load/world.h"
#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide::view {

/// What the page needs to cut a level open around the character.
struct LevelCut {
  /// Height of the cut above the feet (m): the character's height plus
  /// kCutClearance, rounded up to a decimetre.
  double above_feet = 0.0;
  /// The character's height, feet to head (m).
  double character_height = 0.0;
};

/// Room left between the head and the default cut, so that the top of the
/// character and a low lintel over it still show.
inline constexpr double kCutClearance = 0.3;

/// A level: a static mesh body that reaches higher than the character's
/// head (taller than a floor or a slope underfoot) and that, seen from
/// above, covers where the run starts (row `first` of `run`). Such a body
/// hides the character from the page's usual cameras: its walls stand
/// between them and the character, and its roof, when it has one, above.
/// Nullopt for every other world (open ground, boxes, stairs, terrain),
/// whose page is drawn as it always was.
std::optional<LevelCut> level_cut(const Scenario& scenario, const World& world, const Trajectory& run,
                                  std::int64_t first);

}  // namespace stepslide::view
