// CaptureRecorder: steps the game's controller and keeps the history a
// scenario is written from (the writing itself: scenario_writer.cpp).
#include "stepslide/capture/recorder.h"

#include <cmath>

#include "base/file_io.h"
#include "capture/exact_fit.h"
#include "capture/scenario_writer.h"
#include "capture/window.h"
#include "capture/world_bodies.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

bool same_settings(const ControllerSettings& a, const ControllerSettings& b) {
  for (const SettingInfo& info : setting_table()) {
    if (get_setting(a, info) != get_setting(b, info)) return false;
  }
  return true;
}

}  // namespace

btQuaternion scenario_rotation(const std::array<double, 3>& rotation_deg) {
  return capture::loader_rotation(rotation_deg);
}

CaptureRecorder::CaptureRecorder(btCollisionWorld* world, CharacterController& controller,
                                 const CharacterShapeDesc& shape, CaptureConfig config)
    : world_(world), controller_(controller), shape_(shape), config_(std::move(config)) {
  const CharacterContext& ctx = controller.context();
  probe_ = std::make_unique<CharacterController>(world, shape, controller.settings(), ctx.up, ctx.gravity);
  CapturedTick row;
  row.snapshot = controller.save_state();
  record(std::move(row), true);
}

CaptureRecorder::~CaptureRecorder() = default;

TickReport CaptureRecorder::update(const CharacterInput& input, double dt) {
  bool cut = !same_snapshot(controller_.save_state(), rows_.back().snapshot);
  if (!same_settings(controller_.settings(), probe_->settings())) {
    // The controller accepted them, so the probe does too.
    (void)probe_->set_settings(controller_.settings());
    cut = true;
  }
  CapturedTick row;
  row.input = input;
  row.dt = dt;
  row.report = controller_.update(input, dt);
  row.snapshot = controller_.save_state();
  row.tick = ++tick_;
  const TickReport report = row.report;
  record(std::move(row), cut);
  drop_old_rows();
  return report;
}

void CaptureRecorder::record(CapturedTick row, bool cut) {
  row.cut = cut;
  // Where reset() would put a scenario that starts here, in this world, now.
  probe_->reset(row.snapshot.state.position, row.snapshot.state.velocity);
  const CharacterState& fresh = probe_->state();
  const CharacterState& s = row.snapshot.state;
  // The scenario's character.state restores the normal, the camera, the
  // held jump and the ground's turn; what reset() classifies it cannot.
  row.restartable = false;
  if (!same_shape(row.snapshot.shape, shape_)) {
    // The scenario written starts with the shape the recorder was made with;
    // a change of shape (set_shape) also cuts the capture, as a teleport does.
    row.not_restartable = "the character's shape is not the one the recorder was made with (set_shape)";
  } else if (s.grounded != fresh.grounded || s.ground_object != fresh.ground_object) {
    row.not_restartable = "reset() would classify the ground differently";
  } else if (s.ground_object != nullptr && !same_transform(s.ground_transform, fresh.ground_transform)) {
    row.not_restartable = "reset() would record another pose of the ground";
  } else {
    row.restartable = true;
  }
  row.moving = capture::moving_poses(*world_);
  rows_.push_back(std::move(row));
}

void CaptureRecorder::drop_old_rows() {
  const double dt = rows_.back().dt;
  if (!(dt > 0)) return;
  const double keep = std::ceil(config_.window_seconds / dt) + 1;
  while (rows_.size() > 2 && static_cast<double>(rows_.size()) > keep) rows_.pop_front();
}

Expected<std::string> CaptureRecorder::scenario_text(CaptureSummary* summary) const {
  try {
    const Expected<capture::Window> window = capture::choose_window(rows_, *world_, shape_, config_);
    if (!window) return Expected<std::string>::failure("cannot capture: " + window.error());
    CaptureSummary local;
    const capture::ScenarioSource source{rows_, *world_, shape_, probe_->settings(), controller_.context(), config_};
    Expected<std::string> text = capture::scenario_json(source, *window, local);
    if (!text) return Expected<std::string>::failure("cannot capture: " + text.error());
    if (summary != nullptr) *summary = std::move(local);
    return text;
  } catch (const std::exception& e) {  // out of memory: a game must not crash on a bug report
    return Expected<std::string>::failure(std::string("cannot capture: ") + e.what());
  }
}

Expected<CaptureSummary> CaptureRecorder::write_scenario(const std::string& path) const {
  CaptureSummary summary;
  const Expected<std::string> text = scenario_text(&summary);
  if (!text) return Expected<CaptureSummary>::failure(text.error());
  try {
    // Parents::MustExist: a mistyped folder in a game's settings is an error,
    // not a new directory tree.
    const Status written = write_file_atomic(path, *text, Parents::MustExist);
    if (!written) return Expected<CaptureSummary>::failure("cannot write " + path + ": " + written.error());
  } catch (const std::exception& e) {
    return Expected<CaptureSummary>::failure("cannot write " + path + ": " + e.what());
  }
  return summary;
}

}  // namespace stepslide
