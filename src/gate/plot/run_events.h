// What a run did that its trajectory's columns do not hold, for the
// pictures (plot, view): each push between the character and a dynamic
// body, and the character's stance (its shape's height) on every row.
// Recorded by an observer attached for the whole run; attaching it leaves
// the trajectory byte-identical (the observer only reads).
#pragma once

#include <LinearMath/btVector3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scenario/run/simulate.h"
#include "scenario/scenario.h"

namespace stepslide {

/// One push, as the observer reported it.
struct RunPush {
  enum class Kind {
    Push,     ///< the character walked into the body (PushEvent::Kind::Push)
    Landing,  ///< the character landed on it (PushEvent::Kind::Landing)
    PushedBy  ///< the body moved into the character and pushed it out (a depenetration against it)
  };
  Kind kind = Kind::Push;
  std::int64_t row = 0;  ///< the row the tick made
  std::string body;
  btVector3 point{0, 0, 0};  ///< Push, Landing: where the impulse acts; PushedBy: the contact on the body
  /// Push, Landing: the impulse on the body (N s). PushedBy: how far the
  /// character was moved (m).
  btVector3 amount{0, 0, 0};
};

/// Consecutive rows of pushes of one kind on one body, drawn as one mark.
struct PushStretch {
  RunPush::Kind kind = RunPush::Kind::Push;
  std::string body;
  std::int64_t first = 0, last = 0;  ///< rows
  btVector3 point{0, 0, 0};          ///< of the first push
  btVector3 total{0, 0, 0};          ///< the amounts summed
};

struct RunEvents {
  std::vector<RunPush> pushes;  ///< in row order; weight impulses (every tick stood on a body) are left out
  /// The character's shape height along up on each row; empty when the
  /// scenario has no crouch_shape (its stance never changes).
  std::vector<double> height;
  /// Per row: crouched (a shape lower than the standing one). Empty when `height` is.
  std::vector<bool> crouched(const Scenario& scenario) const;
  std::vector<PushStretch> stretches() const;
};

/// Records a run's events: `options()` gives simulate() what to call; the
/// recorder must outlive the run.
class RunEventRecorder {
 public:
  explicit RunEventRecorder(const Scenario& scenario);
  ~RunEventRecorder();
  RunEventRecorder(const RunEventRecorder&) = delete;
  RunEventRecorder& operator=(const RunEventRecorder&) = delete;
  /// `base` with its on_tick wrapped (base's own is still called first).
  /// `pushes`: attach the observer that records them (false: the stance
  /// only, and the controller's observer is left to others, e.g. trace).
  SimulationOptions options(SimulationOptions base = {}, bool pushes = true);
  const RunEvents& events() const { return events_; }

 private:
  struct Observer;
  const Scenario& scenario_;
  RunEvents events_;
  std::unique_ptr<Observer> observer_;
};

/// The height along up of a character shape (capsule, cylinder: height;
/// sphere: 2 r; box: 2 hy).
double character_height(const ShapeDef& shape);

}  // namespace stepslide
