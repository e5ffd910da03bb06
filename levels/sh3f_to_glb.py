#!/usr/bin/env python3
"""A furnished two-room house from Sweet Home 3D furniture models, as a geometry-only glb.

  levels/sh3f_to_glb.py [LIBRARY.sh3f] OUT.glb

Reads the furniture library LIBRARY.sh3f (a zip: a catalogue of properties and
Wavefront OBJ models; default Debian's sweethome3d-furniture
/usr/share/sweethome3d/furniture/BlendSwap-CC-0.sh3f, all CC0), places the
pieces listed in FURNITURE as Sweet Home 3D places a piece (the model's box
scaled to the catalogue's width, height and depth, centred on the piece's x
and z, its bottom on the floor, turned about +Y), and adds the house around
them: floor, outer walls, an inner wall with a doorway, a bedroom raised
above the living room and a short flight of stairs up to it. Writes one
mesh node per piece (named after it) and the spawn points as nodes named
`spawn_...` (docs/format.md "spawn points"). Metres, Y up. Standard library
only, deterministic: the same library gives the same bytes.
"""

import argparse
import math
import os
import re
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from q3bsp_to_glb import write_glb  # noqa: E402  (our own glb writer, same folder)

DEFAULT_LIBRARY = "/usr/share/sweethome3d/furniture/BlendSwap-CC-0.sh3f"

# The house (metres). x runs east, z south, y up; the living room's floor is y = 0.
WALL_HEIGHT = 2.8
WALL_THICKNESS = 0.15
HOUSE_X = (0.0, 10.0)
HOUSE_Z = (0.0, 6.0)
INNER_WALL_X = 6.0           # the wall between the living room (west) and the bedroom (east)
DOORWAY_Z = (2.55, 3.45)     # 0.9 m wide
DOORWAY_TOP = 2.5            # above the living room's floor: 2.05 m above the raised sill
BEDROOM_FLOOR = 0.45         # the bedroom is raised: three risers of 0.15 m
RISER = 0.15
TREAD = 0.3
STAIRS_Z = (2.4, 3.6)        # the flight is 1.2 m wide, centred on the doorway

# (node name, catalogue id, x, floor y, z, yaw in degrees about +Y). A model's front
# faces +z (south) at yaw 0; yaw 90 turns it to face +x (east).
FURNITURE = [
    ("oak_table", "Blend Swap CC-0#oakTable", 2.6, 0.0, 3.0, 0.0),
    ("chair_north", "Blend Swap CC-0#sillaBlanca", 2.6, 0.0, 2.05, 0.0),
    ("chair_west", "Blend Swap CC-0#sillaBlanca", 1.55, 0.0, 3.0, 90.0),
    ("couch", "Blend Swap CC-0#couch2", 2.2, 0.0, 5.05, 180.0),
    ("shelves", "Blend Swap CC-0#shelves", 0.75, 0.0, 0.3, 0.0),
    ("bookcase", "Blend Swap CC-0#bookcase", 4.1, 0.0, 0.25, 0.0),
    ("bed", "Blend Swap CC-0#bed2", 8.4, BEDROOM_FLOOR, 1.15, 0.0),
    ("desk", "Blend Swap CC-0#desk", 8.2, BEDROOM_FLOOR, 5.68, 180.0),
]

# (name, position of the capsule's centre, facing in degrees about +Y)
SPAWNS = [
    ("spawn_living_room", (1.2, 0.95, 1.2), 0.0),
    ("spawn_bedroom", (6.8, BEDROOM_FLOOR + 0.95, 4.2), 0.0),
]


def read_catalogue(archive):
    """{id: {key: value}} from the library's PluginFurnitureCatalog.properties."""
    text = archive.read("PluginFurnitureCatalog.properties").decode("latin-1")
    entries = {}
    for line in text.splitlines():
        match = re.match(r"([A-Za-z]+)#(\d+)=(.*)", line)
        if match:
            entries.setdefault(int(match.group(2)), {})[match.group(1)] = match.group(3)
    return {e["id"].replace("\\", ""): e for e in entries.values() if "id" in e}


def read_obj(text):
    """Positions and triangles (fans of each face) of a Wavefront OBJ."""
    points, triangles = [], []
    for line in text.splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "v":
            points.append(tuple(float(x) for x in fields[1:4]))
        elif fields[0] == "f":
            corners = []
            for field in fields[1:]:
                index = int(field.split("/")[0])
                corners.append(index - 1 if index > 0 else len(points) + index)
            for k in range(1, len(corners) - 1):
                triangles.append((corners[0], corners[k], corners[k + 1]))
    return points, triangles


def place(points, triangles, entry, x, y, z, yaw_deg):
    """The model scaled to the catalogue's box, centred at (x, z), bottom at y, turned by yaw."""
    if entry.get("modelRotation", "1 0 0 0 1 0 0 0 1").split() != "1 0 0 0 1 0 0 0 1".split():
        raise SystemExit(f"{entry['id']}: a turned model (modelRotation) is not supported")
    used = sorted({i for t in triangles for i in t})
    lo = [min(points[i][k] for i in used) for k in range(3)]
    hi = [max(points[i][k] for i in used) for k in range(3)]
    size = [float(entry["width"]) / 100, float(entry["height"]) / 100, float(entry["depth"]) / 100]
    scale = [size[k] / (hi[k] - lo[k]) for k in range(3)]
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    remap = {}
    placed = []
    for i in used:
        px = (points[i][0] - (lo[0] + hi[0]) / 2) * scale[0]
        py = (points[i][1] - lo[1]) * scale[1]
        pz = (points[i][2] - (lo[2] + hi[2]) / 2) * scale[2]
        remap[i] = len(placed)
        placed.append((x + c * px + s * pz, y + py, z - s * px + c * pz))
    return placed, [tuple(remap[i] for i in t) for t in triangles]


def add_box(mesh, lo, hi):
    """The six faces of the axis-aligned box lo..hi, facing out."""
    points, triangles = mesh
    base = len(points)
    for k in range(8):
        points.append((hi[0] if k & 1 else lo[0], hi[1] if k & 2 else lo[1], hi[2] if k & 4 else lo[2]))
    for a, b, c, d in ((0, 4, 6, 2), (1, 3, 7, 5), (0, 1, 5, 4), (2, 6, 7, 3), (0, 2, 3, 1), (4, 5, 7, 6)):
        triangles += [(base + a, base + b, base + c), (base + a, base + c, base + d)]


def house():
    """Floor, walls with the doorway, the raised bedroom floor and the stairs: boxes."""
    mesh = ([], [])
    x0, x1 = HOUSE_X
    z0, z1 = HOUSE_Z
    t = WALL_THICKNESS
    add_box(mesh, (x0 - t, -0.2, z0 - t), (x1 + t, 0.0, z1 + t))                  # floor slab
    add_box(mesh, (x0 - t, 0.0, z0 - t), (x1 + t, WALL_HEIGHT, z0))                # north wall
    add_box(mesh, (x0 - t, 0.0, z1), (x1 + t, WALL_HEIGHT, z1 + t))                # south wall
    add_box(mesh, (x0 - t, 0.0, z0), (x0, WALL_HEIGHT, z1))                        # west wall
    add_box(mesh, (x1, 0.0, z0), (x1 + t, WALL_HEIGHT, z1))                        # east wall
    wx0, wx1 = INNER_WALL_X - t / 2, INNER_WALL_X + t / 2
    add_box(mesh, (wx0, 0.0, z0), (wx1, WALL_HEIGHT, DOORWAY_Z[0]))                # inner wall, north of the door
    add_box(mesh, (wx0, 0.0, DOORWAY_Z[1]), (wx1, WALL_HEIGHT, z1))                # inner wall, south of the door
    add_box(mesh, (wx0, DOORWAY_TOP, DOORWAY_Z[0]), (wx1, WALL_HEIGHT, DOORWAY_Z[1]))  # lintel
    add_box(mesh, (wx0, 0.0, z0), (x1, BEDROOM_FLOOR, z1))                         # bedroom floor, doorway sill
    steps = round(BEDROOM_FLOOR / RISER)
    for k in range(1, steps):                                                      # the flight up to the sill
        add_box(mesh, (wx0 - (steps - k) * TREAD, 0.0, STAIRS_Z[0]), (wx0, k * RISER, STAIRS_Z[1]))
    return mesh


def convert(library):
    nodes = {"house": house()}
    with zipfile.ZipFile(library) as archive:
        catalogue = read_catalogue(archive)
        models = {}
        for name, piece_id, x, y, z, yaw in FURNITURE:
            entry = catalogue[piece_id]
            if piece_id not in models:
                models[piece_id] = read_obj(archive.read(entry["model"].lstrip("/")).decode("latin-1"))
            nodes[name] = place(*models[piece_id], entry, x, y, z, yaw)
    return nodes, catalogue


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", nargs="?", default=DEFAULT_LIBRARY)
    parser.add_argument("out")
    args = parser.parse_args()
    nodes, catalogue = convert(args.library)
    write_glb(nodes, args.out, SPAWNS)
    for name, (points, triangles) in nodes.items():
        print(f"{name}: {len(triangles)} triangles, {len(points)} vertices")
    for name, piece_id, *_ in FURNITURE:
        entry = catalogue[piece_id]
        print(f"{name}: {entry['name']} by {entry.get('creator', '?')} ({entry['model'].lstrip('/')})")
    print(f"total: {sum(len(t) for _, t in nodes.values())} triangles")


if __name__ == "__main__":
    main()
