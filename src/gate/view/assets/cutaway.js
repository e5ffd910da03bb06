// stepslide view: a level cut open around the character. Seen from outside,
// an enclosed level is its roof and its outer walls; inside a level (the
// data's "level", gate/view/level.h) every body is drawn with two cuts that
// follow the character tick by tick:
//  - above: nothing higher than the cut, a height above the feet (the
//    "cut" control; [ and ] move it), is drawn, roofs and upper floors
//    included;
//  - in front: what stands between the camera and the character, above its
//    feet, is faded away: see-through in a cone along the line of sight,
//    stippled at the cone's rim, so a wall in the way reads as a wall but
//    does not hide the character.
// The "cutaway" checkbox (C) turns both off. Both are done in the shaders of
// the bodies' own materials (onBeforeCompile), so nothing is re-tessellated
// as the character moves.

const CUTAWAY_FRAGMENT = [
  'uniform float stepCutOn;',
  'uniform float stepCut;',
  'uniform float stepFeet;',
  'uniform vec3 stepUp;',
  'uniform vec3 stepEye;',
  'uniform vec3 stepTarget;',
  'uniform float stepRadius;',
  'varying vec3 vStepWorld;',
  'bool stepHidden() {',
  '  if (stepCutOn < 0.5) return false;',
  '  float height = dot(vStepWorld, stepUp);',
  '  if (height > stepCut) return true;',
  '  if (height < stepFeet + 0.05) return false;',  // the floor stood on is never faded
  '  vec3 sight = stepTarget - stepEye;',
  '  float range = length(sight);',
  '  if (range < 1e-4) return false;',
  '  vec3 toward = sight / range;',
  '  float along = dot(vStepWorld - stepEye, toward);',
  '  if (along <= 0.0 || along > range - 0.5 * stepRadius) return false;',
  '  float across = length(vStepWorld - stepEye - toward * along);',
  '  float radius = stepRadius * (0.3 + 0.7 * along / range);',
  '  if (across > radius) return false;',
  '  if (across < 0.7 * radius) return true;',
  '  return mod(floor(gl_FragCoord.x) + floor(gl_FragCoord.y), 2.0) < 1.0;',
  '}',
  '',
].join('\n');

/// The cuts for a character `characterHeight` tall, `aboveFeet` the height
/// of the cut over its feet, `up` the world's up (normalised).
function Cutaway(up, aboveFeet, characterHeight) {
  this.up = up.clone();
  this.aboveFeet = aboveFeet;
  this.enabled = true;
  this.uniforms = {
    stepCutOn: { value: 1 },
    stepCut: { value: 0 },
    stepFeet: { value: 0 },
    stepUp: { value: up.clone() },
    stepEye: { value: new THREE.Vector3() },
    stepTarget: { value: new THREE.Vector3() },
    stepRadius: { value: Math.max(0.8, characterHeight) },
  };
}

/// Makes `material` (Lambert or Basic: a body's surface or edges) draw with the cuts.
Cutaway.prototype.apply = function (material) {
  const uniforms = this.uniforms;
  material.onBeforeCompile = function (shader) {
    Object.assign(shader.uniforms, uniforms);
    shader.vertexShader = 'varying vec3 vStepWorld;\n' + shader.vertexShader.replace('#include <project_vertex>',
      '#include <project_vertex>\n\tvStepWorld = (modelMatrix * vec4(transformed, 1.0)).xyz;');
    shader.fragmentShader = CUTAWAY_FRAGMENT + shader.fragmentShader.replace('#include <clipping_planes_fragment>',
      '#include <clipping_planes_fragment>\n\tif (stepHidden()) discard;');
  };
};

/// The cuts for the character's feet at `feet`, its centre at `centre`,
/// seen from `eye`.
Cutaway.prototype.update = function (feet, centre, eye) {
  const u = this.uniforms;
  u.stepCutOn.value = this.enabled ? 1 : 0;
  const height = feet.dot(this.up);
  u.stepFeet.value = height;
  u.stepCut.value = height + this.aboveFeet;
  u.stepTarget.value.copy(centre);
  u.stepEye.value.copy(eye);
};
