#!/usr/bin/env python3
"""Convert a Quake III Arena BSP (IBSP version 46) into a geometry-only glTF 2.0 binary.

Why not `assimp export`: Assimp 5.2.5's Q3BSP importer (it reads the .pk3) fails its own
validation on OpenArena maps ("aiMesh::mFaces[0]::mIndices[0] is out of range"), keeps sky,
water and brush-entity faces alike, and does not tessellate curved patches, which are solid
in the game. This script reads the lumps directly (the format is small and documented) so
what is kept is explicit:

- the world model's (model 0) faces and those of `func_static` entities (solid and still in
  the game); other brush entities (doors, platforms, trains, buttons) move, so doorways come
  out open and lifts are missing;
- polygon faces (type 1) and curved patches (type 2, tessellated into a grid of quads) whose
  shader is solid (CONTENTS_SOLID) and not `nonsolid`, `sky` or `nodraw`: water, lava, slime
  and fog surfaces, sky and decals are dropped;
- faces wholly outside the world model's bounds (grown by 64 units) are dropped: a sky
  portal's backdrop (a miniature scene kilometres away, seen through a misc_portal_surface)
  is unreachable and would only stretch the level's bounds;
- triangle-soup models (type 3, misc_model clutter) go into their own node "clutter" so a
  level can drop them with `"exclude": ["clutter"]`; the rest is the node "world";
- the map's spawn points (entities info_player_deathmatch, info_player_start and the CTF
  team spawns) become nodes without a mesh, after the mesh nodes, named
  "spawn_<kind>_<n>" (spawn_deathmatch_1, ...; numbered per kind in the map's entity order)
  at the entity's origin, turned about +Y by its "angle" (stepslide reads a node named
  spawn* as a spawn point: docs/format.md "spawn points"); --no-spawns leaves them out,
  and --spawns-out FILE.gltf writes them to a glTF of their own instead (a "spawn
  sidecar", NAME.spawns.gltf beside NAME.glb, for a level whose glb must keep its bytes).
  They add no triangles: the binary chunk is the same with or without them.

Output: counter-clockwise front faces as glTF wants them (a floor's normal points up), metres, Y up (Quake's (x, y, z) with Z up becomes (x, z, -y) times --scale), one
POSITION accessor and one uint32 index accessor per node, no materials, normals or UVs.
Deterministic: the same BSP and options give the same bytes.

Usage: q3bsp_to_glb.py MAP.bsp OUT.glb [--scale METRES_PER_UNIT] [--patch-steps N]
                      [--no-spawns | --spawns-out SPAWNS.gltf]
The default scale is 0.032 m per unit, the one the project's levels use (levels/README.md);
the game's own step (18 units) is then 0.58 m, so walks on such a level want
max_step_height 0.6 (`stepslide import` and `stepslide map` report the risers they find).
MAP.bsp may also name a map inside a game archive: PAK.pk3:maps/NAME.bsp (a .pk3 is a zip).
"""
import argparse
import json
import math
import re
import struct
import sys
import zipfile

CONTENTS_SOLID = 0x1
SURF_SKY = 0x4
SURF_NODRAW = 0x80
SURF_NONSOLID = 0x4000
FACE_POLYGON, FACE_PATCH, FACE_MESH = 1, 2, 3


def read_lumps(data):
    magic, version = struct.unpack_from("<4si", data, 0)
    if magic != b"IBSP" or version != 46:
        raise SystemExit(f"not a Quake III BSP (magic {magic!r}, version {version})")
    return [struct.unpack_from("<ii", data, 8 + 8 * i) for i in range(17)]


def records(data, lump, size, fmt):
    offset, length = lump
    return [struct.unpack_from(fmt, data, offset + i * size) for i in range(length // size)]


def bezier3(p0, p1, p2, t):
    a, b, c = (1 - t) * (1 - t), 2 * t * (1 - t), t * t
    return tuple(a * p0[k] + b * p1[k] + c * p2[k] for k in range(3))


def tessellate_patch(control, width, height, steps):
    """Points and triangles of a Q3 patch: (width-1)/2 x (height-1)/2 biquadratic pieces."""
    points, triangles = [], []
    for py in range((height - 1) // 2):
        for px in range((width - 1) // 2):
            grid = [[control[(2 * py + j) * width + 2 * px + i] for i in range(3)] for j in range(3)]
            base = len(points)
            for v in range(steps + 1):
                rows = [bezier3(grid[0][i], grid[1][i], grid[2][i], v / steps) for i in range(3)]
                for u in range(steps + 1):
                    points.append(bezier3(rows[0], rows[1], rows[2], u / steps))
            n = steps + 1
            for v in range(steps):
                for u in range(steps):
                    a = base + v * n + u
                    triangles += [(a, a + n, a + 1), (a + 1, a + n, a + n + 1)]
    return points, triangles


def static_models(data, lump):
    """Model numbers of the world (0) and of every func_static entity, in file order."""
    offset, length = lump
    text = data[offset:offset + length].decode("latin-1")
    numbers = [0]
    for entity in re.findall(r"\{([^{}]*)\}", text):
        keys = dict(re.findall(r'"([^"]*)"\s+"([^"]*)"', entity))
        if keys.get("classname") == "func_static" and keys.get("model", "").startswith("*"):
            numbers.append(int(keys["model"][1:]))
    return numbers


SPAWN_CLASSES = ("info_player_deathmatch", "info_player_start", "team_ctf_redspawn", "team_ctf_bluespawn",
                 "team_ctf_redplayer", "team_ctf_blueplayer")


def spawn_points(data, lump, scale):
    """(name, (x, y, z) in metres Y up, angle in degrees) of the map's player spawn entities,
    in entity order."""
    offset, length = lump
    text = data[offset:offset + length].decode("latin-1")
    counts, spawns = {}, []
    for entity in re.findall(r"\{([^{}]*)\}", text):
        keys = dict(re.findall(r'"([^"]*)"\s+"([^"]*)"', entity))
        classname = keys.get("classname", "").lower()
        if classname not in SPAWN_CLASSES or "origin" not in keys:
            continue
        kind = classname.replace("info_player_", "").replace("team_ctf_", "ctf_")
        counts[kind] = counts.get(kind, 0) + 1
        x, y, z = (float(v) for v in keys["origin"].split()[:3])
        spawns.append((f"spawn_{kind}_{counts[kind]}", (x * scale, z * scale, -y * scale), float(keys.get("angle", "0"))))
    return spawns


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def facing(points, triangles, normals):
    """The triangles wound counter-clockwise seen from the side the face's vertex normals
    point to (glTF's front face, so a floor's normal points up). Quake's polygons wind the
    other way and its patches either way, so the vertex normals decide, once per face."""
    total = [0.0, 0.0, 0.0]
    for a, b, c in triangles:
        n = cross([points[b][k] - points[a][k] for k in range(3)], [points[c][k] - points[a][k] for k in range(3)])
        total = [total[k] + n[k] for k in range(3)]
    mean = [sum(n[k] for n in normals) for k in range(3)]
    if sum(total[k] * mean[k] for k in range(3)) >= 0:
        return triangles
    return [(a, c, b) for (a, b, c) in triangles]


def convert(data, scale, steps):
    lumps = read_lumps(data)
    textures = records(data, lumps[1], 72, "<64sii")
    models = records(data, lumps[7], 40, "<6f4i")
    vertex_records = records(data, lumps[10], 44, "<3f2f2f3f4B")
    vertexes = [v[0:3] for v in vertex_records]
    normals = [v[7:10] for v in vertex_records]
    meshverts = [m[0] for m in records(data, lumps[11], 4, "<i")]
    faces = records(data, lumps[13], 104, "<12i12f2i")
    kept = [face for number in static_models(data, lumps[0])
            for face in faces[models[number][6]:models[number][6] + models[number][7]]]
    lo = [c - 64 for c in models[0][0:3]]
    hi = [c + 64 for c in models[0][3:6]]
    nodes = {"world": ([], []), "clutter": ([], [])}
    dropped = {}
    for face in kept:
        corners = vertexes[face[3]:face[3] + face[4]]
        if corners and not all(min(v[k] for v in corners) <= hi[k] and max(v[k] for v in corners) >= lo[k] for k in range(3)):
            dropped["(outside the world's bounds)"] = dropped.get("(outside the world's bounds)", 0) + 1
            continue
        texture, kind, vertex, n_vertexes, meshvert, n_meshverts = face[0], face[2], face[3], face[4], face[5], face[6]
        name, surface_flags, contents = textures[texture]
        solid = (contents & CONTENTS_SOLID) and not (surface_flags & (SURF_SKY | SURF_NODRAW | SURF_NONSOLID))
        if kind not in (FACE_POLYGON, FACE_PATCH, FACE_MESH) or not solid:
            key = name.rstrip(b"\0").decode("latin-1")
            dropped[key] = dropped.get(key, 0) + 1
            continue
        points, triangles = nodes["clutter" if kind == FACE_MESH else "world"]
        if kind == FACE_PATCH:
            width, height = face[-2], face[-1]
            patch_points, patch_triangles = tessellate_patch(vertexes[vertex:vertex + n_vertexes], width, height, steps)
        else:
            patch_points = vertexes[vertex:vertex + n_vertexes]
            idx = meshverts[meshvert:meshvert + n_meshverts]
            patch_triangles = [tuple(idx[i:i + 3]) for i in range(0, len(idx) - 2, 3)]
        base = len(points)
        points += [(x * scale, z * scale, -y * scale) for (x, y, z) in patch_points]
        patch_triangles = facing(patch_points, patch_triangles, normals[vertex:vertex + n_vertexes])
        triangles += [(base + a, base + b, base + c) for (a, b, c) in patch_triangles]
    return nodes, dropped


def spawn_node(name, position, angle):
    """A glTF node without a mesh at `position`, turned `angle` degrees about +Y."""
    # Quake's angle turns about its +Z (up), counter-clockwise seen from above; so
    # does a turn about glTF's +Y, with Quake's (x, y, z) as (x, z, -y).
    node = {"name": name, "translation": [round(v, 6) for v in position]}
    if angle % 360:
        half = math.radians(angle) / 2
        node["rotation"] = [0.0, math.sin(half), 0.0, math.cos(half)]
    return node


def write_spawns_gltf(spawns, path):
    """A glTF (JSON) holding only the spawn nodes: no meshes, no buffers."""
    gltf = {"asset": {"version": "2.0", "generator": "stepslide levels/q3bsp_to_glb.py"},
            "scene": 0, "scenes": [{"nodes": list(range(len(spawns)))}],
            "nodes": [spawn_node(*spawn) for spawn in spawns]}
    with open(path, "w") as f:
        f.write(json.dumps(gltf, indent=1, sort_keys=True) + "\n")


def write_glb(nodes, path, spawns=()):
    blob = bytearray()
    gltf = {"asset": {"version": "2.0", "generator": "stepslide levels/q3bsp_to_glb.py"},
            "scene": 0, "scenes": [{"nodes": []}], "nodes": [], "meshes": [],
            "accessors": [], "bufferViews": [], "buffers": []}
    for name, (points, triangles) in nodes.items():
        if not triangles:
            continue
        view = len(gltf["bufferViews"])
        pos_offset = len(blob)
        for p in points:
            blob += struct.pack("<3f", *p)
        idx_offset = len(blob)
        for t in triangles:
            blob += struct.pack("<3I", *t)
        gltf["bufferViews"] += [
            {"buffer": 0, "byteOffset": pos_offset, "byteLength": idx_offset - pos_offset, "target": 34962},
            {"buffer": 0, "byteOffset": idx_offset, "byteLength": len(blob) - idx_offset, "target": 34963}]
        stored = [struct.unpack("<3f", struct.pack("<3f", *p)) for p in points]
        gltf["accessors"] += [
            {"bufferView": view, "componentType": 5126, "count": len(points), "type": "VEC3",
             "min": [min(p[k] for p in stored) for k in range(3)],
             "max": [max(p[k] for p in stored) for k in range(3)]},
            {"bufferView": view + 1, "componentType": 5125, "count": 3 * len(triangles), "type": "SCALAR"}]
        mesh = len(gltf["meshes"])
        gltf["meshes"].append({"name": name, "primitives": [
            {"attributes": {"POSITION": view}, "indices": view + 1, "mode": 4}]})
        gltf["scenes"][0]["nodes"].append(len(gltf["nodes"]))
        gltf["nodes"].append({"name": name, "mesh": mesh})
    for spawn in spawns:
        gltf["scenes"][0]["nodes"].append(len(gltf["nodes"]))
        gltf["nodes"].append(spawn_node(*spawn))
    gltf["buffers"].append({"byteLength": len(blob)})
    text = json.dumps(gltf, separators=(",", ":"), sort_keys=True).encode()
    text += b" " * (-len(text) % 4)
    blob += b"\0" * (-len(blob) % 4)
    out = struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(text) + 8 + len(blob))
    out += struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(blob), b"BIN\0") + blob
    with open(path, "wb") as f:
        f.write(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bsp")
    parser.add_argument("out")
    parser.add_argument("--scale", type=float, default=0.032,
                        help="metres per Quake unit (default 0.032: the 56-unit player box becomes 1.79 m, "
                             "the character's height; 0.0254, an inch, makes doorways too low for it)")
    parser.add_argument("--patch-steps", type=int, default=4, help="subdivisions per patch piece side")
    spawn_options = parser.add_mutually_exclusive_group()
    spawn_options.add_argument("--no-spawns", action="store_true", help="leave out the spawn point nodes")
    spawn_options.add_argument("--spawns-out", metavar="SPAWNS.gltf",
                               help="write the spawn point nodes to this glTF instead of OUT.glb")
    args = parser.parse_args()
    archive, sep, member = args.bsp.partition(".pk3:")
    if sep:
        with zipfile.ZipFile(archive + ".pk3") as pk3:
            data = pk3.read(member)
    else:
        with open(args.bsp, "rb") as f:
            data = f.read()
    nodes, dropped = convert(data, args.scale, args.patch_steps)
    spawns = [] if args.no_spawns else spawn_points(data, read_lumps(data)[0], args.scale)
    if args.spawns_out:
        write_spawns_gltf(spawns, args.spawns_out)
        write_glb(nodes, args.out)
    else:
        write_glb(nodes, args.out, spawns)
    for name, (points, triangles) in nodes.items():
        print(f"{name}: {len(triangles)} triangles, {len(points)} vertices")
    if spawns:
        print(f"spawn points: {len(spawns)} ({', '.join(name for name, _, _ in spawns)})")
    for name in sorted(dropped):
        print(f"dropped: {dropped[name]} faces of {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
