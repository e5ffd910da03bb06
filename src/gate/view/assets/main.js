// stepslide view: puts the page together and keeps everything on one tick.
// What the page shows is also written on <body> for tools and tests:
// data-status ("ready", or "error" with the red box), data-tick,
// data-bodies, data-triangles, data-ghosts (objects drawn for the
// reference: 0 without one), data-divergence (its tick, or "none"),
// data-trace (whether the page has a trace) and data-trace-objects (objects
// drawn for the tick's queries).

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
  this.timeline = new Timeline(this);
  this.legend();

  const body = document.body;
  body.setAttribute('data-bodies', String(data.bodies.length));
  body.setAttribute('data-triangles', String(this.scene.triangles));
  body.setAttribute('data-ghosts', String(this.scene.ghost.children.length));
  body.setAttribute('data-divergence', data.divergence ? String(data.divergence.tick) : 'none');
  body.setAttribute('data-trace', data.trace ? 'yes' : 'no');
}

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
  document.title = this.data.scenario.name + ' \u00b7 tick ' + tick + ' - stepslide view';
};

Viewer.prototype.legend = function () {
  const legend = document.getElementById('legend');
  const entries = [
    ['swatch', COLOURS.grounded, 'grounded'],
    ['swatch', COLOURS.airborne, 'airborne'],
    ['swatch', COLOURS.stepping, 'stepping'],
    ['dot', COLOURS.character, 'character'],
  ];
  if (this.runs.length > 1) {
    entries.push(['swatch', COLOURS.ghost, this.runs[1].role === 'golden' ? 'golden (ghost)' : 'other run (ghost)']);
    if (this.data.divergence) entries.push(['dot', COLOURS.divergence, 'first divergence']);
  }
  for (const [kind, colour, text] of entries) {
    const line = document.createElement('div');
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
