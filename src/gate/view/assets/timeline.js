// stepslide view: the timeline. Play / pause at a chosen speed (1x: the
// scenario's tick rate), step with the arrow keys (shift: 10 ticks; Home,
// End; space plays), scrub with the slider, and the tick in the URL
// fragment (#tick=120): read on load and whenever it changes, rewritten as
// the tick changes, so a link points at a moment. A strip above the slider
// colours each tick by the run's state and marks the first divergence.

/// The tick named by `hash` ("#tick=120"), or null.
function tickFromHash(hash) {
  const match = /(?:^#|&)tick=(\d+)/.exec(hash || '');
  return match ? Number(match[1]) : null;
}

/// `viewer` has first, last, tick, setTick(tick), data and runs.
function Timeline(viewer) {
  const timeline = this;
  this.viewer = viewer;
  this.playing = false;
  this.speed = 1;
  this.slider = document.getElementById('slider');
  this.slider.min = String(viewer.first);
  this.slider.max = String(viewer.last);
  this.playButton = document.getElementById('play');
  this.label = document.getElementById('tick-label');

  this.slider.addEventListener('input', () => viewer.setTick(Number(timeline.slider.value)));
  this.playButton.addEventListener('click', () => timeline.toggle());
  document.getElementById('previous').addEventListener('click', () => viewer.setTick(viewer.tick - 1));
  document.getElementById('next').addEventListener('click', () => viewer.setTick(viewer.tick + 1));
  document.getElementById('speed').addEventListener('change', (event) => {
    timeline.speed = Number(event.target.value);
  });
  const d = viewer.data.divergence;
  if (d && d.tick >= viewer.first && d.tick <= viewer.last) {
    const button = document.getElementById('to-divergence');
    button.hidden = false;
    button.textContent = 'first divergence: tick ' + d.tick;
    button.addEventListener('click', () => viewer.setTick(d.tick));
  }
  window.addEventListener('keydown', (event) => timeline.key(event));
  window.addEventListener('hashchange', () => {
    const tick = tickFromHash(window.location.hash);
    if (tick !== null && tick !== viewer.tick) viewer.setTick(tick);
  });
  window.addEventListener('resize', () => timeline.drawStrip());
  this.drawStrip();
}

Timeline.prototype.key = function (event) {
  const target = event.target;
  if (target && (target.tagName === 'SELECT' || (target.tagName === 'INPUT' && target.type !== 'range'))) return;
  const v = this.viewer;
  const step = event.shiftKey ? 10 : 1;
  switch (event.key) {
    case 'ArrowLeft': v.setTick(v.tick - step); break;
    case 'ArrowRight': v.setTick(v.tick + step); break;
    case 'Home': v.setTick(v.first); break;
    case 'End': v.setTick(v.last); break;
    case ' ': this.toggle(); break;
    default: return;
  }
  event.preventDefault();
};

/// Shows `tick` on the slider, the label and in the URL (replacing the
/// history entry: stepping through ticks should not fill the back button),
/// unless the URL says so already.
Timeline.prototype.show = function (tick) {
  this.slider.value = String(tick);
  const time = tick / this.viewer.data.scenario.tick_rate;
  this.label.textContent = 'tick ' + tick + ' / ' + this.viewer.last + '  t = ' + fmt(time) + ' s';
  if (tickFromHash(window.location.hash) === tick) return;
  try {
    history.replaceState(null, '', '#tick=' + tick);
  } catch (e) {
    window.location.replace('#tick=' + tick);
  }
};

Timeline.prototype.toggle = function () {
  if (this.playing) {
    this.playing = false;
    this.playButton.textContent = 'Play';
    return;
  }
  const v = this.viewer;
  if (v.tick >= v.last) v.setTick(v.first);
  this.playing = true;
  this.playButton.textContent = 'Pause';
  this.clock = null;
  this.owed = 0;
  const timeline = this;
  requestAnimationFrame(function frame(now) { timeline.frame(now, frame); });
};

/// Advances by the ticks due since the last frame at tick_rate x speed.
Timeline.prototype.frame = function (now, again) {
  if (!this.playing) return;
  const v = this.viewer;
  if (this.clock !== null) this.owed += (now - this.clock) / 1000 * v.data.scenario.tick_rate * this.speed;
  this.clock = now;
  const whole = Math.floor(this.owed);
  if (whole > 0) {
    this.owed -= whole;
    v.setTick(Math.min(v.tick + whole, v.last));
  }
  if (v.tick >= v.last) {
    this.toggle();
    return;
  }
  requestAnimationFrame(again);
};

/// One pixel column per tick range: green grounded, orange airborne, pink
/// stepping; red at the first divergence.
Timeline.prototype.drawStrip = function () {
  const canvas = document.getElementById('strip');
  const width = Math.max(canvas.clientWidth, 1);
  canvas.width = width;
  const context = canvas.getContext('2d');
  const v = this.viewer, run = v.runs[0];
  const span = v.last - v.first + 1;
  for (let x = 0; x < width; ++x) {
    const tick = v.first + Math.min(span - 1, Math.floor(x * span / width));
    context.fillStyle = hexColour(stateColour(run, tick));
    context.fillRect(x, 0, 1, canvas.height);
  }
  const d = v.data.divergence;
  if (d && d.tick >= v.first && d.tick <= v.last) {
    context.fillStyle = hexColour(COLOURS.divergence);
    context.fillRect(Math.floor((d.tick - v.first) * width / span), 0, 3, canvas.height);
  }
};
