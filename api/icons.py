"""The home-screen icons (static/img/icons/), drawn from the favicon's shapes with no
imaging library: `python -m api.icons` writes them again.

The favicon (static/img/favicon.svg) is a blue hexagon around a white triangle outline,
on a 64-unit square. "any" icons draw it as it is, on a transparent ground; the
maskable one fills the square with the blue and keeps the triangle inside the central
circle every launcher's mask leaves visible (80% of the width).
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

BLUE = (0x2F, 0x4F, 0x7F)
WHITE = (0xFF, 0xFF, 0xFF)
HEXAGON = [(32, 3), (58, 18), (58, 46), (32, 61), (6, 46), (6, 18)]
TRIANGLE = [(32, 14), (48, 42), (16, 42)]
STROKE = 4.0  # the triangle's outline, in favicon units
SAMPLES = 3  # per pixel and axis: edges are smoothed over 9 samples
OUT = Path(__file__).resolve().parent.parent / "static" / "img" / "icons"
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}


def _inside(poly: list[tuple[float, float]], x: float, y: float) -> bool:
    """Inside a convex polygon listed clockwise on screen (y down)."""
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) < 0:
            return False
    return True


def _near_outline(poly: list[tuple[float, float]], x: float, y: float, half: float) -> bool:
    """Within `half` of an edge: a stroke with round joins."""
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
        if math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)) <= half:
            return True
    return False


def draw(size: int, maskable: bool) -> list[bytearray]:
    """RGBA rows of the icon at `size` pixels square."""
    if maskable:  # the stroked triangle reaches 21 units from the centre: keep it in 36%
        scale = size * 0.36 / 21
        offset = size / 2 - 32 * scale
    else:
        scale, offset = size / 64, 0.0
    hexagon = [(offset + x * scale, offset + y * scale) for x, y in HEXAGON]
    triangle = [(offset + x * scale, offset + y * scale) for x, y in TRIANGLE]
    half = STROKE / 2 * scale
    step = 1 / SAMPLES
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            blue = white = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x, y = px + (sx + 0.5) * step, py + (sy + 0.5) * step
                    if _near_outline(triangle, x, y, half):
                        white += 1
                    elif maskable or _inside(hexagon, x, y):
                        blue += 1
            total = SAMPLES * SAMPLES
            covered = blue + white
            if covered == 0:
                row += b"\0\0\0\0"
                continue
            colour = [
                round((b * blue + w * white) / covered) for b, w in zip(BLUE, WHITE, strict=True)
            ]
            row += bytes([*colour, round(255 * covered / total)])
        rows.append(row)
    return rows


def png(rows: list[bytearray]) -> bytes:
    height, width = len(rows), len(rows[0]) // 4

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    raw = b"".join(b"\0" + bytes(row) for row in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (size, maskable) in ICONS.items():
        (OUT / name).write_bytes(png(draw(size, maskable)))


if __name__ == "__main__":
    main()
