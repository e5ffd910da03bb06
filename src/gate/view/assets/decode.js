// stepslide view: reads the data document (#view-data) back into numbers.
// The inverse of src/gate/view/encoding.cpp: integers counted in
// 10^-digits, sequences stored as differences from the value `stride`
// places before.
'use strict';

function undelta(deltas, stride) {
  const out = new Array(deltas.length);
  for (let i = 0; i < deltas.length; ++i) out[i] = i < stride ? deltas[i] : out[i - stride] + deltas[i];
  return out;
}

function numberFromText(text) {
  if (text === 'nan') return NaN;
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}

/// A trajectory column as numbers.
function decodeColumn(column) {
  if (column.text) return column.text.map(numberFromText);
  const scale = Math.pow(10, column.digits);
  return undelta(column.delta, 1).map((n) => n / scale);
}

/// Rows of `stride` numbers as one flat array.
function decodeRows(rows, stride) {
  const scale = Math.pow(10, rows.digits);
  return undelta(rows.delta, stride).map((n) => n / scale);
}

/// {positions: Float32Array (x, y, z per vertex), indices: Uint32Array}.
function decodeMesh(mesh) {
  const scale = Math.pow(10, mesh.digits);
  const positions = Float32Array.from(undelta(mesh.vertices, 3), (n) => n / scale);
  const indices = Uint32Array.from(undelta(mesh.triangles, 3));
  return { positions: positions, indices: indices };
}

/// A point written as three counts, or null.
function decodePoint(point, digits) {
  if (!point) return null;
  const scale = Math.pow(10, digits);
  return new THREE.Vector3(point[0] / scale, point[1] / scale, point[2] / scale);
}

/// One run: its columns by name, the ticks they cover, its label, role and
/// steps, and whether each tick is within a step.
function decodeRun(run, first) {
  const columns = {};
  for (const name of Object.keys(run.columns)) columns[name] = decodeColumn(run.columns[name]);
  const stepping = {};
  for (const step of run.steps) {
    for (let tick = step.first; tick <= step.last; ++tick) stepping[tick] = true;
  }
  return { label: run.label, role: run.role, steps: run.steps, columns: columns, first: first, stepping: stepping };
}

/// The value of `name` at `tick`, or undefined when the run has no such column.
function cell(run, name, tick) {
  const column = run.columns[name];
  return column ? column[tick - run.first] : undefined;
}

/// The feet at `tick` as a vector (null when not finite).
function feetAt(run, tick) {
  const x = cell(run, 'x', tick), y = cell(run, 'y', tick), z = cell(run, 'z', tick);
  return isFinite(x) && isFinite(y) && isFinite(z) ? new THREE.Vector3(x, y, z) : null;
}
