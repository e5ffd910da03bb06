#!/usr/bin/env python3
"""Writes courtyard.glb, the glTF level of docs/levels.md's "Reproduce a bug on your own level":
a 12 m x 12 m ground (node "Ground") and a curb 4 m wide, 1 m deep and CURB_HEIGHT high
across the way north (node "Curb"). Any exporter's glb would do; this one is small enough to
read. Usage: python3 make_courtyard.py [CURB_HEIGHT] (default 0.4)."""
import json
import os
import struct
import sys


def box(x0, y0, z0, x1, y1, z1):
    p = [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1), (x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1)]
    faces = [(4, 7, 6, 5), (0, 1, 2, 3), (0, 4, 5, 1), (3, 2, 6, 7), (0, 3, 7, 4), (1, 5, 6, 2)]  # outward, CCW
    return p, [i for a, b, c, d in faces for i in (a, b, c, a, c, d)]


def glb(nodes):
    binary, views, accessors, meshes = b"", [], [], []
    for name, (positions, indices) in nodes:
        pos = b"".join(struct.pack("<3f", *v) for v in positions)
        idx = b"".join(struct.pack("<I", i) for i in indices)
        views += [{"buffer": 0, "byteOffset": len(binary), "byteLength": len(pos)},
                  {"buffer": 0, "byteOffset": len(binary) + len(pos), "byteLength": len(idx)}]
        lo = [min(v[k] for v in positions) for k in range(3)]
        hi = [max(v[k] for v in positions) for k in range(3)]
        accessors += [{"bufferView": len(views) - 2, "componentType": 5126, "count": len(positions), "type": "VEC3",
                       "min": lo, "max": hi},
                      {"bufferView": len(views) - 1, "componentType": 5125, "count": len(indices), "type": "SCALAR"}]
        meshes.append({"name": name, "primitives": [{"attributes": {"POSITION": len(accessors) - 2},
                                                      "indices": len(accessors) - 1}]})
        binary += pos + idx
    document = {"asset": {"version": "2.0", "generator": "stepslide examples/level/make_courtyard.py"},
                "scene": 0, "scenes": [{"nodes": list(range(len(nodes)))}],
                "nodes": [{"name": name, "mesh": i} for i, (name, _) in enumerate(nodes)],
                "meshes": meshes, "accessors": accessors, "bufferViews": views,
                "buffers": [{"byteLength": len(binary)}]}
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    return (struct.pack("<III", 0x46546C67, 2, 28 + len(text) + len(binary)) +
            struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary)


def main():
    curb = float(sys.argv[1]) if len(sys.argv) > 1 else 0.4
    ground = ([(-6, 0, -6), (-6, 0, 6), (6, 0, 6), (6, 0, -6)], [0, 1, 2, 0, 2, 3])
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "courtyard.glb")
    with open(out, "wb") as f:
        f.write(glb([("Ground", ground), ("Curb", box(-2, 0, -3, 2, curb, -2))]))


if __name__ == "__main__":
    main()
