// stepslide view: the panel for the tick shown. The run's trajectory row,
// the steps under way, the reference with its distance from the run, the
// first divergence, with --trace the tick's queries in the words
// `stepslide trace` prints, and failed expectations. Built with textContent
// only: no text from the data is ever read as HTML.

/// A number for people: at most six decimals, no trailing zeros.
function fmt(value) {
  if (value === undefined) return '\u2014';
  if (!isFinite(value)) return String(value);
  return String(Number(value.toFixed(6)));
}

function vectorText(run, names, tick) {
  const values = names.map((name) => cell(run, name, tick));
  if (values.some((v) => v === undefined)) return '\u2014';
  return '(' + values.map(fmt).join(', ') + ')';
}

/// An element with text or children.
function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function table(rows) {
  const t = element('table');
  for (const [label, value] of rows) {
    const tr = element('tr');
    tr.appendChild(element('th', label));
    tr.appendChild(element('td', value));
    t.appendChild(tr);
  }
  return t;
}

/// A button that looks like a link and jumps to `tick`.
function jumpButton(text, tick, jump) {
  const b = element('button', text, 'link');
  b.type = 'button';
  b.addEventListener('click', () => jump(tick));
  return b;
}

function groundBodyName(data, run, tick) {
  const index = cell(run, 'ground_body', tick);
  if (index === undefined) return '\u2014';
  if (index < 0) return 'none';
  const body = data.bodies[index];
  return body ? body.name : 'world[' + index + ']';
}

function runRows(data, run, tick) {
  const yesNo = (v) => (v === undefined ? '\u2014' : v !== 0 ? 'yes' : 'no');
  const vx = cell(run, 'vx', tick), vy = cell(run, 'vy', tick), vz = cell(run, 'vz', tick);
  const speed = vx === undefined ? undefined : Math.sqrt(vx * vx + vy * vy + vz * vz);
  return [
    ['feet', vectorText(run, ['x', 'y', 'z'], tick)],
    ['velocity', vectorText(run, ['vx', 'vy', 'vz'], tick) + '  |v| ' + fmt(speed)],
    ['grounded', yesNo(cell(run, 'grounded', tick))],
    ['ground normal', vectorText(run, ['normal_x', 'normal_y', 'normal_z'], tick)],
    ['ground body', groundBodyName(data, run, tick)],
    ['step_dy', fmt(cell(run, 'step_dy', tick))],
    ['camera_dy', fmt(cell(run, 'camera_dy', tick))],
    ['sweeps', fmt(cell(run, 'sweeps', tick))],
    ['slide / depen iters', fmt(cell(run, 'slide_iters', tick)) + ' / ' + fmt(cell(run, 'depen_iters', tick))],
    ['stuck', yesNo(cell(run, 'stuck', tick))],
    ['feet on ground body', vectorText(run, ['local_x', 'local_y', 'local_z'], tick)],
  ];
}

function stepText(step) {
  const ticks = step.first === step.last ? 'tick ' + step.first : 'ticks ' + step.first + '\u2013' + step.last;
  return (step.up ? 'step up ' : 'step down ') + step.total + ' m, ' + ticks;
}

/// The steps under way at `tick`, then every step (folded) to jump to.
function stepsSection(panel, run, tick, jump) {
  const now = run.steps.filter((s) => s.first <= tick && tick <= s.last);
  panel.appendChild(element('p', 'steps: ' + (now.length ? now.map(stepText).join('; ') : 'none at this tick'),
    'muted'));
  if (run.steps.length === 0) return;
  const details = element('details');
  details.appendChild(element('summary', 'every step (' + run.steps.length + ')'));
  const list = element('ul');
  for (const step of run.steps.slice(0, 200)) {
    const li = element('li');
    li.appendChild(jumpButton(stepText(step), step.first, jump));
    list.appendChild(li);
  }
  if (run.steps.length > 200) list.appendChild(element('li', (run.steps.length - 200) + ' more', 'muted'));
  details.appendChild(list);
  panel.appendChild(details);
}

function referenceSection(panel, data, runs, tick, jump) {
  const reference = runs[1];
  panel.appendChild(element('h2', reference.role === 'golden' ? 'Golden (ghost)' : 'Other run (ghost)'));
  panel.appendChild(element('p', reference.label, 'muted'));
  const a = feetAt(runs[0], tick), b = feetAt(reference, tick);
  const grounded = cell(reference, 'grounded', tick);
  panel.appendChild(table([
    ['feet', vectorText(reference, ['x', 'y', 'z'], tick)],
    ['distance from run', a && b ? fmt(a.distanceTo(b)) + ' m' : '\u2014'],
    ['grounded', grounded === undefined ? '\u2014' : grounded !== 0 ? 'yes' : 'no'],
  ]));
  const d = data.divergence;
  panel.appendChild(element('h2', 'First divergence'));
  if (d) {
    const p = element('p', null, 'divergence');
    p.appendChild(jumpButton('tick ' + d.tick, d.tick, jump));
    p.appendChild(document.createTextNode(', column ' + d.column + ': expected ' + d.expected + ', got ' + d.actual +
      ' (error ' + d.error + ' > tolerance ' + d.tolerance + ')' +
      (d.tick < data.ticks[0] || d.tick > data.ticks[1] ? '; outside the ticks shown' : '')));
    panel.appendChild(p);
  } else if (data.structural.length) {
    panel.appendChild(element('p', data.structural.join('; '), 'divergence'));
  } else {
    panel.appendChild(element('p', 'none: every column within the gate\u2019s default tolerances ' +
      '(positions 1e-6 m)', 'muted'));
  }
}

function traceSection(panel, data, tick, highlight) {
  panel.appendChild(element('h2', 'Queries of tick ' + tick));
  const trace = data.trace;
  if (!trace) {
    panel.appendChild(element('p', 'run stepslide view with --trace to list and draw them', 'muted'));
    return;
  }
  const events = trace.ticks[tick - trace.first];
  if (!events) {
    panel.appendChild(element('p', tick === 0 ? 'none: row 0 is the start, no step produced it' : 'not traced',
      'muted'));
    return;
  }
  const list = element('ul', null, 'events');
  events.forEach((e, index) => {
    const li = element('li', e.text);
    li.style.borderLeftColor = hexColour(eventColour(e));
    li.addEventListener('mouseenter', () => highlight(index, li));
    li.addEventListener('mouseleave', () => highlight(-1, null));
    list.appendChild(li);
  });
  panel.appendChild(list);
}

/// Fills `panel` for `tick`. `jump(tick)` moves the timeline; `highlight(i, li)`
/// singles out event i of the overlay (-1: all).
function renderPanel(panel, data, runs, tick, jump, highlight) {
  panel.textContent = '';
  const time = tick / data.scenario.tick_rate;
  panel.appendChild(element('h2', 'Tick ' + tick + ' of ' + data.scenario.ticks + ' (t = ' + fmt(time) + ' s)'));
  panel.appendChild(table(runRows(data, runs[0], tick)));
  stepsSection(panel, runs[0], tick, jump);
  if (runs.length > 1) referenceSection(panel, data, runs, tick, jump);
  traceSection(panel, data, tick, highlight);
  if (data.expectations.length) {
    panel.appendChild(element('h2', 'Failed expectations'));
    const list = element('ul');
    for (const text of data.expectations) list.appendChild(element('li', text, 'divergence'));
    panel.appendChild(list);
  }
}
