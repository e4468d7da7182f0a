"""The chat line without the socket: the same "say" as the socket's (table.talk.chat), for a
page without JavaScript, or whose socket is not open."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.html import escape
from django.views.decorators.http import require_POST

from campaigns.permissions import get_campaign_for_player
from table.pages.support import error_text, spend
from table.reading.rendering import notice_html
from table.talk import chat
from table.writing.actions import ActionError


@login_required
@require_POST
def say(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, _ = get_campaign_for_player(request.user, campaign_id)
    mode, sheet_id = chat.speaker(request.POST)
    error = ""
    try:
        spend(campaign, request.user)
        text, to = request.POST.get("text"), chat.to_of(request.POST)
        chat.say(campaign.pk, request.user, mode, text, sheet_id=sheet_id, to=to)
    except ActionError as exc:
        error = error_text(exc)
    if request.htmx:
        return HttpResponse(notice_html("error" if error else "ok", error or "Sent."))
    if error:
        return HttpResponse(
            f"<!doctype html><title>Not sent</title><p>{escape(error)}</p>"
            f'<p><a href="/c/{campaign.pk}/table/">Back to the table</a></p>',
            status=400,
        )
    return redirect("table", campaign.pk)
