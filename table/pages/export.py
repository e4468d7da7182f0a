"""Export a scene or a session of the table log, and show whether the log verifies.

Any member may export: the file holds only what that member may see (GMs
everything; players and observers the public events and reveals).
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaigns.models import Scene
from campaigns.permissions import get_campaign_for_gm, get_campaign_for_user
from rules.kit.table import MAX_ID
from table.reading.export import NoSuchSession, export_data, to_json, to_markdown, verify

FORMATS = {"md": "text/markdown; charset=utf-8", "json": "application/json"}


def _respond(data: dict, fmt: str, name: str) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404("Export as .md or .json")
    body = to_markdown(data) if fmt == "md" else to_json(data)
    response = HttpResponse(body, content_type=FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "log"}.{fmt}"'
    return response  # never stored: rollcall.middleware.PrivateAnswersMiddleware


@login_required
@require_GET
def export_scene(request: HttpRequest, campaign_id: int, scene_id: int, fmt: str) -> HttpResponse:
    if max(campaign_id, scene_id) > MAX_ID:
        raise Http404("No such scene")
    campaign, _ = get_campaign_for_user(request.user, campaign_id)
    scene = get_object_or_404(Scene, campaign=campaign, pk=scene_id)
    data = export_data(campaign, request.user, scene=scene)
    return _respond(data, fmt, f"{campaign.name} {scene.title}")


@login_required
@require_GET
def export_session(request: HttpRequest, campaign_id: int, day: str, fmt: str) -> HttpResponse:
    """`day`: "current", a session number, or a date (YYYY-MM-DD); see export.session_span."""
    if campaign_id > MAX_ID:
        raise Http404("No such campaign")
    campaign, _ = get_campaign_for_user(request.user, campaign_id)
    which: str | int | dt.date
    if day == "current":
        which = day
    elif day.isascii() and day.isdigit() and len(day) <= 6:
        which = int(day)
    else:
        try:
            which = dt.date.fromisoformat(day)
        except ValueError:
            raise Http404("A session is “current”, its number, or a date: YYYY-MM-DD") from None
        if which >= dt.date.max:  # its day would end past the last date Python holds
            raise Http404("No session was played on that day")
    try:
        data = export_data(campaign, request.user, session=which)
    except NoSuchSession as error:
        raise Http404(str(error)) from None
    return _respond(data, fmt, f"{campaign.name} {data['title']}")


@login_required
@require_GET
def verify_view(request: HttpRequest, campaign_id: int) -> JsonResponse:
    """GMs: {"ok", "checked", "first_bad_seq", "problem", "text"} for a "log verified" badge."""
    if campaign_id > MAX_ID:
        raise Http404("No such campaign")
    campaign, _ = get_campaign_for_gm(request.user, campaign_id)
    verdict = verify(campaign)
    return JsonResponse(
        {
            "ok": verdict.ok,
            "checked": verdict.checked,
            "first_bad_seq": verdict.first_bad_seq,
            "problem": verdict.problem,
            "text": str(verdict),
        }
    )
