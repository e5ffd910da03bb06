#!/usr/bin/env python3
"""Writes the meshes (Wavefront OBJ) of the corner and wedge scenarios
("corners and wedges on meshes come to rest"):

  scenarios/walls/dense_corner.obj     a 90 degree inside corner of two walls and a floor, in 0.1 m triangles
  scenarios/walls/obtuse_corner.obj    the same at 126 degrees
  scenarios/walls/rounded_wall_end.obj a 0.2 m wall whose end is a half cylinder of 12 facets
  scenarios/walls/spiral_stair.obj     a spiral stair of floating 8 cm treads around a column

The scenarios (.json next to them) reference these files; this script only
makes the geometry, so it can be regenerated exactly: python3 tools/corner_meshes.py
"""
import math
import os
import sys


class Mesh:
    def __init__(self):
        self.vertices = []
        self.triangles = []

    def vertex(self, p):
        self.vertices.append(tuple(round(c, 6) for c in p))
        return len(self.vertices)  # OBJ indices start at 1

    def quad_grid(self, origin, u, v, nu, nv):
        """A planar quad origin + s*u + t*v, s, t in [0, 1], cut into nu x nv cells of two triangles each."""
        index = {}
        for i in range(nu + 1):
            for j in range(nv + 1):
                p = [origin[k] + u[k] * i / nu + v[k] * j / nv for k in range(3)]
                index[(i, j)] = self.vertex(p)
        for i in range(nu):
            for j in range(nv):
                a, b, c, d = index[(i, j)], index[(i + 1, j)], index[(i + 1, j + 1)], index[(i, j + 1)]
                # Alternate the diagonal, as exporters of real levels do.
                if (i + j) % 2 == 0:
                    self.triangles += [(a, b, c), (a, c, d)]
                else:
                    self.triangles += [(a, b, d), (b, c, d)]

    def quad(self, a, b, c, d):
        ia, ib, ic, id_ = (self.vertex(p) for p in (a, b, c, d))
        self.triangles += [(ia, ib, ic), (ia, ic, id_)]

    def write(self, path, comment):
        with open(path, "w") as out:
            out.write("# " + comment + "\n# written by tools/corner_meshes.py\n")
            for p in self.vertices:
                out.write("v %s %s %s\n" % tuple(repr(c) for c in p))
            for t in self.triangles:
                out.write("f %d %d %d\n" % t)


def dense_corner():
    """Floor 4 x 4 m and two 2.5 m walls meeting at a right angle at x = 2, z = -2, all in 0.1 m cells."""
    m = Mesh()
    m.quad_grid((-2, 0, -2), (4, 0, 0), (0, 0, 4), 40, 40)  # floor
    m.quad_grid((-2, 0, -2), (4, 0, 0), (0, 2.5, 0), 40, 25)  # north wall, plane z = -2
    m.quad_grid((2, 0, -2), (0, 0, 4), (0, 2.5, 0), 40, 25)  # east wall, plane x = 2
    return m


def corner(angle_deg, cell):
    """Two 2 m walls from the origin, one along -x and one turned angle_deg from it (the room between them, on
    the +z side), and a floor, all in cells of `cell` metres."""
    m = Mesh()
    length, height = 3.0, 2.0
    a = math.radians(angle_deg)
    n, nh = int(round(length / cell)), int(round(height / cell))
    m.quad_grid((-length, 0, -0.5), (length + 1, 0, 0), (0, 0, length + 0.5), int(round((length + 1) / cell)),
                int(round((length + 0.5) / cell)))
    for d in ((-1, 0, 0), (-math.cos(a), 0, math.sin(a))):
        m.quad_grid((0, 0, 0), (d[0] * length, 0, d[2] * length), (0, height, 0), n, nh)
    return m


def rounded_wall_end():
    """A wall 0.2 m thick along -x from x = 0, 2.5 m tall, its end a half cylinder of radius 0.1 around the y axis."""
    m = Mesh()
    r, h, facets = 0.1, 2.5, 12
    m.quad_grid((-3, 0, r), (3, 0, 0), (0, h, 0), 12, 10)  # south face, z = +r
    m.quad_grid((-3, 0, -r), (3, 0, 0), (0, h, 0), 12, 10)  # north face, z = -r
    for i in range(facets):
        a0 = math.pi / 2 - math.pi * i / facets
        a1 = math.pi / 2 - math.pi * (i + 1) / facets
        p0 = (r * math.cos(a0), 0, r * math.sin(a0))
        p1 = (r * math.cos(a1), 0, r * math.sin(a1))
        m.quad(p0, p1, (p1[0], h, p1[2]), (p0[0], h, p0[2]))
    return m


def spiral_stair():
    """Sixteen treads of 22.5 degrees, each 8 cm thick, rising 0.2 m each, from radius 0.15 to 1.2 m, around a
    column of radius 0.15; tread k's top is at 0.2 (k + 1)."""
    m = Mesh()
    steps, sweep, rise, inner, outer, thick = 16, math.radians(22.5), 0.2, 0.15, 1.2, 0.08
    for k in range(steps):
        a0, a1 = k * sweep, (k + 1) * sweep
        top, bottom = rise * (k + 1), rise * (k + 1) - thick
        def at(radius, angle, y):
            return (radius * math.cos(angle), y, radius * math.sin(angle))
        for y in (top, bottom):
            m.quad(at(inner, a0, y), at(outer, a0, y), at(outer, a1, y), at(inner, a1, y))
        m.quad(at(outer, a0, bottom), at(outer, a1, bottom), at(outer, a1, top), at(outer, a0, top))  # outer side
        m.quad(at(inner, a0, bottom), at(outer, a0, bottom), at(outer, a0, top), at(inner, a0, top))  # front
        m.quad(at(inner, a1, bottom), at(outer, a1, bottom), at(outer, a1, top), at(inner, a1, top))  # back
    facets = 12
    for i in range(facets):
        a0, a1 = 2 * math.pi * i / facets, 2 * math.pi * (i + 1) / facets
        h = rise * steps
        m.quad((0.15 * math.cos(a0), 0, 0.15 * math.sin(a0)), (0.15 * math.cos(a1), 0, 0.15 * math.sin(a1)),
               (0.15 * math.cos(a1), h, 0.15 * math.sin(a1)), (0.15 * math.cos(a0), h, 0.15 * math.sin(a0)))
    return m


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenarios", "walls")
    for name, make, comment in [
        ("dense_corner", dense_corner, "a 90 degree inside corner of a dense triangle mesh (0.1 m cells)"),
        ("obtuse_corner", lambda: corner(126, 0.1), "a 126 degree inside corner of a dense triangle mesh (0.1 m cells)"),
        ("rounded_wall_end", rounded_wall_end, "a wall with a rounded end (12 facets)"),
        ("spiral_stair", spiral_stair, "a spiral stair of floating treads around a column"),
    ]:
        make().write(os.path.join(root, name + ".obj"), comment)
    return 0


if __name__ == "__main__":
    sys.exit(main())
