"""Character portraits: what an upload must be, the picture kept from it, and the initials
drawn when there is none.

An upload is decoded by Pillow, never trusted from its name or the browser's word: only
PNG, JPEG or WebP, at most 2 MB and MAX_PIXELS pixels, and it must decode whole. What is
kept is a new 256×256 WebP drawn from the decoded pixels (turned upright by its EXIF,
cropped to a centred square), so nothing of the uploaded file (metadata, a second file
hidden in it) is ever served.
"""

from __future__ import annotations

import hashlib
import io
from html import escape

from django.db import transaction
from django.db.models import F
from PIL import Image, ImageOps, UnidentifiedImageError

from .models import Sheet, SheetPortrait

MAX_BYTES = 2 * 1024 * 1024
MAX_PIXELS = 16_000_000  # a 12-megapixel phone photo fits; decoding more is a risk
SIDE = 256
ACCEPT = "image/png,image/jpeg,image/webp"
FORMATS = ("PNG", "JPEG", "WEBP")


class PortraitError(ValueError):
    """Why an upload is not a portrait, in words for the uploader."""


NOT_AN_IMAGE = "A portrait must be a PNG, JPEG or WebP image."
DAMAGED = "This image could not be read: the file is damaged or incomplete."
TOO_BIG = "A portrait may be at most 2 MB."
TOO_MANY_PIXELS = f"A portrait may be at most {MAX_PIXELS // 1_000_000} megapixels: make it smaller and try again."


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


def normalise(data: bytes) -> bytes:
    """The portrait to keep for an upload (WebP bytes), or PortraitError saying why not."""
    if not data:
        raise PortraitError("Choose an image file.")
    if len(data) > MAX_BYTES:
        raise PortraitError(TOO_BIG)
    try:
        # Pillow itself refuses a huge image on opening (DecompressionBombError); below
        # that, MAX_PIXELS is checked from the header before anything is decoded.
        with Image.open(io.BytesIO(data), formats=FORMATS) as probe:
            _checked_size(probe)
            probe.verify()  # the whole file, checksums included
        with Image.open(io.BytesIO(data), formats=FORMATS) as image:
            _checked_size(image)
            if image.format == "JPEG":
                image.draft("RGB", (SIDE * 2, SIDE * 2))  # decode big photos scaled down
            image.load()
            upright = ImageOps.exif_transpose(image)
            pixels = upright.convert("RGBA")
    except PortraitError:
        raise
    except Image.DecompressionBombError as error:
        raise PortraitError(TOO_MANY_PIXELS) from error
    except UnidentifiedImageError as error:
        # Pillow says the same of a stranger and of a PNG cut short: tell them apart.
        raise PortraitError(DAMAGED if _looks_like_one(data) else NOT_AN_IMAGE) from error
    except Exception as error:  # noqa: BLE001 - any decoding failure is a damaged file
        raise PortraitError(DAMAGED) from error
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
