#!/usr/bin/env python3
"""Writes the meshes of scenarios/launch/: floors with holes and ledges, made
of cells of given heights on a grid, each cell's top face plus the vertical
walls between neighbouring cells of different heights (no outer walls).
Deterministic; standard library only. Run from the repository root:

    python3 tools/launch_meshes.py
"""
import os

OUT = "scenarios/launch"


def mesh(xs, zs, height):
    """Cells [xs[i], xs[i+1]] x [zs[j], zs[j+1]] with tops at height(i, j)."""
    verts, tris = [], []

    def quad(a, b, c, d):
        base = len(verts)
        verts.extend([a, b, c, d])
        tris.append((base, base + 1, base + 2))
        tris.append((base, base + 2, base + 3))

    nx, nz = len(xs) - 1, len(zs) - 1
    for i in range(nx):
        for j in range(nz):
            h = height(i, j)
            x0, x1, z0, z1 = xs[i], xs[i + 1], zs[j], zs[j + 1]
            quad((x0, h, z0), (x0, h, z1), (x1, h, z1), (x1, h, z0))  # faces +y
            if i + 1 < nx:
                g = height(i + 1, j)
                if g != h:
                    lo, hi = min(g, h), max(g, h)
                    quad((x1, lo, z0), (x1, lo, z1), (x1, hi, z1), (x1, hi, z0))
            if j + 1 < nz:
                g = height(i, j + 1)
                if g != h:
                    lo, hi = min(g, h), max(g, h)
                    quad((x0, lo, z1), (x1, lo, z1), (x1, hi, z1), (x0, hi, z1))
    return verts, tris


def write_obj(name, comment, verts, tris, folder=None):
    path = os.path.join(folder or OUT, name)
    with open(path, "w", newline="\n") as f:
        f.write("# " + comment + " (tools/launch_meshes.py)\n")
        for v in verts:
            f.write("v %s %s %s\n" % tuple(repr(float(c)) for c in v))
        for t in tris:
            f.write("f %d %d %d\n" % (t[0] + 1, t[1] + 1, t[2] + 1))


def grid(lo, hi, step):
    n = int(round((hi - lo) / step))
    return [lo + k * step for k in range(n + 1)]


def main():
    # A floor with a 0.76 m hole, 2 m deep, across the way forward (-z).
    xs = [-3.0, 3.0]
    zs = [-12.0, -2.76, -2.0, 6.0]
    write_obj("floor_hole.obj", "a floor at y=0 with a 0.76 m wide, 2 m deep hole for z in [-2.76, -2]",
              *mesh(xs, zs, lambda i, j: -2.0 if j == 1 else 0.0))
    # A floor with 1 m square holes, 1 m deep, every 2 m each way.
    cells = grid(-1.0, 15.0, 1.0)
    write_obj("hole_grid.obj", "a floor at y=0 with 1 m square holes, 1 m deep, at odd cells of a 1 m grid",
              *mesh(cells, cells, lambda i, j: -1.0 if i % 2 == 1 and j % 2 == 1 else 0.0))
    # A floor and a 1 m ledge beyond z = -2 (its riser faces +z).
    write_obj("ledge.obj", "a floor at y=0 and a 1 m high ledge for z in [-8, -2]",
              *mesh([-3.0, 3.0], [-8.0, -2.0, 6.0], lambda i, j: 1.0 if j == 0 else 0.0))

    # A floor, then a plane rising toward -z from z = 0 at 17 degrees (a
    # slope a character with max_slope_deg 14 cannot stand on), 6 m long.
    rise = round(6.0 * 0.3057306815, 6)  # tan(17 degrees)
    verts = [(-3.0, 0.0, 6.0), (3.0, 0.0, 6.0), (3.0, 0.0, 0.0), (-3.0, 0.0, 0.0),
             (-3.0, 0.0, 0.0), (3.0, 0.0, 0.0), (3.0, rise, -6.0), (-3.0, rise, -6.0)]
    tris = [(0, 1, 2), (0, 2, 3), (4, 5, 6), (4, 6, 7)]
    write_obj("slope_17deg.obj", "a floor at y=0 for z in [0, 6], then a plane rising 17 degrees toward -z to z=-6",
              verts, tris)
    # A floor, then a ramp rising toward -z from z = 0 at 20 degrees, 8 m long.
    rise = round(8.0 * 0.3639702343, 6)  # tan(20 degrees)
    verts = [(-3.0, 0.0, 6.0), (3.0, 0.0, 6.0), (3.0, 0.0, 0.0), (-3.0, 0.0, 0.0),
             (-3.0, 0.0, 0.0), (3.0, 0.0, 0.0), (3.0, rise, -8.0), (-3.0, rise, -8.0)]
    write_obj("ramp_20deg.obj", "a floor at y=0 for z in [0, 6], then a ramp rising 20 degrees toward -z to z=-8",
              verts, tris)

    # Two ramps meeting in a groove that rises toward -z (each tilted 16.7
    # degrees across it, the groove 16.7 degrees up), under a flat ceiling
    # 2.3 m up: walking up the groove the head meets the ceiling where the
    # groove is 0.5 m high, wedged in the crease.
    s, t = 0.3, 0.3
    verts, tris = [], []
    for x0, x1 in ((-3.0, 0.0), (0.0, 3.0)):
        base = len(verts)
        for x, z in ((x0, 3.0), (x1, 3.0), (x1, -6.0), (x0, -6.0)):
            verts.append((x, round(-s * z + t * abs(x), 6), z))
        tris += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    base = len(verts)
    for x, z in ((-3.0, 1.0), (3.0, 1.0), (3.0, -6.0), (-3.0, -6.0)):
        verts.append((x, 2.3, z))
    tris += [(base, base + 2, base + 1), (base, base + 3, base + 2)]
    write_obj("ramp_crease_ceiling.obj",
              "two ramps meeting in a groove rising toward -z, under a flat ceiling at y=2.3", verts, tris)


if __name__ == "__main__":
    main()
