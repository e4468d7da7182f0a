"""Character portraits: what an upload must be, and the initials drawn when there is none.

An upload is accepted only as PNG, JPEG or WebP of at most 1 MB and 4096 px a side,
recognised from its own bytes (never from its name or the browser's word for it): the
header is parsed and the declared size checked. Pillow is not a dependency; where it is
installed, the whole image is also decoded once (Image.verify) before it is kept.
The bytes are served as stored, with the type found here (sheets/views/portrait.py).
"""

from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass
from html import escape

try:  # optional: a deeper check where Pillow happens to be installed
    from PIL import Image as PillowImage
except ImportError:  # pragma: no cover - depends on the environment
    PillowImage = None

MAX_BYTES = 1024 * 1024
MAX_SIDE = 4096
ACCEPT = "image/png,image/jpeg,image/webp"


class PortraitError(ValueError):
    """Why an upload is not a portrait, in words for the uploader."""


@dataclass(frozen=True)
class Portrait:
    content_type: str
    width: int
    height: int


def _png(data: bytes) -> tuple[int, int]:
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise PortraitError("This PNG file is damaged.")
    return struct.unpack(">II", data[16:24])


# JPEG start-of-frame markers carry the size (C4, C8 and CC are other segments).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg(data: bytes) -> tuple[int, int]:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker in _SOF and at + 9 <= len(data):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    raise PortraitError("This JPEG file is damaged.")


def _webp(data: bytes) -> tuple[int, int]:
    if len(data) < 30 or struct.unpack("<I", data[4:8])[0] + 8 != len(data):
        raise PortraitError("This WebP file is damaged.")
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    raise PortraitError("This WebP file is damaged.")


def _kind(data: bytes):
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png", _png
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg", _jpeg
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp", _webp
    raise PortraitError("A portrait must be a PNG, JPEG or WebP image.")


def verify(data: bytes) -> Portrait:
    """The portrait in `data`, or PortraitError saying why it is refused."""
    if not data:
        raise PortraitError("Choose an image file.")
    if len(data) > MAX_BYTES:
        raise PortraitError("A portrait may be at most 1 MB.")
    content_type, size_of = _kind(data)
    width, height = size_of(data)
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise PortraitError(f"A portrait may be at most {MAX_SIDE} pixels on a side.")
    if PillowImage is not None:  # pragma: no cover - Pillow is optional
        try:
            with PillowImage.open(io.BytesIO(data)) as image:
                image.verify()
        except Exception as error:  # noqa: BLE001 - any decoding failure is a refusal
            raise PortraitError("This image file is damaged.") from error
    return Portrait(content_type, width, height)


def initials(name: str) -> str:
    """Up to two letters for a name: "Malcolm Reynolds" -> "MR", "Kaylee" -> "K"."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    return "".join(w[0] for w in words[:2]).upper() or "?"


# Dark backgrounds, each 4.5:1 or more against white text.
_BACKGROUNDS = ("#7a2e12", "#1e5a8a", "#1e6b3a", "#6b3a8a", "#8a2c4e", "#3f4a59")


def initials_svg(name: str) -> str:
    """A round badge with the name's initials, its colour fixed by the name."""
    colour = _BACKGROUNDS[hashlib.sha256(name.encode()).digest()[0] % len(_BACKGROUNDS)]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">'
        f'<circle cx="32" cy="32" r="32" fill="{colour}"/>'
        '<text x="32" y="33" fill="#ffffff" font-family="system-ui, sans-serif" font-size="26" '
        'font-weight="700" text-anchor="middle" dominant-baseline="middle">'
        f"{escape(initials(name))}</text></svg>"
    )
