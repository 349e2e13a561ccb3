"""Draws the web client's app icons (web/icons/*.png, the manifest's): a gem on the header's
blue, written as PNG by hand (zlib and struct: no image library needed for three flat icons).
Run `python tools/make_icons.py` after changing the drawing; the PNGs are committed."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "web" / "icons"
BLUE, GOLD, LIGHT, BG = (0x24, 0x3B, 0x53), (0xF5, 0x9F, 0x00), (0xFF, 0xD8, 0x6B), (0xFA, 0xF8, 0xF4)


def _pixel(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    """The colour at (x, y) in [0, 1]²: a rounded blue square (full bleed when maskable) with a
    gem (a diamond, its upper facet lighter) in the middle."""
    r = 0.0 if maskable else 0.18
    dx, dy = max(abs(x - 0.5) - (0.5 - r), 0), max(abs(y - 0.5) - (0.5 - r), 0)
    if dx * dx + dy * dy > r * r:
        return (*BG, 0)
    size = 0.26 if maskable else 0.32  # a maskable icon keeps its drawing in the safe circle
    if abs(x - 0.5) + abs(y - 0.5) * 0.8 <= size:
        return (*LIGHT, 255) if y < 0.5 - size * 0.25 else (*GOLD, 255)
    return (*BLUE, 255)


def png(size: int, maskable: bool = False) -> bytes:
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # no filter
        for i in range(size):
            rows.extend(_pixel((i + 0.5) / size, (j + 0.5) / size, maskable))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    icons = (("icon-192.png", 192, False), ("icon-512.png", 512, False), ("icon-maskable-512.png", 512, True))
    for name, size, maskable in icons:
        (OUT / name).write_bytes(png(size, maskable))
        print(OUT / name)
