// stepslide view: the camera by keys, beside OrbitControls' mouse (drag to
// orbit, right-drag or shift-drag to pan, wheel to zoom). Each moves the
// camera about the point it looks at (the character, when following):
// A / D orbit about up, W / S tilt, + / - zoom, shift with W A S D pans.
// The page states them under its camera buttons (main.js binds the keys).

/// Orbit and tilt steps, radians; zoom step as a factor.
const CAMERA_TURN = Math.PI / 18;
const CAMERA_ZOOM = 1.2;

/// The camera's offset from the point it looks at.
ViewScene.prototype.cameraOffset = function () {
  return this.camera.position.clone().sub(this.controls.target);
};

ViewScene.prototype.placeCamera = function (offset) {
  this.camera.position.copy(this.controls.target).add(offset);
  this.camera.lookAt(this.controls.target);
  this.controls.update();
  this.render();
};

/// Turns the camera about up through the point it looks at; positive: to the right.
ViewScene.prototype.orbitBy = function (angle) {
  this.placeCamera(this.cameraOffset().applyAxisAngle(this.up, angle));
};

/// Raises (positive) or lowers the camera over the point it looks at, from
/// a little below the horizon to straight above.
ViewScene.prototype.tiltBy = function (angle) {
  const offset = this.cameraOffset();
  const length = offset.length();
  const elevation = Math.asin(Math.max(-1, Math.min(1, offset.dot(this.up) / length)));
  const next = Math.max(-0.3, Math.min(Math.PI / 2 - 0.001, elevation + angle));
  const level = offset.clone().addScaledVector(this.up, -offset.dot(this.up));
  if (level.lengthSq() < 1e-12) level.copy(this.axes().down);  // from straight above: tilt toward the top view's bottom
  level.normalize();
  this.placeCamera(level.multiplyScalar(Math.cos(next) * length).addScaledVector(this.up, Math.sin(next) * length));
};

/// Moves the camera toward (factor < 1) or away from the point it looks at.
ViewScene.prototype.zoomBy = function (factor) {
  const offset = this.cameraOffset();
  const length = Math.max(0.3, Math.min(2000, offset.length() * factor));
  this.placeCamera(offset.setLength(length));
};

/// Slides camera and target across the screen (right, +1) or along the
/// ground away from the camera (forward, +1), a tenth of the distance a step.
ViewScene.prototype.panBy = function (right, forward) {
  const offset = this.cameraOffset();
  const step = 0.1 * offset.length();
  const away = offset.clone().negate().addScaledVector(this.up, offset.dot(this.up));
  if (away.lengthSq() < 1e-12) away.copy(this.axes().down).negate();  // from straight above: up the screen
  away.normalize();
  const side = away.clone().cross(this.up).normalize();
  const move = side.multiplyScalar(right * step).addScaledVector(away, forward * step);
  this.controls.target.add(move);
  this.camera.position.add(move);
  this.controls.update();
  this.render();
};
