"""The action order's form (the tracker in the scene panel, table/pages/order_panel.py): one
view for its moves, each a logged action through table.writing.actions, answered with the scene
panel as the panel's other forms are."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.permissions import get_campaign_for_player
from rules.kit import order as rules_order
from rules.kit.errors import RulesError
from table.pages.scene_panel import panel_context
from table.pages.support import error_text, spend, whole_number
from table.writing import actions

GM_SIDE_ID = 0  # the GM's side in the forms (it has no sheet)


def _sheet_list(values: list[str]) -> list[int]:
    ids = [whole_number(v, digits=18) for v in values[: rules_order.MAX_PARTICIPANTS + 1]]
    return [i for i in ids if i is not None]


@login_required
@require_POST
def order_move(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Start, pass, add to, remove from or end the scene's action order."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    data = request.POST
    op = str(data.get("op", ""))
    req: dict[str, Any] = {}
    if op == "start":
        ids = _sheet_list(data.getlist("sheets"))
        req = {"sheets": [i for i in ids if i != GM_SIDE_ID], "gm_side": "gm_side" in data}
        first = whole_number(data.get("first"), digits=18)
        if first is not None:
            req["first"] = first
        if data.get("by"):
            req["by"] = str(data.get("by"))[:40]
    elif op == "pass":
        to = whole_number(data.get("to"), digits=6)
        req = {"to": to} if to is not None else {}
    elif op == "add":
        sheet = whole_number(data.get("sheet"), digits=18)
        req = {"gm_side": True} if sheet == GM_SIDE_ID else {"sheet": sheet}
    elif op == "remove":
        req = {"slot": whole_number(data.get("slot"), digits=6)}
    elif op != "end":
        op = ""
    message, error = "", ""
    if not op:
        error = "Choose what to do with the action order."
    else:
        try:
            spend(campaign, request.user)
            event = actions.perform(campaign, request.user, f"order_{op}", req)
            message = event.headline
        except (actions.ActionError, RulesError) as exc:
            error = error_text(exc)
    if not request.htmx:
        return redirect("table", campaign.pk)
    context = {**panel_context(campaign, membership), "message": message, "error": error}
    return render(request, "table/page.html#scene-panel", context)
