// stepslide view: the trace overlay. One tick's queries (--trace) drawn in
// the scene: each sweep's segment, its shape where it started (faint) and
// where it stopped, hit points and normals; each ray to its hit or end; the
// step-up attempt; depenetration normals; the ground normal. Every object
// knows the event it draws (userData.event), so the panel can single it out.

const QUERY_COLOURS = {
  'slide': 0x1565c0,
  'step-up': 0x6a1b9a,
  'step-forward': 0x8e24aa,
  'step-down': 0xab47bc,
  'ground-probe': 0x00838f,
  'riser-height': 0xef6c00,
  'tread': 0xc79100,
  'room-to-stand': 0x6d4c41,
  'perch-face': 0xc2185b,
  'face-normal': 0x00897b,
  'step-attempt': 0x2e7d32,
  'depenetration': 0xd32f2f,
  'ground': 0x2e7d32,
  'velocity': 0x757575,
};
const NORMAL_LENGTH = 0.3;
const HIT_RADIUS = 0.025;

/// The colour an event is drawn and listed in.
function eventColour(event) {
  if (event.event === 'step-up') return event.accepted ? QUERY_COLOURS['step-attempt'] : COLOURS.divergence;
  return QUERY_COLOURS[event.purpose || event.event] || 0x757575;
}

/// Draws `events` (one tick's, from the data's trace) for `scene` (a ViewScene).
/// `feet`: where the tick started and ended (vectors or null).
function overlayObject(events, scene, feet) {
  const group = new THREE.Group();
  group.name = 'trace';
  const digits = scene.data.trace.digits;
  const up = scene.up;
  const lifted = (p) => p.clone().addScaledVector(up, scene.centre);
  if (!scene.wireframe) scene.wireframe = new THREE.WireframeGeometry(scene.characterGeometry.indexed);

  function add(object, index) {
    object.userData.event = index;
    group.add(object);
  }
  function line(a, b, colour, index) {
    const geometry = new THREE.BufferGeometry().setFromPoints([a, b]);
    add(new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: colour })), index);
  }
  function shape(at, colour, opacity, index) {
    const object = new THREE.LineSegments(scene.wireframe, new THREE.LineBasicMaterial({
      color: colour, transparent: true, opacity: opacity }));
    object.position.copy(at);
    add(object, index);
  }
  function arrow(at, direction, length, colour, index) {
    if (direction.lengthSq() === 0) return;
    const head = Math.min(0.08, 0.4 * length);
    add(new THREE.ArrowHelper(direction.clone().normalize(), at, length, colour, head, 0.6 * head), index);
  }
  function hitMark(at, normal, colour, index) {
    const dot = new THREE.Mesh(new THREE.SphereBufferGeometry(HIT_RADIUS, 10, 8),
      new THREE.MeshBasicMaterial({ color: colour }));
    dot.position.copy(at);
    add(dot, index);
    if (normal) arrow(at, normal, NORMAL_LENGTH, colour, index);
  }

  events.forEach((e, index) => {
    const colour = eventColour(e);
    const from = decodePoint(e.from, digits), to = decodePoint(e.to, digits);
    const point = decodePoint(e.point, digits), normal = decodePoint(e.normal, digits);
    if (e.event === 'sweep' && from && to) {
      const reached = e.hit ? decodePoint(e.reached, digits) : to;
      line(lifted(from), lifted(to), colour, index);
      shape(from, colour, 0.18, index);
      if (reached) shape(reached, colour, 0.75, index);
      if (e.hit && (point || reached)) hitMark(point || lifted(reached), normal, colour, index);
    } else if (e.event === 'ray' && from && to) {
      line(from, e.hit && point ? point : to, colour, index);
      if (e.hit && point) hitMark(point, normal, colour, index);
    } else if (e.event === 'step-up' && from && to) {
      const forward = to.clone().sub(from);
      arrow(lifted(from), forward, Math.max(forward.length(), 0.25), colour, index);
    } else if (e.event === 'depenetration' && feet.before) {
      for (const n of e.normals || []) {
        const normalVector = decodePoint(n, digits);
        if (normalVector) arrow(lifted(feet.before), normalVector, NORMAL_LENGTH, colour, index);
      }
    } else if (e.event === 'ground' && normal && feet.after) {
      arrow(feet.after.clone().addScaledVector(up, PATH_LIFT), normal, NORMAL_LENGTH * 1.5, colour, index);
    }
  });
  return group;
}

/// Shows only the objects of event `index` (all of them for -1).
function singleOut(group, index) {
  for (const object of group.children) object.visible = index < 0 || object.userData.event === index;
}
