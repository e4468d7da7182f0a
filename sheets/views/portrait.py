"""A character's portrait: served to whoever may see the sheet (a hidden GM character's
only to GMs: the same gate as the sheet, sheets.permissions), uploaded or removed by the
sheet's player or a GM. Without an upload it is the name's initials, drawn as SVG, so a
card or a list can always point at the same address."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_POST

from ..models import SheetPortrait
from ..permissions import get_sheet_for_editor, get_sheet_for_user, login_required_htmx
from ..portraits import MAX_BYTES, PortraitError, initials_svg, verify

EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}


@login_required_htmx
@require_GET
def portrait(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, _membership, _can_edit = get_sheet_for_user(request.user, campaign_id, sheet_id)
    stored = SheetPortrait.objects.filter(sheet=sheet).first()
    if stored is None:
        response = HttpResponse(initials_svg(sheet.name), content_type="image/svg+xml")
        filename = "initials.svg"
    else:
        response = HttpResponse(bytes(stored.data), content_type=stored.content_type)
        filename = f"portrait.{EXTENSIONS[stored.content_type]}"
    # Shown as an image only: never sniffed as another type, never run as a document
    # (an SVG opened on its own gets no script and no origin), kept per user briefly.
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    response["Cache-Control"] = "private, max-age=60"
    response["Cross-Origin-Resource-Policy"] = "same-origin"
    return response


@login_required_htmx
@require_POST
def portrait_upload(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet, _membership = get_sheet_for_editor(request.user, campaign_id, sheet_id)
    if request.POST.get("remove"):
        SheetPortrait.objects.filter(sheet=sheet).delete()
        messages.success(request, "Portrait removed: the card shows the initials again.")
        return redirect(sheet.get_absolute_url())
    upload = request.FILES.get("portrait")
    try:
        if upload is None:
            raise PortraitError("Choose an image file.")
        if upload.size > MAX_BYTES:
            raise PortraitError("A portrait may be at most 1 MB.")
        data = upload.read(MAX_BYTES + 1)
        found = verify(data)
    except PortraitError as error:
        messages.error(request, f"Portrait not saved: {error}")
        return redirect(sheet.get_absolute_url())
    SheetPortrait.objects.update_or_create(
        sheet=sheet,
        defaults={
            "data": data,
            "content_type": found.content_type,
            "width": found.width,
            "height": found.height,
        },
    )
    messages.success(request, "Portrait saved.")
    return redirect(sheet.get_absolute_url())
