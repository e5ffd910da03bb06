#!/usr/bin/env python3
"""Checks that includes point one way between the layers (docs/architecture.md).

Every C++ file under include/, src/ and cli/ belongs to the first layer in
LAYERS whose folder holds it. A project include in it ("x/y.h" resolved from
src/ or the file's own folder, <stepslide/...> from include/) must land in
the same layer or in one the layer may use (ALLOWED). Bullet, the standard
library and other packages are checked only where a layer must not see a
part of them (FORBIDDEN: the geometry sees no collision object or world);
CMake's link lines do the rest.

Usage: tools/check_layers.py [ROOT]   exit 0 clean, 1 with one line per
wrong include (file:line: layer -> layer), 2 on a usage error.
"""
import os
import re
import sys

# (layer, folder relative to the root). First match wins, so a room is listed
# before the folder that holds it.
LAYERS = [
    ("public", "include/stepslide"),
    ("geometry", "src/geometry"),
    ("collision", "src/collision"),
    ("controller", "src/controller"),
    ("dynamics", "src/dynamics"),
    ("base", "src/base"),
    ("capture", "src/capture"),
    ("scenario/json", "src/scenario/json"),
    ("scenario/load", "src/scenario/load"),
    ("scenario/run", "src/scenario/run"),
    ("scenario/expect", "src/scenario/expect"),
    ("scenario", "src/scenario"),
    ("gate/core", "src/gate/core"),
    ("gate/plot", "src/gate/plot"),
    ("gate/view", "src/gate/view"),
    ("gate/trace", "src/gate/trace"),
    ("gate/commands", "src/gate/commands"),
    ("gate", "src/gate"),
    ("fuzz", "src/fuzz"),
    ("cli", "cli"),
]

SCENARIO = ["scenario/json", "scenario/load", "scenario/run", "scenario/expect", "scenario"]
GATE_ROOMS = ["gate/core", "gate/plot", "gate/view", "gate/trace", "gate/commands"]

# What each layer may include besides itself. The controller's three layers
# point down: controller -> collision -> geometry (-> Bullet's LinearMath).
ALLOWED = {
    "public": [],
    # base's portable elementary functions (base/portable_math.h): the same
    # bits on every CPU, where the C library's sin, cos, exp... differ.
    "geometry": ["base"],
    "collision": ["geometry", "base", "public"],
    "controller": ["collision", "geometry", "base", "public"],
    # The dynamic bodies' step: its own arithmetic on the geometry's exact
    # pair functions; Bullet only for the bodies and the broadphase.
    "dynamics": ["geometry", "base"],
    "base": ["public"],
    "capture": ["public", "base"],
    "scenario/json": ["base", "public"],
    "scenario/load": ["scenario/json", "scenario", "base", "public", "collision", "geometry", "dynamics"],
    # The runner checks the expectations on the run it made (SimulationResult
    # carries their failures), so run uses expect; expect reads a trajectory,
    # never the runner.
    "scenario/run": ["scenario/expect", "scenario/load", "scenario/json", "scenario", "base", "public", "collision",
                     "controller"],
    "scenario/expect": ["scenario/json", "scenario", "base", "public"],
    # The model every room shares: scenario.h (what a file says), the
    # trajectory and its columns.
    "scenario": ["base", "public"],
    "gate/core": SCENARIO + ["base", "public"],
    "gate/plot": ["gate/core"] + SCENARIO + ["base", "public"],
    "gate/trace": ["gate/core", "gate/plot"] + SCENARIO + ["base", "public"],
    # The page draws a tick's traced queries (trace.h) in the scene.
    "gate/view": ["gate/core", "gate/plot", "gate/trace"] + SCENARIO + ["base", "public"],
    "gate/commands": ["gate/core", "gate/plot", "gate/view", "gate/trace"] + SCENARIO + ["base", "public",
                                                                                         "collision", "controller"],
    # The umbrella header src/gate/gate.h, for cli/ and the tests only.
    "gate": GATE_ROOMS + SCENARIO + ["base", "public"],
    "fuzz": ["gate/core"] + SCENARIO + ["base", "public", "collision", "controller"],
    "cli": [name for name, _ in LAYERS],
}

# Packages' headers a layer must not include, by the start of the include's
# name: the geometry is math on two solids, so it reads Bullet's vectors and
# shapes (src/geometry/bullet_shapes.h), never its collision objects, worlds
# or broadphase.
FORBIDDEN = {
    "geometry": ["btBulletCollisionCommon.h", "BulletCollision/CollisionDispatch/",
                 "BulletCollision/BroadphaseCollision/btDbvt", "BulletDynamics/", "btBulletDynamicsCommon.h"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".in")


def layer_of(rel):
    for name, folder in LAYERS:
        if rel == folder or rel.startswith(folder + "/"):
            return name
    return None


def resolve(root, including_dir, bracket, target):
    """The include's path relative to root, or None when it is not the project's."""
    candidates = []
    if bracket == '"':
        candidates.append(os.path.join(including_dir, target))
        candidates.append(os.path.join(root, "src", target))
    candidates.append(os.path.join(root, "include", target))
    for path in candidates:
        if os.path.isfile(path):
            return os.path.relpath(os.path.normpath(path), root)
    return None


def check(root):
    wrong = []
    for top in ("include", "src", "cli"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                layer = layer_of(rel)
                if layer is None:
                    wrong.append(f"{rel}: in no layer (add its folder to tools/check_layers.py)")
                    continue
                with open(path, encoding="utf-8") as text:
                    for number, line in enumerate(text, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        if any(match.group(2).startswith(f) for f in FORBIDDEN.get(layer, [])):
                            wrong.append(f"{rel}:{number}: {layer} must not include <{match.group(2)}>")
                            continue
                        target = resolve(root, folder, match.group(1), match.group(2))
                        if target is None:
                            continue
                        to = layer_of(target)
                        if to == layer or to in ALLOWED[layer]:
                            continue
                        wrong.append(f"{rel}:{number}: {layer} -> {to} ({match.group(2)})")
    return wrong


def main(argv):
    if len(argv) > 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), ".."))
    wrong = check(root)
    for line in wrong:
        print(line)
    if wrong:
        print(f"{len(wrong)} include(s) against the layers", file=sys.stderr)
        return 1
    print("layers: every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
