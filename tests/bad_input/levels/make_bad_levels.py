#!/usr/bin/env python3
"""Writes the small mesh files of the bad-input corpus (tests/bad_input/levels/).

Run from anywhere: python3 tests/bad_input/levels/make_bad_levels.py
The outputs are checked in; this script says how each was made. Every file is
broken in one way (or, for good_floor.glb and many_nodes.glb, valid and used to
break a scenario some other way)."""
import json
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def glb(document, binary):
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    total = 12 + 8 + len(text) + (8 + len(binary) if binary else 0)
    out = struct.pack("<III", 0x46546C67, 2, total) + struct.pack("<II", len(text), 0x4E4F534A) + text
    if binary:
        out += struct.pack("<II", len(binary), 0x004E4942) + binary
    return out


def mesh_document(positions, indices, nodes=None, buffer_length=None, extra_accessor_count=0):
    """One mesh of float positions and uint32 indices; `nodes` defaults to one node using it."""
    position_bytes = b"".join(struct.pack("<3f", *p) for p in positions)
    index_bytes = b"".join(struct.pack("<I", i) for i in indices)
    lo = [min(p[k] for p in positions) for k in range(3)]
    hi = [max(p[k] for p in positions) for k in range(3)]
    if not all(math.isfinite(v) for v in lo + hi):
        lo, hi = [0, 0, 0], [0, 0, 0]
    document = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": list(range(len(nodes))) if nodes else [0]}],
        "nodes": nodes or [{"name": "Floor", "mesh": 0}],
        "meshes": [{"name": "FloorMesh", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": len(positions) + extra_accessor_count, "type": "VEC3",
             "min": lo, "max": hi},
            {"bufferView": 1, "componentType": 5125, "count": len(indices), "type": "SCALAR"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": len(position_bytes)},
            {"buffer": 0, "byteOffset": len(position_bytes), "byteLength": len(index_bytes)},
        ],
        "buffers": [{"byteLength": buffer_length or len(position_bytes) + len(index_bytes)}],
    }
    return document, position_bytes + index_bytes


QUAD = [(-5, 0, -5), (-5, 0, 5), (5, 0, 5), (5, 0, -5)]
QUAD_INDICES = [0, 1, 2, 0, 2, 3]


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, colour_type, depth, rows):
    """A PNG with one IDAT chunk; `rows` are the raw scanlines (filter byte added here)."""
    raw = b"".join(b"\0" + r for r in rows)
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(raw)) +
            png_chunk(b"IEND", b""))


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def main():
    good = glb(*mesh_document(QUAD, QUAD_INDICES))
    write("good_floor.glb", good)
    # Cut in the middle of the binary chunk.
    write("truncated.glb", good[: len(good) - 20])
    # "glTF" misspelt.
    write("wrong_magic.glb", b"gLTF" + good[4:])
    # A PNG signature and header, renamed .glb.
    write("picture.glb", b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    # The position accessor claims 1000 more vertices than its buffer view holds.
    write("buffer_out_of_range.glb", glb(*mesh_document(QUAD, QUAD_INDICES, extra_accessor_count=1000)))
    # A vertex with a NaN coordinate.
    write("nan_vertex.glb", glb(*mesh_document([(float("nan"), 0, 0)] + QUAD[1:], QUAD_INDICES)))
    # A vertex 2e6 m away: beyond the coordinate limit.
    write("far_vertex.glb", glb(*mesh_document([(2e6, 0, 0)] + QUAD[1:], QUAD_INDICES)))
    # Nodes, no meshes.
    write("no_meshes.gltf", json.dumps({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
                                        "nodes": [{"name": "Empty"}]}))
    # Every triangle degenerate: all corners on one line.
    write("all_degenerate.glb", glb(*mesh_document([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)], QUAD_INDICES)))
    # An OBJ face naming vertex 9 of 4.
    write("index_out_of_range.obj", "o Floor\nv -5 0 -5\nv -5 0 5\nv 5 0 5\nv 5 0 -5\nf 1 2 9\n")
    # An empty FBX file.
    write("empty.fbx", b"")
    # Not a mesh format at all.
    write("level.stl", "solid level\nendsolid level\n")
    # 101 nodes sharing one 1000-triangle mesh: 101000 triangles per use (the triangle-limit case uses it 20 times).
    cells = 10
    grid = [(x * 1.0, 0.0, z * 1.0) for z in range(cells + 1) for x in range(cells + 1)]
    grid_indices = []
    for z in range(cells):
        for x in range(cells):
            a, b, c, d = z * (cells + 1) + x, (z + 1) * (cells + 1) + x, (z + 1) * (cells + 1) + x + 1, z * (cells + 1) + x + 1
            grid_indices += [a, b, c, a, c, d]
    grid_indices *= 5  # 1000 triangles: the same 200 five times (all but the first copy are duplicates)
    nodes = [{"name": "Tile%d" % i, "mesh": 0, "translation": [0, 0.5 * i, 0]} for i in range(101)]
    write("many_nodes.glb", glb(*mesh_document(grid, grid_indices, nodes=nodes)))
    # Heightfield images: a good 2 x 2 16-bit greyscale one, a colour one, one cut short, one with a bad CRC.
    terrain = png(2, 2, 0, 16, [struct.pack(">HH", 0, 1000), struct.pack(">HH", 2000, 65535)])
    write("terrain16.png", terrain)
    write("colour.png", png(2, 2, 2, 8, [bytes(6), bytes(6)]))
    write("truncated.png", terrain[:40])
    bad_crc = bytearray(terrain)
    bad_crc[30] ^= 0xFF
    write("bad_crc.png", bytes(bad_crc))


if __name__ == "__main__":
    main()
