"""A character's portrait: served to whoever may see the sheet (a hidden GM character's
only to GMs: the same gate as the sheet, sheets.permissions), uploaded or removed by the
sheet's player or a GM. Without an upload it is the name's initials, drawn as SVG, so a
card or a list can always point at the same address."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_POST

from ..models import Sheet, SheetPortrait
from ..permissions import get_sheet_for_editor, get_sheet_for_user, login_required_htmx
from ..portraits import (
    MAX_BYTES,
    TOO_BIG,
    PortraitError,
    initials_svg,
    normalise,
    remove_portrait,
    save_portrait,
)


def _etag(sheet: Sheet) -> str:
    """Changes with every upload or removal (portrait_version) and with the name (the
    initials), so the browser asks again each time and gets 304 while nothing changed."""
    tag = f"{sheet.pk}|{sheet.portrait_version}|{sheet.name}"
    return '"' + hashlib.sha256(tag.encode()).hexdigest()[:24] + '"'


def _as_image(response: HttpResponse, filename: str, etag: str) -> HttpResponse:
    # Shown as an image only: never sniffed as another type, never run as a document
    # (an SVG opened on its own gets no script and no origin), never kept on the device
    # (a hidden character's face is the GM's secret; rollcall.middleware says the same of
    # every signed-in answer); the ETag spares the bytes to a client that asks again.
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    response["Cross-Origin-Resource-Policy"] = "same-origin"
    response["Cache-Control"] = "private, no-store"
    response["ETag"] = etag
    return response


@login_required_htmx
@require_GET
def portrait(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, _membership, _can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
    etag = _etag(sheet)
    if etag in request.headers.get("If-None-Match", ""):
        return _as_image(HttpResponseNotModified(), "portrait", etag)
    stored = None
    if sheet.portrait_version:
        stored = SheetPortrait.objects.filter(sheet=sheet).values_list("data", flat=True).first()
    if stored is None:
        answer = HttpResponse(initials_svg(sheet.name), content_type="image/svg+xml")
        return _as_image(answer, "initials.svg", etag)
    return _as_image(HttpResponse(bytes(stored), content_type="image/webp"), "portrait.webp", etag)


@login_required_htmx
@require_POST
def portrait_upload(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    """A refused upload changes nothing and says why on the sheet page."""
    sheet, _membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    upload = request.FILES.get("portrait")
    try:
        if upload is None:
            raise PortraitError("Choose an image file.")
        if upload.size > MAX_BYTES:
            raise PortraitError(TOO_BIG)
        picture = normalise(upload.read(MAX_BYTES + 1))
    except PortraitError as error:
        messages.error(request, f"Portrait not saved: {error}")
        return redirect(sheet.get_absolute_url())
    save_portrait(sheet, picture)
    messages.success(request, "Portrait saved.")
    return redirect(sheet.get_absolute_url())


@login_required_htmx
@require_POST
def portrait_remove(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, _membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    if remove_portrait(sheet):
        messages.success(request, "Portrait removed: the initials show instead.")
    return redirect(sheet.get_absolute_url())
