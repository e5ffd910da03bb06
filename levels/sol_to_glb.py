#!/usr/bin/env python3
"""Convert a Neverball level (a compiled SOL file, version 7 or 8, as Debian's
neverball-data ships them) into a geometry-only glTF 2.0 binary.

A SOL file holds the level as bodies made of lumps: convex solids, each given by its
vertices and its sides (planes). The ball collides with the lumps, so this writes the
surface of every lump that collides (not flagged L_DETAIL) of every body that stays
still (no path: moving platforms are dropped, so their travel is open space): on each
side, the lump's vertices on that plane, ordered around their centre and fanned into
triangles wound counter-clockwise seen from outside (glTF's front face). Y up, as in
the game. The drawn triangles ("geoms") are not used: a level's hidden faces have none. Items, goals, switches,
teleporters and billboards are not geometry and are dropped; the ball's start
positions (the "balls") become spawn point nodes, named spawn_ball_<n>, at the
ball's centre (docs/format.md "spawn points").

Neverball's unit is small (the ball's radius is 0.25): --scale (default 4 m per unit,
so a 1-unit wall is 4 m high and the 2-unit-wide lanes of the easy levels are 8 m wide)
makes a level a person can walk in.

Usage: sol_to_glb.py LEVEL.sol OUT.glb [--scale METRES_PER_UNIT]
Deterministic: the same file and options give the same bytes.
"""
import argparse
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from q3bsp_to_glb import write_glb  # noqa: E402  (our own glb writer, same folder)

SOL_MAGIC = 0xAF | ord("S") << 8 | ord("O") << 16 | ord("L") << 24
M_ALPHA_TEST = 1 << 10
L_DETAIL = 1
PATHMAX = 64
COUNTS = "ac dc mc vc ec sc tc oc gc lc nc pc bc hc zc jc xc rc uc wc ic".split()


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def ints(self, n):
        values = struct.unpack_from(f"<{n}i", self.data, self.at)
        self.at += 4 * n
        return values

    def floats(self, n):
        values = struct.unpack_from(f"<{n}f", self.data, self.at)
        self.at += 4 * n
        return values

    def skip(self, n):
        self.at += n


def read_sol(data):
    r = Reader(data)
    magic, version = r.ints(2)
    if magic != SOL_MAGIC or version not in (7, 8):
        raise SystemExit(f"not a SOL file of version 7 or 8 (magic {magic:#x}, version {version})")
    c = dict(zip(COUNTS, r.ints(len(COUNTS))))
    r.skip(c["ac"])
    r.skip(8 * c["dc"])
    for _ in range(c["mc"]):
        r.skip(17 * 4)
        (flags,) = r.ints(1)
        r.skip(PATHMAX)
        if flags & M_ALPHA_TEST:
            r.skip(8)
    verts = [r.floats(3) for _ in range(c["vc"])]
    r.skip(8 * c["ec"])
    sides = [r.floats(4) for _ in range(c["sc"])]
    r.skip(8 * c["tc"])
    offs = [r.ints(3) for _ in range(c["oc"])]
    geoms = [r.ints(4) for _ in range(c["gc"])]
    lumps = [r.ints(9) for _ in range(c["lc"])]
    r.skip(20 * c["nc"])
    for _ in range(c["pc"]):
        r.skip(4 * 7)
        (flags,) = r.ints(1)
        if flags & 1:  # P_ORIENTED: a rotation follows
            r.skip(16)
    bodies = [r.ints(7) for _ in range(c["bc"])]
    r.skip(20 * c["hc"] + 16 * c["zc"] + 28 * c["jc"] + 36 * c["xc"] + 84 * c["rc"])
    balls = [r.floats(4) for _ in range(c["uc"])]
    r.skip(24 * c["wc"])
    index = r.ints(c["ic"])
    if r.at != len(data):
        raise SystemExit(f"SOL layout not understood: read {r.at} of {len(data)} bytes")
    return verts, sides, lumps, bodies, balls, index


def sub(a, b):
    return tuple(a[k] - b[k] for k in range(3))


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def dot(u, v):
    return sum(u[k] * v[k] for k in range(3))


def lump_faces(corner_ids, planes, verts):
    """Triangles (vertex ids) of a convex lump's faces: per plane, the corners on it,
    ordered counter-clockwise about the plane's outward normal, fanned."""
    triangles = []
    for normal in planes:
        n, d = normal[:3], normal[3]
        on = [v for v in corner_ids if abs(dot(verts[v], n) - d) < 1e-3]
        if len(on) < 3:
            continue
        centre = tuple(sum(verts[v][k] for v in on) / len(on) for k in range(3))
        # Two axes in the plane, then each corner's angle around the centre.
        axis = sub(verts[on[0]], centre)
        other = cross(n, axis)
        on.sort(key=lambda v: math.atan2(dot(sub(verts[v], centre), other), dot(sub(verts[v], centre), axis)))
        for k in range(1, len(on) - 1):
            a, b, c = on[0], on[k], on[k + 1]
            if dot(cross(sub(verts[b], verts[a]), sub(verts[c], verts[a])), n) < 0:
                b, c = c, b
            triangles.append((a, b, c))
    return triangles


def convert(data, scale):
    verts, sides, lumps, bodies, balls, index = read_sol(data)
    points, triangles, remap = [], [], {}
    kept = dropped_moving = dropped_detail = 0
    for p0, _p1, _ni, l0, lc, _g0, _gc in bodies:
        for l in range(l0, l0 + lc):
            flags, v0, vc, _e0, _ec, _g0l, _gcl, s0, sc = lumps[l]
            if p0 >= 0:
                dropped_moving += 1
                continue
            if flags & L_DETAIL:
                dropped_detail += 1
                continue
            kept += 1
            corner_ids = [index[k] for k in range(v0, v0 + vc)]
            planes = [sides[index[k]] for k in range(s0, s0 + sc)]
            for triangle in lump_faces(corner_ids, planes, verts):
                corners = []
                for vi in triangle:
                    if vi not in remap:
                        remap[vi] = len(points)
                        points.append(tuple(v * scale for v in verts[vi]))
                    corners.append(remap[vi])
                triangles.append(tuple(corners))
    spawns = [(f"spawn_ball_{n + 1}", tuple(round(v * scale, 6) for v in ball[:3]), 0.0) for n, ball in enumerate(balls)]
    return {"level": (points, triangles)}, spawns, (kept, dropped_moving, dropped_detail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sol")
    parser.add_argument("out")
    parser.add_argument("--scale", type=float, default=4.0, help="metres per Neverball unit (default 4)")
    args = parser.parse_args()
    with open(args.sol, "rb") as f:
        data = f.read()
    nodes, spawns, (kept, moving, detail) = convert(data, args.scale)
    write_glb(nodes, args.out, spawns)
    points, triangles = nodes["level"]
    print(f"level: {len(triangles)} triangles, {len(points)} vertices from {kept} lumps "
          f"(dropped {moving} lumps of moving bodies, {detail} detail lumps); spawn points: {len(spawns)}")


if __name__ == "__main__":
    main()
