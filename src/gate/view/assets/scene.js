// stepslide view: the 3D scene. The level (static bodies placed once,
// moving bodies posed per tick), the character, its path coloured by state,
// the reference run as a ghost, the first divergence, and an orbit camera
// with top, side and 3/4 views that can follow the character. Inside a level
// (data.level) the level is cut open around the character (cutaway.js) and
// the camera starts behind the character, following it.

const COLOURS = {
  background: 0xeef1f5,
  body: 0xb7c1cc,
  terrain: 0xa8bd9a,
  moving: 0xe0b050,
  oneWay: 0x1e88e5,
  crouched: 0x7e3fb0,
  edges: 0x56606b,
  character: 0x1e66d0,
  ghost: 0x7b5ea7,
  grounded: 0x2e7d32,
  airborne: 0xef6c00,
  stepping: 0xc2185b,
  divergence: 0xd32f2f,
  other: 0x00897b,
};
/// Paths are drawn this far above the feet, so the ground does not hide them.
const PATH_LIFT = 0.02;
/// Bodies with more triangles than this get no edge lines (they would be a mesh of lines).
const MAX_EDGED_TRIANGLES = 20000;

function hexColour(colour) {
  return '#' + colour.toString(16).padStart(6, '0');
}

/// An indexed geometry from a decoded mesh, and a flat-shaded copy (one normal per face).
function meshGeometry(decoded) {
  const indexed = new THREE.BufferGeometry();
  indexed.setAttribute('position', new THREE.BufferAttribute(decoded.positions, 3));
  indexed.setIndex(new THREE.BufferAttribute(decoded.indices, 1));
  const flat = indexed.toNonIndexed();
  flat.computeVertexNormals();
  return { indexed: indexed, flat: flat };
}

function bodyColour(body) {
  if (body.one_way) return COLOURS.oneWay;
  if (body.moving) return COLOURS.moving;
  return body.shape === 'mesh' || body.shape === 'heightfield' ? COLOURS.terrain : COLOURS.body;
}

/// One body: a group holding its surface and, when small enough, its edges;
/// drawn with `cutaway`'s cuts when it is given.
function bodyObject(body, cutaway) {
  const geometry = meshGeometry(decodeMesh(body.mesh));
  const group = new THREE.Group();
  group.name = body.name;
  const material = new THREE.MeshLambertMaterial({
    color: bodyColour(body), side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
  });
  if (body.one_way) {
    // One-way: see-through, with an arrow out of the side it blocks from.
    material.transparent = true;
    material.opacity = 0.45;
  }
  if (cutaway) cutaway.apply(material);
  group.add(new THREE.Mesh(geometry.flat, material));
  if (body.one_way) group.add(oneWayArrow(body, geometry.indexed));
  const triangles = geometry.indexed.index.count / 3;
  if (triangles <= MAX_EDGED_TRIANGLES) {
    const edges = new THREE.EdgesGeometry(geometry.flat, 25);
    const lines = new THREE.LineBasicMaterial({ color: COLOURS.edges, transparent: true, opacity: 0.45 });
    if (cutaway) cutaway.apply(lines);
    group.add(new THREE.LineSegments(edges, lines));
  }
  group.userData.triangles = triangles;
  return group;
}

/// A one-way body's mark: an arrow from its middle out of the side it
/// blocks from (its local +Y: a static body's mesh is in world coordinates,
/// a moving one's in its own frame).
function oneWayArrow(body, geometry) {
  geometry.computeBoundingBox();
  const box = geometry.boundingBox;
  const middle = box.getCenter(new THREE.Vector3());
  const size = box.getSize(new THREE.Vector3());
  const side = body.moving ? new THREE.Vector3(0, 1, 0) : decodePoint(body.one_way, 6).normalize();
  const length = Math.max(0.4, Math.min(1.5, 0.5 * Math.max(size.x, size.y, size.z)));
  const arrow = new THREE.ArrowHelper(side, middle, length, COLOURS.oneWay, 0.3 * length, 0.2 * length);
  arrow.name = 'one-way';
  return arrow;
}

/// The path's colour at `tick`: stepping (within a listed step), else airborne, else grounded.
function stateColour(run, tick) {
  if (run.stepping[tick]) return COLOURS.stepping;
  const grounded = cell(run, 'grounded', tick);
  return grounded === 0 ? COLOURS.airborne : COLOURS.grounded;
}

/// A run's path from `first` to `last`: segments between consecutive ticks
/// and a dot per tick, coloured by state, or one colour (dashed) for a ghost.
function pathObject(run, first, last, up, ghostColour) {
  const lift = up.clone().multiplyScalar(PATH_LIFT);
  const segments = [], segmentColours = [], dots = [], dotColours = [];
  const colour = new THREE.Color();
  let previous = null;
  for (let tick = first; tick <= last; ++tick) {
    const feet = feetAt(run, tick);
    if (!feet) {
      previous = null;
      continue;
    }
    feet.add(lift);
    colour.setHex(ghostColour !== undefined ? ghostColour : stateColour(run, tick));
    if (previous) {
      segments.push(previous.x, previous.y, previous.z, feet.x, feet.y, feet.z);
      segmentColours.push(colour.r, colour.g, colour.b, colour.r, colour.g, colour.b);
    }
    dots.push(feet.x, feet.y, feet.z);
    dotColours.push(colour.r, colour.g, colour.b);
    previous = feet;
  }
  const group = new THREE.Group();
  const lines = new THREE.BufferGeometry();
  lines.setAttribute('position', new THREE.Float32BufferAttribute(segments, 3));
  lines.setAttribute('color', new THREE.Float32BufferAttribute(segmentColours, 3));
  const material = ghostColour !== undefined
    ? new THREE.LineDashedMaterial({ vertexColors: THREE.VertexColors, dashSize: 0.12, gapSize: 0.08 })
    : new THREE.LineBasicMaterial({ vertexColors: THREE.VertexColors });
  const line = new THREE.LineSegments(lines, material);
  if (ghostColour !== undefined) line.computeLineDistances();
  group.add(line);
  const points = new THREE.BufferGeometry();
  points.setAttribute('position', new THREE.Float32BufferAttribute(dots, 3));
  points.setAttribute('color', new THREE.Float32BufferAttribute(dotColours, 3));
  group.add(new THREE.Points(points, new THREE.PointsMaterial({
    size: ghostColour !== undefined ? 3 : 5, sizeAttenuation: false, vertexColors: THREE.VertexColors })));
  return group;
}

/// The 3D view of `data` in `container`. `runs`: decoded, the run first.
function ViewScene(container, data, runs) {
  const scene = this;
  this.data = data;
  this.runs = runs;
  this.first = data.ticks[0];
  this.last = data.ticks[1];
  this.up = decodePoint(data.scenario.up, data.digits).normalize();
  this.centre = data.character.centre / Math.pow(10, data.character.digits);
  this.level = null;
  this.cutaway = null;
  if (data.level) {
    const scale = Math.pow(10, data.level.digits);
    this.level = { cut: data.level.cut_above_feet / scale, height: data.level.character_height / scale };
    this.cutaway = new Cutaway(this.up, this.level.cut, this.level.height);
  }

  this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  this.renderer.setPixelRatio(window.devicePixelRatio || 1);
  container.appendChild(this.renderer.domElement);
  this.three = new THREE.Scene();
  this.three.background = new THREE.Color(COLOURS.background);
  this.three.add(new THREE.HemisphereLight(0xffffff, 0x8c929c, 0.75));
  const sun = new THREE.DirectionalLight(0xffffff, 0.55);
  sun.position.copy(this.up.clone().multiplyScalar(10).add(new THREE.Vector3(4, 0, 7)));
  this.three.add(sun);

  this.bodies = [];
  this.triangles = 0;
  for (const body of data.bodies) {
    const object = bodyObject(body, this.cutaway);
    object.userData.poses = body.moving ? decodeRows(body.poses, 7) : null;
    this.triangles += object.userData.triangles;
    this.three.add(object);
    this.bodies.push(object);
  }

  this.characterGeometry = meshGeometry(decodeMesh(data.character.mesh));
  // The stance: the crouch shape's mesh, shown on the rows crouched.
  this.crouchGeometry = data.stance ? meshGeometry(decodeMesh(data.stance.mesh)) : null;
  this.crouched = data.stance ? decodeColumn(data.stance.crouched) : null;
  this.character = new THREE.Mesh(this.characterGeometry.flat, new THREE.MeshLambertMaterial({
    color: COLOURS.character, transparent: true, opacity: 0.9 }));
  this.three.add(this.character);
  this.three.add(pathObject(runs[0], this.first, this.last, this.up));

  // The ghost: the reference's path and shape, only when there is a reference.
  this.ghost = new THREE.Group();
  this.ghost.name = 'ghost';
  if (runs.length > 1) {
    this.ghost.add(pathObject(runs[1], this.first, this.last, this.up, COLOURS.ghost));
    this.ghostShape = new THREE.Mesh(this.characterGeometry.flat, new THREE.MeshBasicMaterial({
      color: COLOURS.ghost, transparent: true, opacity: 0.35, depthWrite: false }));
    this.ghost.add(this.ghostShape);
  }
  this.three.add(this.ghost);
  // The other characters ("characters"): each one's shape and path.
  // Each in its own colour (the page data's, listed in the legend).
  this.others = (data.characters || []).map((c) => {
    const run = decodeRun(c.run, this.first);
    const colour = c.colour ? parseInt(c.colour.slice(1), 16) : COLOURS.other;
    const mesh = new THREE.Mesh(meshGeometry(decodeMesh(c.mesh)).flat, new THREE.MeshLambertMaterial({
      color: colour, transparent: true, opacity: 0.9 }));
    mesh.name = c.name;
    this.three.add(mesh);
    this.three.add(pathObject(run, this.first, this.last, this.up, colour));
    return { run: run, mesh: mesh, name: c.name, colour: colour };
  });
  this.divergence = this.divergenceObject();
  if (this.divergence) this.three.add(this.divergence);

  this.overlay = new THREE.Group();
  this.three.add(this.overlay);

  this.camera = new THREE.PerspectiveCamera(45, 1, 0.05, 5000);
  this.camera.up.copy(this.up);
  this.controls = new THREE.OrbitControls(this.camera, this.renderer.domElement);
  this.controls.enableKeys = false;  // the arrow keys step through ticks
  this.controls.addEventListener('change', function () { scene.render(); });
  this.frame();
  this.resize(container);
  window.addEventListener('resize', function () { scene.resize(container); });
}

/// The red mark at the first divergence: the run's feet, the reference's,
/// and a line between them. Null when there is none within the ticks shown.
ViewScene.prototype.divergenceObject = function () {
  const d = this.data.divergence;
  if (!d || this.runs.length < 2 || d.tick < this.first || d.tick > this.last) return null;
  const group = new THREE.Group();
  group.name = 'divergence';
  const material = new THREE.MeshBasicMaterial({ color: COLOURS.divergence });
  const lift = this.up.clone().multiplyScalar(PATH_LIFT);
  const ends = [feetAt(this.runs[0], d.tick), feetAt(this.runs[1], d.tick)].filter((p) => p);
  ends.forEach((p, i) => {
    const marker = new THREE.Mesh(new THREE.SphereBufferGeometry(i === 0 ? 0.09 : 0.06, 16, 12), material);
    marker.position.copy(p).add(lift);
    group.add(marker);
  });
  if (ends.length === 2) {
    const line = new THREE.BufferGeometry().setFromPoints([ends[0].clone().add(lift), ends[1].clone().add(lift)]);
    group.add(new THREE.Line(line, new THREE.LineBasicMaterial({ color: COLOURS.divergence })));
  }
  const ring = new THREE.Mesh(new THREE.RingBufferGeometry(0.22, 0.27, 32), new THREE.MeshBasicMaterial({
    color: COLOURS.divergence, side: THREE.DoubleSide }));
  if (ends.length > 0) {
    ring.position.copy(ends[0]).add(lift);
    ring.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), this.up);
    group.add(ring);
  }
  return group;
};

/// The box the camera frames: both paths over the ticks shown, else the level.
ViewScene.prototype.pathBounds = function () {
  const box = new THREE.Box3();
  for (const run of this.runs) {
    for (let tick = this.first; tick <= this.last; ++tick) {
      const feet = feetAt(run, tick);
      if (feet) {
        box.expandByPoint(feet);
        box.expandByPoint(feet.clone().addScaledVector(this.up, 2 * this.centre));
      }
    }
  }
  if (box.isEmpty()) for (const body of this.bodies) box.expandByObject(body);
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  return box;
};

/// Right and down of the plot's top view (x right, +z down when Y is up).
ViewScene.prototype.axes = function () {
  const seed = Math.abs(this.up.x) < 0.9 ? new THREE.Vector3(1, 0, 0) : new THREE.Vector3(0, 0, 1);
  const right = seed.clone().addScaledVector(this.up, -seed.dot(this.up)).normalize();
  const down = right.clone().cross(this.up);
  return { right: right, down: down };
};

/// Frames the paths from the 3/4 view (inside a level: from behind the
/// character); remembers the framing for the other views.
ViewScene.prototype.frame = function () {
  const box = this.pathBounds();
  this.focus = box.getCenter(new THREE.Vector3());
  const size = box.getSize(new THREE.Vector3());
  this.distance = Math.max(size.length(), 3) * 1.25 + 2;
  this.extent = size;
  if (this.level) this.chaseDistance = Math.max(5, 4.2 * this.level.height);
  this.view('three-quarter');
};

/// Inside a level: where the character faces at the start, as the
/// horizontal direction of its first half metre of travel (else forward,
/// up the plot's top view).
ViewScene.prototype.heading = function () {
  const run = this.runs[0];
  const start = feetAt(run, this.first);
  if (start) {
    for (let tick = this.first + 1; tick <= this.last; ++tick) {
      const feet = feetAt(run, tick);
      if (!feet) continue;
      const move = feet.sub(start);
      move.addScaledVector(this.up, -move.dot(this.up));
      if (move.length() >= 0.5) return move.normalize();
    }
  }
  return this.axes().down.negate();
};

/// The character's centre at the tick shown (at the first tick before any is shown), or null.
ViewScene.prototype.characterCentre = function () {
  const feet = this.character.visible && this.shown !== undefined ? this.character.position.clone()
    : feetAt(this.runs[0], this.first);
  return feet ? feet.addScaledVector(this.up, this.centre) : null;
};

/// Puts the camera on the focus from one side: 'top', 'side' or 'three-quarter'.
ViewScene.prototype.view = function (which) {
  const a = this.axes();
  let direction;
  let distance = this.distance;
  if (this.level) {
    // Inside a level the views are about the character: the 3/4 view looks
    // over its shoulder, a third-person camera behind and above it.
    this.focus = this.characterCentre() || this.focus;
    if (which === 'three-quarter') distance = this.chaseDistance;
  }
  if (this.level && which === 'three-quarter') {
    const elevation = 50 * Math.PI / 180;
    direction = this.heading().negate().multiplyScalar(Math.cos(elevation)).addScaledVector(this.up,
      Math.sin(elevation));
  } else if (which === 'top') {
    // A hair off vertical toward +down, so that -down (forward) is up the screen.
    direction = this.up.clone().addScaledVector(a.down, 0.001);
  } else if (which === 'side') {
    // Across the path: look along the axis in which it extends least.
    const alongRight = Math.abs(this.extent.dot(a.right)), alongDown = Math.abs(this.extent.dot(a.down));
    direction = alongRight >= alongDown ? a.down.clone() : a.right.clone().negate();
  } else {
    direction = a.down.clone().multiplyScalar(0.8).addScaledVector(a.right, 0.45).addScaledVector(this.up, 0.75);
  }
  this.controls.target.copy(this.focus);
  this.camera.position.copy(this.focus).addScaledVector(direction.normalize(), distance);
  this.camera.lookAt(this.focus);
  this.controls.update();
  this.render();
};

/// Moves the orbit with the character (camera and target by the same step).
ViewScene.prototype.follow = function (feet) {
  const centre = feet.clone().addScaledVector(this.up, this.centre);
  const step = centre.clone().sub(this.controls.target);
  this.controls.target.add(step);
  this.camera.position.add(step);
  this.controls.update();
};

/// Poses everything for `tick`; `overlay` (a group, or null) replaces the trace drawing.
ViewScene.prototype.setTick = function (tick, overlay, following) {
  const index = tick - this.first;
  for (const body of this.bodies) {
    const p = body.userData.poses;
    if (!p) continue;
    body.position.set(p[7 * index], p[7 * index + 1], p[7 * index + 2]);
    body.quaternion.set(p[7 * index + 3], p[7 * index + 4], p[7 * index + 5], p[7 * index + 6]);
  }
  const feet = feetAt(this.runs[0], tick);
  this.shown = tick;
  this.character.visible = feet !== null;
  if (feet) this.character.position.copy(feet);
  const crouched = this.crouched !== null && this.crouched[index] === 1;
  this.character.geometry = crouched ? this.crouchGeometry.flat : this.characterGeometry.flat;
  this.character.material.color.setHex(crouched ? COLOURS.crouched : COLOURS.character);
  this.character.userData.crouched = crouched;
  for (const other of this.others) {
    const at = feetAt(other.run, tick);
    other.mesh.visible = at !== null;
    if (at) other.mesh.position.copy(at);
  }
  if (this.ghostShape) {
    const ghostFeet = feetAt(this.runs[1], tick);
    this.ghostShape.visible = ghostFeet !== null;
    if (ghostFeet) this.ghostShape.position.copy(ghostFeet);
  }
  this.three.remove(this.overlay);
  this.overlay = overlay || new THREE.Group();
  this.three.add(this.overlay);
  // Let the queries' shapes show through the character.
  this.character.material.opacity = this.overlay.children.length > 0 ? 0.35 : 0.9;
  if (following && feet) this.follow(feet);
  this.render();
};

ViewScene.prototype.resize = function (container) {
  const width = Math.max(container.clientWidth, 1), height = Math.max(container.clientHeight, 1);
  this.renderer.setSize(width, height);
  this.camera.aspect = width / height;
  this.camera.updateProjectionMatrix();
  this.render();
};

ViewScene.prototype.render = function () {
  if (this.cutaway) {
    const centre = this.characterCentre();
    if (centre) {
      this.cutaway.update(centre.clone().addScaledVector(this.up, -this.centre), centre, this.camera.position);
    }
  }
  this.renderer.render(this.three, this.camera);
};

/// Where the character's centre is drawn, in CSS pixels of the page, or null
/// when it is not drawn or behind the camera.
ViewScene.prototype.characterOnScreen = function () {
  const centre = this.characterCentre();
  if (!centre || !this.character.visible) return null;
  const p = centre.project(this.camera);
  if (p.z > 1 || p.z < -1) return null;
  const box = this.renderer.domElement.getBoundingClientRect();
  return { x: box.left + (p.x + 1) / 2 * box.width, y: box.top + (1 - p.y) / 2 * box.height };
};
