"""Character portraits: what an upload must be, the picture kept from it, and the initials
drawn when there is none.

An upload is decoded by Pillow, never trusted from its name or the browser's word: only
PNG, JPEG or WebP, at most 2 MB and MAX_PIXELS pixels, and it must decode whole. What is
kept is a new 256×256 WebP drawn from the decoded pixels (turned upright by its EXIF,
cropped to a centred square), so nothing of the uploaded file (metadata, a second file
hidden in it) is ever served.

A small file can still be a lot of memory once decoded (a 121 KB PNG of 4000×4000
16-bit pixels), so what a decode would cost is reckoned from the header before any
pixel is read (`decode_cost`) and refused above DECODE_BUDGET, and a process decodes at
most PORTRAIT_DECODES uploads at once: one that finds no free turn within
PORTRAIT_DECODE_WAIT seconds is told to try again rather than piling up.
"""

from __future__ import annotations

import hashlib
import io
import threading
from contextlib import contextmanager
from html import escape

from django.conf import settings
from django.db import transaction
from django.db.models import F
from PIL import Image, ImageOps, UnidentifiedImageError

from .models import Sheet, SheetPortrait

MAX_BYTES = 2 * 1024 * 1024
MAX_PIXELS = 16_000_000  # a 12-megapixel phone photo fits; decoding more is a risk
# Bytes of pixels one decode may hold: the decoded picture and one full-size working copy
# (see decode_cost). A JPEG is decoded scaled down, so any photo fits; a PNG of up to
# about 8 megapixels does, a WebP of about 4.
DECODE_BUDGET = 64 * 1024 * 1024
SIDE = 256
ACCEPT = "image/png,image/jpeg,image/webp"
FORMATS = ("PNG", "JPEG", "WEBP")


class PortraitError(ValueError):
    """Why an upload is not a portrait, in words for the uploader."""


NOT_AN_IMAGE = "A portrait must be a PNG, JPEG or WebP image."
DAMAGED = "This image could not be read: the file is damaged or incomplete."
TOO_BIG = "A portrait may be at most 2 MB."
TOO_MANY_PIXELS = f"A portrait may be at most {MAX_PIXELS // 1_000_000} megapixels: make it smaller and try again."
TOO_COSTLY = (
    "This image is too large to read: it would take {mb} MB of memory, and a portrait may "
    f"take at most {DECODE_BUDGET // (1024 * 1024)} MB. Make it smaller (about 2000×2000 "
    "pixels is plenty) or save it as a JPEG, and try again."
)
BUSY = "The server is busy reading other portraits: try again in a moment."

# Bytes per pixel as Pillow holds a decoded image of each mode: "RGB" and "LA" are
# padded to four bytes a pixel, 16-bit greys take two, anything not listed four.
_HELD_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2}
# libwebp decodes the whole picture into a buffer of its own, which Pillow then copies.
_DECODER_BYTES = {"WEBP": 8}
# Modes Image.reduce() shrinks as they are; others are converted, full size, first.
_REDUCIBLE = frozenset({"L", "LA", "I", "F", "RGB", "RGBA", "RGBa", "CMYK", "YCbCr"})
# EXIF orientation -> the turn that makes the picture upright.
_UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}

decode_turns = threading.BoundedSemaphore(max(1, settings.PORTRAIT_DECODES))


def _looks_like_one(data: bytes) -> bool:
    """Starts as a PNG, JPEG or WebP file does (a file cut short still does)."""
    return data.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")) or (
        data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    )


def _checked_size(image: Image.Image) -> None:
    width, height = image.size
    if width < 1 or height < 1:
        raise PortraitError(DAMAGED)
    if width * height > MAX_PIXELS:
        raise PortraitError(TOO_MANY_PIXELS)


def decode_cost(kind: str, mode: str, size: tuple[int, int]) -> int:
    """Bytes a decode of this header holds at its peak: the picture as Pillow keeps its
    mode, one full-size four-byte copy (the conversion a mode that cannot be reduced as
    it is needs; the others' copies are counted too, to be safe), and what the format's
    decoder holds besides (bench/portrait_memory.py measures them)."""
    width, height = size
    return width * height * (_HELD_BYTES.get(mode, 4) + 4 + _DECODER_BYTES.get(kind, 0))


def _checked_cost(image: Image.Image) -> None:
    cost = decode_cost(image.format or "", image.mode, image.size)
    if cost > DECODE_BUDGET:
        raise PortraitError(TOO_COSTLY.format(mb=-(-cost // (1024 * 1024))))


@contextmanager
def _turn_to_decode():
    """One of the process's PORTRAIT_DECODES turns, or PortraitError(BUSY) after waiting
    PORTRAIT_DECODE_WAIT seconds for one."""
    if not decode_turns.acquire(timeout=max(0, settings.PORTRAIT_DECODE_WAIT)):
        raise PortraitError(BUSY)
    try:
        yield
    finally:
        decode_turns.release()


def _small_upright(image: Image.Image) -> Image.Image:
    """The loaded picture, shrunk by a whole factor while its short side stays at least
    twice SIDE (so the full-size pixels can go at once), and turned upright by its EXIF."""
    orientation = image.getexif().get(0x0112)
    working = image if image.mode in _REDUCIBLE else image.convert("RGBA")
    factor = min(working.size) // (SIDE * 2)
    if factor > 1:
        working = working.reduce(factor)
    turn = _UPRIGHT.get(orientation) if isinstance(orientation, int) else None
    return working.transpose(turn) if turn is not None else working


def _decoded(data: bytes) -> Image.Image:
    """The upload's pixels as a small RGBA picture, upright; PortraitError saying why not."""
    try:
        # Pillow itself refuses a huge image on opening (DecompressionBombError); below
        # that, MAX_PIXELS and DECODE_BUDGET are checked from the header before anything
        # is decoded.
        with Image.open(io.BytesIO(data), formats=FORMATS) as probe:
            _checked_size(probe)
            probe.verify()  # the whole file, checksums included
        with Image.open(io.BytesIO(data), formats=FORMATS) as image:
            _checked_size(image)
            if image.format == "JPEG":
                image.draft("RGB", (SIDE * 2, SIDE * 2))  # decode big photos scaled down
            _checked_cost(image)
            image.load()
            return _small_upright(image).convert("RGBA")
    except PortraitError:
        raise
    except Image.DecompressionBombError as error:
        raise PortraitError(TOO_MANY_PIXELS) from error
    except UnidentifiedImageError as error:
        # Pillow says the same of a stranger and of a PNG cut short: tell them apart.
        raise PortraitError(DAMAGED if _looks_like_one(data) else NOT_AN_IMAGE) from error
    except Exception as error:  # noqa: BLE001 - any decoding failure is a damaged file
        raise PortraitError(DAMAGED) from error


def normalise(data: bytes) -> bytes:
    """The portrait to keep for an upload (WebP bytes), or PortraitError saying why not."""
    if not data:
        raise PortraitError("Choose an image file.")
    if len(data) > MAX_BYTES:
        raise PortraitError(TOO_BIG)
    with _turn_to_decode():
        pixels = _decoded(data)
    square = ImageOps.fit(pixels, (SIDE, SIDE), Image.Resampling.LANCZOS, centering=(0.5, 0.5))
    # A fresh image carries no info from the upload: no EXIF, ICC profile or text chunks.
    clean = Image.new("RGBA", (SIDE, SIDE))
    clean.paste(square)
    out = io.BytesIO()
    clean.save(out, "WEBP", quality=85, method=4)
    return out.getvalue()


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


def save_portrait(sheet: Sheet, data: bytes) -> None:
    """Keep `data` (from normalise) as the sheet's portrait; every upload raises the
    sheet's portrait_version, so the address and ETag of the picture change with it."""
    with transaction.atomic():
        SheetPortrait.objects.update_or_create(sheet=sheet, defaults={"data": data})
        Sheet.objects.filter(pk=sheet.pk).update(portrait_version=F("portrait_version") + 1)


def remove_portrait(sheet: Sheet) -> bool:
    """Back to the initials; False (and nothing changed) when there was no portrait."""
    with transaction.atomic():
        removed, _ = SheetPortrait.objects.filter(sheet=sheet).delete()
        if removed:
            Sheet.objects.filter(pk=sheet.pk).update(portrait_version=F("portrait_version") + 1)
    return bool(removed)
