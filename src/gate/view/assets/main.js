// stepslide view: puts the page together and keeps everything on one tick.
// What the page shows is also written on <body> for tools and tests:
// data-status ("ready", or "error" with the red box), data-tick,
// data-bodies, data-triangles, data-ghosts (objects drawn for the
// reference: 0 without one), data-divergence (its tick, or "none"),
// data-trace (whether the page has a trace), data-trace-objects (objects
// drawn for the tick's queries), data-level ("yes" inside a level),
// data-follow, data-cut (the cut's height above the feet in metres, or
// "off") and data-character-screen ("x y": where the character's centre is
// drawn, in CSS pixels of the page; "none" when it is not drawn).

function Viewer(data) {
  const viewer = this;
  this.data = data;
  this.first = data.ticks[0];
  this.last = data.ticks[1];
  this.tick = this.first;
  this.runs = data.runs.map((run) => decodeRun(run, this.first));
  this.scene = new ViewScene(document.getElementById('scene'), data, this.runs);
  this.panel = document.getElementById('panel');
  this.follow = document.getElementById('follow');
  for (const which of ['top', 'side', 'three-quarter']) {
    document.getElementById('view-' + which).addEventListener('click', () => viewer.scene.view(which));
  }
  this.follow.addEventListener('change', () => viewer.setTick(viewer.tick));
  if (this.scene.level) this.levelControls();
  window.addEventListener('keydown', (event) => viewer.cameraKey(event));
  this.timeline = new Timeline(this);
  this.legend();

  const body = document.body;
  body.setAttribute('data-bodies', String(data.bodies.length));
  body.setAttribute('data-triangles', String(this.scene.triangles));
  body.setAttribute('data-ghosts', String(this.scene.ghost.children.length));
  body.setAttribute('data-divergence', data.divergence ? String(data.divergence.tick) : 'none');
  body.setAttribute('data-trace', data.trace ? 'yes' : 'no');
  body.setAttribute('data-level', this.scene.level ? 'yes' : 'no');
}

/// Inside a level: follow the character from the start, and show the cutaway's controls.
Viewer.prototype.levelControls = function () {
  const viewer = this, cutaway = this.scene.cutaway;
  this.follow.checked = true;
  document.getElementById('cut-controls').hidden = false;
  document.getElementById('cut-keys').hidden = false;
  const box = document.getElementById('cutaway'), slider = document.getElementById('cut-height');
  slider.value = String(cutaway.aboveFeet);
  box.addEventListener('change', () => viewer.setCut(box.checked, cutaway.aboveFeet));
  slider.addEventListener('input', () => viewer.setCut(cutaway.enabled, Number(slider.value)));
  this.showCut();
};

/// Turns the cutaway on or off and puts its cut `aboveFeet` metres over the feet.
Viewer.prototype.setCut = function (enabled, aboveFeet) {
  const cutaway = this.scene.cutaway, slider = document.getElementById('cut-height');
  cutaway.enabled = enabled;
  cutaway.aboveFeet = Math.max(Number(slider.min), Math.min(Number(slider.max), Math.round(aboveFeet * 10) / 10));
  document.getElementById('cutaway').checked = enabled;
  slider.value = String(cutaway.aboveFeet);
  this.showCut();
  this.scene.render();
};

Viewer.prototype.showCut = function () {
  const cutaway = this.scene.cutaway;
  document.getElementById('cut-value').textContent = cutaway.enabled ? fmt(cutaway.aboveFeet) + ' m' : 'off';
  document.body.setAttribute('data-cut', cutaway.enabled ? String(cutaway.aboveFeet) : 'off');
};

/// The camera's keys (camera.js), the cutaway's and follow's; not while typing in a field.
Viewer.prototype.cameraKey = function (event) {
  const target = event.target;
  if (target && (target.tagName === 'SELECT' || target.tagName === 'TEXTAREA' ||
    (target.tagName === 'INPUT' && ['range', 'checkbox', 'button'].indexOf(target.type) < 0))) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const s = this.scene, key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const pan = (right, forward) => {
    this.follow.checked = false;  // else the next tick would bring the camera back
    document.body.setAttribute('data-follow', 'no');
    s.panBy(right, forward);
  };
  switch (key) {
    case 'a': if (event.shiftKey) pan(-1, 0); else s.orbitBy(-CAMERA_TURN); break;
    case 'd': if (event.shiftKey) pan(1, 0); else s.orbitBy(CAMERA_TURN); break;
    case 'w': if (event.shiftKey) pan(0, 1); else s.tiltBy(CAMERA_TURN); break;
    case 's': if (event.shiftKey) pan(0, -1); else s.tiltBy(-CAMERA_TURN); break;
    case '+': case '=': s.zoomBy(1 / CAMERA_ZOOM); break;
    case '-': case '_': s.zoomBy(CAMERA_ZOOM); break;
    case 'f':
      this.follow.checked = !this.follow.checked;
      this.setTick(this.tick);
      break;
    case 'c': case '[': case ']':
      if (!s.cutaway) return;
      if (key === 'c') this.setCut(!s.cutaway.enabled, s.cutaway.aboveFeet);
      else this.setCut(s.cutaway.enabled, s.cutaway.aboveFeet + (key === '[' ? -0.1 : 0.1));
      break;
    default: return;
  }
  event.preventDefault();
};

/// Shows `tick` (clamped to the ticks shown) everywhere, the URL included.
Viewer.prototype.setTick = function (tick) {
  tick = Math.max(this.first, Math.min(this.last, Math.round(Number(tick) || 0)));
  this.tick = tick;
  const events = this.data.trace ? this.data.trace.ticks[tick - this.data.trace.first] : null;
  const overlay = events
    ? overlayObject(events, this.scene, { before: tick > this.first ? feetAt(this.runs[0], tick - 1) : null,
      after: feetAt(this.runs[0], tick) })
    : null;
  this.scene.setTick(tick, overlay, this.follow.checked);
  const viewer = this;
  let pinned = null;
  renderPanel(this.panel, this.data, this.runs, tick, (t) => viewer.setTick(t), (index, li) => {
    if (pinned) pinned.classList.remove('highlight');
    pinned = li;
    if (li) li.classList.add('highlight');
    singleOut(viewer.scene.overlay, index);
    viewer.scene.render();
  });
  this.timeline.show(tick);
  document.body.setAttribute('data-tick', String(tick));
  document.body.setAttribute('data-trace-objects', String(this.scene.overlay.children.length));
  document.body.setAttribute('data-follow', this.follow.checked ? 'yes' : 'no');
  const onScreen = this.scene.characterOnScreen();
  document.body.setAttribute('data-character-screen',
    onScreen ? Math.round(onScreen.x) + ' ' + Math.round(onScreen.y) : 'none');
  document.title = this.data.scenario.name + ' \u00b7 tick ' + tick + ' - stepslide view';
};

Viewer.prototype.legend = function () {
  const legend = document.getElementById('legend');
  const entries = [
    ['swatch', COLOURS.grounded, 'grounded'],
    ['swatch', COLOURS.airborne, 'airborne'],
    ['swatch', COLOURS.stepping, 'stepping'],
    ['dot', COLOURS.character, this.data.characters && this.data.characters.length ? 'character (first)' : 'character'],
  ];
  // The other characters ("characters"), each by its name in its colour.
  for (const other of this.scene.others) entries.push(['dot', other.colour, 'character ' + other.name]);
  if (this.runs.length > 1) {
    entries.push(['swatch', COLOURS.ghost, this.runs[1].role === 'golden' ? 'golden (ghost)' : 'other run (ghost)']);
    if (this.data.divergence) entries.push(['dot', COLOURS.divergence, 'first divergence']);
  }
  for (const [kind, colour, text] of entries) {
    const line = document.createElement('div');
    line.className = 'legend-entry';
    const mark = document.createElement('span');
    mark.className = kind;
    mark.style.background = hexColour(colour);
    line.appendChild(mark);
    line.appendChild(document.createTextNode(text));
    legend.appendChild(line);
  }
};

function start() {
  const data = JSON.parse(document.getElementById('view-data').textContent);
  document.getElementById('title').textContent = data.scenario.name;
  document.getElementById('description').textContent =
    (data.scenario.description ? data.scenario.description + ' \u2014 ' : '') + data.scenario.source + ', ' +
    data.scenario.ticks + ' ticks at ' + data.scenario.tick_rate + ' Hz';
  const viewer = new Viewer(data);
  window.stepslideViewer = viewer;
  const fromHash = tickFromHash(window.location.hash);
  viewer.setTick(fromHash === null ? viewer.first : fromHash);
  if (window.stepslideProblems.errors.length === 0) document.body.setAttribute('data-status', 'ready');
  window.stepslideShowProblems();
}

try {
  start();
} catch (e) {
  console.error('stepslide view could not start: ' + (e && e.stack ? e.stack : e));
}
