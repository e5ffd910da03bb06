#!/usr/bin/env python3
"""A scenario with N static boxes scattered away from its character's path.

  tools/world_size_scenario.py N OUT.json [--base scenarios/stairs/up_straight.json]

Copies the base scenario (default: stairs/up_straight, whose character walks
from z = 0 to z = -8 near x = 0) and appends N named static boxes on a 4 m grid
of square rings around the path, none within 3 m of it, as
bench/world_size_bench.cpp does in memory. The same N gives the same bytes.
Used to measure world loading, building and the per-tick cost against world
size (tools/world_size_cost.py). Standard library only.
"""

import argparse
import json
import random
import sys

# The base scenario's path (x, z extent) grown by 3 m.
KEEP_CLEAR = (-4.0, -13.0, 4.0, 4.0)
SPACING = 4.0


def scatter(count):
    rng = random.Random(0x5EED0F5CA77E12)
    min_x, min_z, max_x, max_z = KEEP_CLEAR
    cx, cz = 0.5 * (min_x + max_x), 0.5 * (min_z + max_z)
    boxes = []
    ring = 0
    while len(boxes) < count:
        for i in range(-ring, ring + 1):
            for j in range(-ring, ring + 1):
                if len(boxes) >= count or max(abs(i), abs(j)) != ring:
                    continue
                half = round(0.25 + 0.5 * rng.random(), 4)
                x = round(cx + SPACING * i + (rng.random() - 0.5) * (SPACING - 2 * half), 4)
                z = round(cz + SPACING * j + (rng.random() - 0.5) * (SPACING - 2 * half), 4)
                if x + half >= min_x and x - half <= max_x and z + half >= min_z and z - half <= max_z:
                    continue
                boxes.append((half, x, z))
        ring += 1
    return boxes


def body_text(index, half, x, z):
    return ('    {\n'
            f'      "name": "clutter/{index}",\n'
            f'      "shape": {{ "type": "box", "half_extents": [{half}, {half}, {half}] }},\n'
            f'      "position": [{x}, {half}, {z}]\n'
            '    }')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--base", default="scenarios/stairs/up_straight.json")
    args = parser.parse_args()
    with open(args.base, encoding="utf-8") as f:
        text = f.read()
    # Scenario files may start with // comments; json.loads does not take them.
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    scenario = json.loads("\n".join(lines))
    clutter = [body_text(i, *box) for i, box in enumerate(scatter(args.count))]
    base_world = ",\n".join("    " + json.dumps(body) for body in scenario.pop("world", []))
    rest = json.dumps(scenario, indent=2)
    world = "  \"world\": [\n" + ",\n".join(([base_world] if base_world else []) + clutter) + "\n  ],\n"
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(rest[:2] + world + rest[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
