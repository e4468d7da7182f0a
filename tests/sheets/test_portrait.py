"""Portraits: only PNG, JPEG or WebP of at most 1 MB, recognised from their bytes; uploaded
by the sheet's player or a GM only; served as images with safe headers to whoever may see
the sheet (a hidden GM character's to GMs only); initials when there is none."""

from __future__ import annotations

import struct
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sheets.models import Sheet, SheetPortrait
from sheets.portraits import MAX_BYTES, PortraitError, initials, verify
from sheets.services import create_sheet


def png(width: int = 2, height: int = 2) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80\x20\x20" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def jpeg(width: int = 3, height: int = 5) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def webp(width: int = 7, height: int = 9) -> bytes:
    body = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00"
    body += (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", len(body) + 4) + b"WEBP" + body


@pytest.mark.parametrize(
    ("data", "kind", "size"),
    [
        (png(2, 2), "image/png", (2, 2)),
        (jpeg(3, 5), "image/jpeg", (3, 5)),
        (webp(7, 9), "image/webp", (7, 9)),
    ],
)
def test_the_three_image_types_are_recognised_from_their_bytes(data, kind, size):
    found = verify(data)
    assert (found.content_type, (found.width, found.height)) == (kind, size)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "Choose an image"),
        (b"GIF89a" + b"\x00" * 40, "PNG, JPEG or WebP"),
        (
            b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
            "PNG, JPEG or WebP",
        ),
        (b"<html><script>alert(1)</script></html>", "PNG, JPEG or WebP"),
        (png()[:20], "damaged"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "damaged"),
        (webp()[:-3], "damaged"),
        (png(5000, 10), "4096 pixels"),
        (png() + b"\x00" * MAX_BYTES, "1 MB"),
    ],
)
def test_anything_else_is_refused_with_a_reason(data, words):
    with pytest.raises(PortraitError, match=words):
        verify(data)


def test_initials():
    assert initials("Malcolm Reynolds") == "MR"
    assert initials("Kaylee") == "K"
    assert initials("  ") == "?"


@pytest.fixture
def sheets(campaign, player):
    pc = create_sheet(campaign, name="Mal Reynolds <script>", kind="pc", owner=player)
    npc = create_sheet(campaign, name="Niska", kind="npc")
    Sheet.objects.filter(pk=npc.pk).update(hidden=True)
    return {"pc": pc, "npc": npc}


def _upload(client, sheet, data, name="face.png"):
    url = reverse("sheet_portrait_upload", args=[sheet.campaign_id, sheet.pk])
    return client.post(url, {"portrait": SimpleUploadedFile(name, data, content_type="image/png")})


def _get(client, sheet):
    return client.get(reverse("sheet_portrait", args=[sheet.campaign_id, sheet.pk]))


@pytest.mark.django_db
def test_without_an_upload_the_portrait_is_the_initials(client_for, player, sheets):
    answer = _get(client_for(player), sheets["pc"])
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/svg+xml"
    body = answer.content.decode()
    assert ">MR</text>" in body and "<script" not in body
    assert "sandbox" in answer["Content-Security-Policy"]


@pytest.mark.django_db
def test_the_owner_uploads_and_every_member_sees_it(client_for, player, observer, gm, sheets):
    data = jpeg()
    answer = _upload(client_for(player), sheets["pc"], data, name="face.png")
    assert answer.status_code == 302
    stored = SheetPortrait.objects.get(sheet=sheets["pc"])
    assert stored.content_type == "image/jpeg"  # from the bytes, not the name or the browser
    for user in (observer, gm):
        served = _get(client_for(user), sheets["pc"])
        assert served.status_code == 200
        assert served.content == data
        assert served["Content-Type"] == "image/jpeg"
        assert served["X-Content-Type-Options"] == "nosniff"
        assert served["Content-Disposition"] == 'inline; filename="portrait.jpg"'
        assert "private" in served["Cache-Control"]


@pytest.mark.django_db
def test_a_refused_upload_keeps_the_old_portrait_and_says_why(client_for, player, sheets):
    client = client_for(player)
    _upload(client, sheets["pc"], png())
    answer = _upload(client, sheets["pc"], b"<svg><script>alert(1)</script></svg>", name="x.png")
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Portrait not saved: A portrait must be a PNG, JPEG or WebP image." in page
    assert SheetPortrait.objects.get(sheet=sheets["pc"]).content_type == "image/png"


@pytest.mark.django_db
def test_only_the_owner_or_a_gm_may_upload(
    client_for, sheets, gm, observer, outsider, make_user, campaign
):
    from campaigns.models import Membership, Role

    other = make_user("paula", "Paula")
    Membership.objects.create(campaign=campaign, user=other, role=Role.PLAYER)
    assert _upload(client_for(other), sheets["pc"], png()).status_code == 403
    assert _upload(client_for(observer), sheets["pc"], png()).status_code == 403
    assert _upload(client_for(outsider), sheets["pc"], png()).status_code == 404
    assert not SheetPortrait.objects.exists()
    assert _upload(client_for(gm), sheets["pc"], png()).status_code == 302
    assert SheetPortrait.objects.filter(sheet=sheets["pc"]).exists()
    remove = reverse("sheet_portrait_upload", args=[campaign.pk, sheets["pc"].pk])
    assert client_for(other).post(remove, {"remove": "1"}).status_code == 403
    assert client_for(gm).post(remove, {"remove": "1"}).status_code == 302
    assert not SheetPortrait.objects.exists()


@pytest.mark.django_db
def test_a_hidden_gm_characters_portrait_is_for_gms_only(client_for, gm, player, outsider, sheets):
    assert _upload(client_for(gm), sheets["npc"], png()).status_code == 302
    assert _get(client_for(gm), sheets["npc"]).status_code == 200
    assert _get(client_for(player), sheets["npc"]).status_code == 404
    assert _get(client_for(outsider), sheets["pc"]).status_code == 404
    assert _get(client_for(None), sheets["pc"]).status_code == 302
