"""Portraits: only PNG, JPEG or WebP that Pillow decodes whole, at most 2 MB and 16
megapixels, kept as a fresh 256×256 WebP (nothing of the upload is served); uploaded by
the sheet's player or a GM only; served as images with safe headers to whoever may see
the sheet (a hidden GM character's to GMs only, exactly as a missing one to players);
initials when there is none."""

from __future__ import annotations

import functools
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse
from PIL import Image, PngImagePlugin

from sheets import portraits
from sheets.models import Sheet, SheetPortrait
from sheets.portraits import (
    DECODE_BUDGET,
    MAX_BYTES,
    PortraitError,
    decode_cost,
    initials,
    normalise,
)
from sheets.services import add_trait, create_sheet
from table.reading.rendering import render_event_html
from table.writing import actions

MARKER = "GPS 51.4778N 0.0015W, kept secret"


def picture(fmt: str, size=(40, 30), colour="#884422", mode="RGB", **save) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, colour).save(out, fmt, **save)
    return out.getvalue()


def with_exif(fmt: str, size=(60, 20), orientation: int = 6) -> bytes:
    """An image carrying EXIF (a rotation and a description) and, for PNG, a text chunk."""
    exif = Image.Exif()
    exif[0x0112] = orientation  # rotated 90°: shown upright, the picture is taller than wide
    exif[0x010E] = MARKER  # ImageDescription
    save = {"exif": exif.tobytes()}
    if fmt == "PNG":
        info = PngImagePlugin.PngInfo()
        info.add_text("Comment", MARKER)
        save["pnginfo"] = info
    return picture(fmt, size, **save)


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# ---------------------------------------------------------------------- what is accepted


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_the_three_image_types_become_a_256_webp(fmt):
    kept = decoded(normalise(picture(fmt, (300, 120))))
    assert (kept.format, kept.size) == ("WEBP", (256, 256))


def test_the_centre_of_a_wide_picture_is_kept():
    wide = Image.new("RGB", (300, 100), "#0000ff")
    wide.paste(Image.new("RGB", (100, 100), "#ff0000"), (100, 0))  # red centre, blue sides
    out = io.BytesIO()
    wide.save(out, "PNG")
    kept = decoded(normalise(out.getvalue())).convert("RGB")
    for x in (2, 128, 253):
        red, _green, blue = kept.getpixel((x, 128))
        assert red > 200 and blue < 50, (x, kept.getpixel((x, 128)))


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_exif_turns_the_picture_upright_and_is_never_served(fmt):
    upload = with_exif(fmt)
    assert MARKER.encode() in upload
    kept = normalise(upload)
    assert MARKER.encode() not in kept
    image = decoded(kept)
    assert not image.getexif() and "exif" not in image.info and "Comment" not in image.info


def test_exif_orientation_is_applied():
    """Red above blue, with EXIF saying "turn it a quarter": upright, they sit side by side."""
    source = Image.new("RGB", (60, 60), "#0000ff")
    source.paste(Image.new("RGB", (60, 30), "#ff0000"), (0, 0))
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    source.save(out, "PNG", exif=exif.tobytes())
    kept = decoded(normalise(out.getvalue())).convert("RGB")

    def colour(x, y):
        red, _green, blue = kept.getpixel((x, y))
        return "red" if red > blue else "blue"

    # columns of one colour, not rows
    assert colour(40, 40) == colour(40, 215) != colour(215, 40) == colour(215, 215)


# ---------------------------------------------------------------------- what is refused


def truncated_png() -> bytes:
    noisy = Image.effect_noise((200, 200), 64).convert("RGB")
    out = io.BytesIO()
    noisy.save(out, "PNG")
    whole = out.getvalue()
    return whole[: len(whole) * 2 // 3]


def huge_png() -> bytes:
    # 8000×8000 one-bit pixels: a tiny file that would decode to 64 megapixels
    return picture("PNG", (8000, 8000), mode="1", colour=1)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "Choose an image file."),
        (picture("GIF"), "must be a PNG, JPEG or WebP image"),
        (picture("BMP"), "must be a PNG, JPEG or WebP image"),
        (b"Just some notes, saved as face.png\n" * 3, "must be a PNG, JPEG or WebP image"),
        (
            b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
            "must be a PNG, JPEG or WebP image",
        ),
        (truncated_png(), "damaged or incomplete"),
        (picture("PNG")[:40], "damaged or incomplete"),
        (huge_png(), "at most 16 megapixels"),
        (picture("PNG") + b"\x00" * MAX_BYTES, "at most 2 MB"),
    ],
    ids=["empty", "gif", "bmp", "text", "svg", "truncated", "header only", "huge", "2 MB"],
)
def test_anything_else_is_refused_with_a_reason(data, words):
    with pytest.raises(PortraitError, match=words):
        normalise(data)


def test_a_decompression_bomb_is_refused_before_it_is_decoded():
    """A PNG header claiming 100000×100000 pixels: Pillow refuses it on opening."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    header = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    bomb = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 1000))
        + chunk(b"IEND", b"")
    )
    with pytest.raises(PortraitError, match="at most 16 megapixels"):
        normalise(bomb)


@functools.cache
def png_of(width: int, height: int, depth: int, colour_type: int, channels: int) -> bytes:
    """A PNG written by hand, rows of zeros (Pillow writes no 16-bit colour PNG)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    row = b"\x00" * (1 + width * channels * depth // 8)
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def test_a_small_file_of_costly_pixels_is_refused_before_it_is_decoded():
    """121 KB of 4000×4000 16-bit RGBA: inside 2 MB and 16 megapixels, but more memory to
    decode than a portrait may take. The refusal says how much, and what to do."""
    costly = png_of(4000, 4000, 16, 6, 4)
    assert len(costly) < MAX_BYTES
    with pytest.raises(PortraitError) as refusal:
        normalise(costly)
    words = str(refusal.value)
    assert "too large to read" in words and "MB of memory" in words
    assert "Make it smaller" in words and "JPEG" in words
    assert decode_cost("PNG", "RGBA", (4000, 4000)) > DECODE_BUDGET


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (png_of(2000, 2000, 16, 6, 4), (256, 256)),  # 16-bit colour, 4 megapixels
        (picture("PNG", (1200, 900), mode="I;16", colour=40000), (256, 256)),  # 16-bit grey
        (picture("PNG", (1800, 1400), mode="P", colour=3), (256, 256)),  # a palette
        (picture("JPEG", (5600, 2800)), (256, 256)),  # a big photo, read scaled down
    ],
    ids=["16-bit colour", "16-bit grey", "palette", "big JPEG"],
)
def test_pictures_within_the_budget_are_kept(data, size):
    assert decoded(normalise(data)).size == size


def hold_every_turn() -> int:
    """Take every decoding turn the process has; how many there were."""
    held = 0
    while portraits.decode_turns.acquire(blocking=False):
        held += 1
    return held


def give_back(held: int) -> None:
    for _ in range(held):
        portraits.decode_turns.release()


def test_a_refused_upload_gives_its_turn_back(settings):
    settings.PORTRAIT_DECODE_WAIT = 0
    for data in (truncated_png(), huge_png(), png_of(4000, 4000, 16, 6, 4), picture("GIF")):
        with pytest.raises(PortraitError):
            normalise(data)
    held = hold_every_turn()
    give_back(held)
    assert held == settings.PORTRAIT_DECODES


def test_initials():
    assert initials("Malcolm Reynolds") == "MR"
    assert initials("Kaylee") == "K"
    assert initials("  ") == "?"


# ---------------------------------------------------------------------- through the views


@pytest.fixture
def sheets(campaign, player):
    pc = create_sheet(campaign, name="Mal Reynolds <script>", kind="pc", owner=player)
    npc = create_sheet(campaign, name="Niska", kind="npc")
    Sheet.objects.filter(pk=npc.pk).update(hidden=True)
    return {"pc": pc, "npc": npc}


def _upload(client, sheet, data, name="face.png"):
    url = reverse("sheet_portrait_upload", args=[sheet.campaign_id, sheet.pk])
    return client.post(url, {"portrait": SimpleUploadedFile(name, data, content_type="image/png")})


def _get(client, sheet, **headers):
    return client.get(reverse("sheet_portrait", args=[sheet.campaign_id, sheet.pk]), **headers)


@pytest.mark.django_db
def test_without_an_upload_the_portrait_is_the_initials(client_for, player, sheets):
    answer = _get(client_for(player), sheets["pc"])
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/svg+xml"
    body = answer.content.decode()
    assert ">MR</text>" in body and "<script" not in body
    assert "sandbox" in answer["Content-Security-Policy"]
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert answer["Content-Disposition"] == 'inline; filename="initials.svg"'


@pytest.mark.django_db
def test_the_owner_uploads_and_every_member_sees_it(client_for, player, observer, gm, sheets):
    pc, client = sheets["pc"], client_for(player)
    page = client.get(pc.get_absolute_url()).content.decode()
    assert 'accept="image/png,image/jpeg,image/webp"' in page and "Remove portrait" not in page
    answer = _upload(client, pc, with_exif("JPEG"), name="face.png")
    assert answer.status_code == 302
    pc.refresh_from_db()
    assert pc.portrait_version == 1
    for user in (observer, gm):
        served = _get(client_for(user), pc)
        assert served.status_code == 200
        assert served["Content-Type"] == "image/webp"
        assert decoded(served.content).size == (256, 256)
        assert MARKER.encode() not in served.content
        assert served["X-Content-Type-Options"] == "nosniff"
        assert served["Content-Disposition"] == 'inline; filename="portrait.webp"'
        assert "private" in served["Cache-Control"]
        again = _get(client_for(user), pc, HTTP_IF_NONE_MATCH=served["ETag"])
        assert again.status_code == 304
    page = client.get(pc.get_absolute_url()).content.decode()
    assert "Portrait saved." in page and "Remove portrait" in page
    assert "/portrait/?v=1" in page


@pytest.mark.django_db
def test_while_every_turn_is_taken_an_upload_is_told_to_try_again(client_for, player, sheets):
    """Uploads decoded at once are bounded per process: one that finds no free turn
    within PORTRAIT_DECODE_WAIT is refused with "busy, try again", and changes nothing."""
    pc, client = sheets["pc"], client_for(player)
    held = hold_every_turn()
    try:
        with override_settings(PORTRAIT_DECODE_WAIT=0):
            answer = _upload(client, pc, picture("PNG"))
    finally:
        give_back(held)
    assert held >= 1
    page = client.get(answer["Location"]).content.decode()
    assert "Portrait not saved: The server is busy reading other portraits: try again" in page
    assert not SheetPortrait.objects.filter(sheet=pc).exists()
    assert _upload(client, pc, picture("PNG")).status_code == 302
    assert SheetPortrait.objects.filter(sheet=pc).exists()


@pytest.mark.django_db
def test_a_new_upload_of_the_same_file_is_a_new_version(client_for, player, sheets):
    """Each upload is a change: the address (?v=) and the ETag move on, so it shows at once."""
    pc, client = sheets["pc"], client_for(player)
    data = picture("PNG")
    _upload(client, pc, data)
    first = _get(client, pc)["ETag"]
    _upload(client, pc, data)
    pc.refresh_from_db()
    assert pc.portrait_version == 2
    assert _get(client, pc, HTTP_IF_NONE_MATCH=first).status_code == 200


@pytest.mark.django_db
def test_a_refused_upload_keeps_the_old_portrait_and_says_why(client_for, player, sheets):
    pc, client = sheets["pc"], client_for(player)
    _upload(client, pc, picture("PNG"))
    kept = bytes(SheetPortrait.objects.get(sheet=pc).data)
    answer = _upload(client, pc, b"<svg><script>alert(1)</script></svg>", name="x.png")
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Portrait not saved: A portrait must be a PNG, JPEG or WebP image." in page
    assert bytes(SheetPortrait.objects.get(sheet=pc).data) == kept
    pc.refresh_from_db()
    assert pc.portrait_version == 1


@pytest.mark.django_db
def test_only_the_owner_or_a_gm_may_upload(client_for, sheets, gm, observer, outsider, make_user):
    from campaigns.models import Membership, Role

    pc = sheets["pc"]
    other = make_user("paula", "Paula")
    Membership.objects.create(campaign=pc.campaign, user=other, role=Role.PLAYER)
    assert _upload(client_for(other), pc, picture("PNG")).status_code == 403
    assert _upload(client_for(observer), pc, picture("PNG")).status_code == 403
    assert _upload(client_for(outsider), pc, picture("PNG")).status_code == 404
    assert _upload(client_for(None), pc, picture("PNG")).status_code == 302
    assert not SheetPortrait.objects.exists()
    assert _upload(client_for(gm), pc, picture("PNG")).status_code == 302
    assert SheetPortrait.objects.filter(sheet=pc).exists()
    remove = reverse("sheet_portrait_remove", args=[pc.campaign_id, pc.pk])
    assert client_for(other).post(remove).status_code == 403
    assert SheetPortrait.objects.exists()
    assert client_for(gm).post(remove).status_code == 302
    assert not SheetPortrait.objects.exists()
    assert _get(client_for(other), pc)["Content-Type"] == "image/svg+xml"


def _without_csrf(page: bytes) -> bytes:
    """A page with its CSRF token (masked afresh for every answer) blanked out."""
    return re.sub(
        rb'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[A-Za-z0-9]+', rb"\1", page
    )


@pytest.mark.django_db
def test_a_hidden_gm_characters_portrait_is_as_missing_as_no_sheet(
    client_for, gm, player, outsider, sheets
):
    npc = sheets["npc"]
    assert _upload(client_for(gm), npc, picture("PNG")).status_code == 302
    assert _get(client_for(gm), npc)["Content-Type"] == "image/webp"
    hidden = _get(client_for(player), npc)
    missing = client_for(player).get(reverse("sheet_portrait", args=[npc.campaign_id, 999999]))
    assert hidden.status_code == missing.status_code == 404
    assert _without_csrf(hidden.content) == _without_csrf(missing.content)
    assert hidden["Content-Type"] == missing["Content-Type"]
    assert _upload(client_for(player), npc, picture("PNG")).status_code == 404
    assert _get(client_for(outsider), sheets["pc"]).status_code == 404
    assert _get(client_for(None), sheets["pc"]).status_code == 302


@pytest.mark.django_db
def test_the_lists_and_the_roll_card_point_at_the_portrait(client_for, gm, player, sheets):
    pc = sheets["pc"]
    address = reverse("sheet_portrait", args=[pc.campaign_id, pc.pk])
    listing = client_for(player).get(reverse("sheet_list", args=[pc.campaign_id])).content
    assert f'src="{address}?v=0" alt=""'.encode() in listing
    table = client_for(player).get(reverse("table", args=[pc.campaign_id])).content.decode()
    assert f'<img class="avatar" src="{address}?v=0" alt=""' in table
    add_trait(pc, "stylins", {"name": "Fightin'", "die": "d8"}, {})
    event = actions.perform(
        pc.campaign, player, "roll", {"pool": [{"die": "d8", "trait": "Fightin'", "group": "stylins"}]},
        sheet_id=pc.pk,
    )  # fmt: skip
    card = render_event_html(event, "players")
    assert f'<img class="avatar" src="{address}" alt=""' in card
