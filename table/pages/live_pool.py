"""The GM's controls on a player's pool in progress (table.pools.live_pool): add one of the
offered dice to the roll, or take it back. GMs only; the answer is the GM's card."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.permissions import get_campaign_for_user
from sheets.models import Sheet
from table.pages.support import error_text, spend
from table.pools import live_pool
from table.writing.actions import ActionError


@login_required
@require_POST
def live_pool_change(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM adds to a player's pool.")
    sheet = Sheet.objects.filter(campaign=campaign, pk=sheet_id, kind=Sheet.Kind.PC).first()
    if sheet is None:
        raise Http404("No such character")
    key = str(request.POST.get("die", ""))[:200]
    error = ""
    try:
        spend(campaign, request.user)
        if request.POST.get("op") == "remove":
            live_pool.remove(campaign, sheet, key)
        else:
            live_pool.add(campaign, sheet, key)
    except (ActionError, live_pool.NotBuilding) as exc:
        error = error_text(exc)
    if not request.htmx:
        return redirect("table", campaign.pk)
    record = live_pool.current(campaign.pk, sheet.pk)
    context = {
        "campaign": campaign,
        "sheet_id": sheet.pk,
        "slot": record,
        "gm": True,
        "options": live_pool.options_for(campaign, sheet) if record else [],
        "note": campaign.game.ui.additions.note,
        "error": error,
    }
    return render(request, "table/_live_pool.html", context)
