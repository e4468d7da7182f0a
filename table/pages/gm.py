"""The GM dashboard's views: scenes and sessions, opposition rolls, the game's own tools
(its TOOLS), points, and the GM's buttons on a roll card (reveal, void, the game's quick
actions).

Each is GM-only and answers with the page's `gm-result` partial (table/page.html);
like every table view it only reads the form and calls `table.writing.actions`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns import services
from campaigns.locking import Busy, retry_conflicts
from campaigns.models import Campaign, Membership, Scene
from campaigns.permissions import get_campaign_for_user
from rules.kit.errors import RulesError
from sheets.models import Sheet
from table.models import Kind, TableEvent
from table.pages.forms import GmPoolForm
from table.pages.support import error_text, sheet_id_of, small_int, spend
from table.writing import actions


def _gm(request: HttpRequest, campaign_id: int) -> tuple[Campaign, Membership]:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM can do that.")
    return campaign, membership


def _gm_done(
    request: HttpRequest, campaign: Campaign, membership: Membership, message: str, error: str
) -> HttpResponse:
    if not request.htmx:
        return redirect("table", campaign.pk)
    context = {"message": message, "error": error, "campaign": campaign, "membership": membership}
    return render(request, "table/page.html#gm-result", context)


# --------------------------------------------------------------------------- a roll card's buttons


@login_required
@require_POST
def event_reveal(request: HttpRequest, campaign_id: int, event_id: int) -> HttpResponse:
    campaign, membership = _gm(request, campaign_id)
    try:
        spend(campaign, request.user)
        event = actions.reveal(campaign, request.user, event_id)
        return _gm_done(request, campaign, membership, event.headline, "")
    except actions.ActionError as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))


@login_required
@require_POST
def event_void(request: HttpRequest, campaign_id: int, event_id: int) -> HttpResponse:
    campaign, membership = _gm(request, campaign_id)
    try:
        spend(campaign, request.user)
        event = actions.void(campaign, request.user, event_id, request.POST.get("reason", ""))
        left = event.outcome.get("not_undone") or []
        message = event.headline + (". Not undone: " + " ".join(left) if left else ".")
        return _gm_done(request, campaign, membership, message, "")
    except actions.ActionError as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))


@login_required
@require_POST
def quick_action(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """The GM's buttons on a roll card, as the game declares them (its UI's card_actions).
    Each is one table.writing.actions.perform call."""
    campaign, membership = _gm(request, campaign_id)
    game = campaign.game
    read = game.ui.card_actions.get(action_name)
    if read is None or action_name not in game.actions:
        raise Http404("No such action")
    data = request.POST
    sheet_id = sheet_id_of(data)
    req = read(data)
    try:
        spend(campaign, request.user)
        event = actions.perform(campaign, request.user, action_name, req, sheet_id=sheet_id)
        return _gm_done(request, campaign, membership, event.headline, "")
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))


# --------------------------------------------------------------------------- opposition and the game's tools


def gm_roll_request(campaign: Campaign, form) -> tuple[str, dict[str, Any]]:
    """The opposition roll from the GM pool form, as the game declares it (its UI's
    opposition): named dice in a pool, or a rating."""
    roll = campaign.game.ui.opposition
    if roll.fields == "dice":
        dice = form.cleaned_data["dice"]
        if not dice:
            raise ValueError(roll.nothing_to_roll())
        return roll.action, {"pool": [{**d, "group": roll.group} for d in dice]}
    if roll.fields != "rating":
        raise ValueError("This game has no opposition roll on the dashboard.")
    skill = form.cleaned_data.get("skill") or 0
    attribute = form.cleaned_data.get("attribute")
    if attribute is None:
        raise ValueError(roll.nothing_to_roll())
    if roll.refusal:
        raise ValueError(roll.refusal)
    name = form.cleaned_data.get("name") or "Opposition"
    return roll.action, {
        "name": name[:60],
        **roll.extra,
        "attribute": max(attribute, 1),
        "skill": skill,
    }


@login_required
@require_POST
def gm_roll(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Roll opposition (a situation pool, a GM difficulty pool, a GM task), public or secret."""
    campaign, membership = _gm(request, campaign_id)
    form = GmPoolForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(e for field in form.errors.values() for e in field)
        return _gm_done(request, campaign, membership, "", errors)
    try:
        name, req = gm_roll_request(campaign, form)
        spend(campaign, request.user)
        event = actions.perform(
            campaign, request.user, name, req, visibility=form.cleaned_data["visibility"]
        )
        return _gm_done(request, campaign, membership, event.headline, "")
    except ValueError as exc:
        return _gm_done(request, campaign, membership, "", str(exc))
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))


@login_required
@require_POST
def gm_tool(request: HttpRequest, campaign_id: int, address: str) -> HttpResponse:
    """A GM tool with a form of its own, at the address the game declares for it
    (rules.kit.tools.GmTool): the game reads the form into the action's request."""
    campaign, membership = _gm(request, campaign_id)
    tool = campaign.game.tools.tool_at(address)
    if tool is None or tool.action not in campaign.game.actions:
        raise Http404("No such tool")
    req = tool.read(request.POST)
    try:
        spend(campaign, request.user)
        event = actions.perform(campaign, request.user, tool.action, req)
        return _gm_done(request, campaign, membership, event.headline, "")
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))


# --------------------------------------------------------------------------- scenes and sessions


@login_required
@require_POST
def gm_scene(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Start a planned scene, end the running one, create and start a new one, or
    (op "session") mark a new session (table.writing.actions.session_started)."""
    campaign, membership = _gm(request, campaign_id)
    op = request.POST.get("op")
    try:
        spend(campaign, request.user)
        if op == "end":
            scene = campaign.active_scene
            if scene is None:
                raise services.CampaignError("No scene is running.")
            _ending(campaign, scene, request.user)
            message = f"“{scene.title}” has ended."
        elif op in ("start", "new"):
            if op == "new":
                title = str(request.POST.get("title", "")).strip()[:120]
                if not title:
                    raise services.CampaignError("Give the new scene a title.")
                scene = services.create_scene(
                    campaign,
                    title=title,
                    description=str(request.POST.get("description", ""))[:4000],
                )
            else:
                scene_id = small_int(request.POST.get("scene"))
                scene = Scene.objects.filter(campaign=campaign, pk=scene_id).first()
                if scene is None:
                    raise services.CampaignError("Choose a planned scene.")
            _starting(campaign, scene, request.user)
            message = f"“{scene.title}” is now the active scene."
        elif op == "session":
            message = actions.session_started(campaign, request.user).headline + "."
        else:
            raise services.CampaignError("Start or end a scene.")
    except (services.CampaignError, actions.ActionError, Busy) as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))
    if not request.htmx:
        return redirect("table", campaign.pk)
    response = render(
        request, "table/page.html#gm-result", {"message": message, "campaign": campaign}
    )
    response["HX-Refresh"] = "true"  # the whole page depends on the scene
    return response


@retry_conflicts
@transaction.atomic
def _starting(campaign: Campaign, scene: Scene, user) -> None:
    started, ended = services.start_scene(campaign, scene.pk)
    if ended is not None:
        _log_scene(campaign, ended, user, Kind.SCENE_END)
    _log_scene(campaign, started, user, Kind.SCENE_START)


@retry_conflicts
@transaction.atomic
def _ending(campaign: Campaign, scene: Scene, user) -> None:
    services.end_scene(campaign, scene.pk)
    _log_scene(campaign, scene, user, Kind.SCENE_END)


def _log_scene(campaign: Campaign, scene: Scene, user, kind: str) -> None:
    """Log a scene start or end once, whether or not campaigns.services already did."""
    if TableEvent.objects.filter(campaign=campaign, scene=scene, kind=kind).exists():
        return
    if kind == Kind.SCENE_START:
        actions.scene_started(campaign, scene, user)
    else:
        actions.scene_ended(campaign, scene, user)


# --------------------------------------------------------------------------- points


@login_required
@require_POST
def gm_plot_points(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Give (or take back) the game's points (its POINTS) outside a roll: the table
    action "give_points", logged with a card and voidable like any other."""
    campaign, membership = _gm(request, campaign_id)
    sheet = Sheet.objects.filter(campaign=campaign, pk=small_int(request.POST.get("sheet"))).first()
    amount = small_int(request.POST.get("amount")) or 0
    if sheet is None:
        return _gm_done(request, campaign, membership, "", "Choose a character.")
    if not -10 <= amount <= 10 or amount == 0:
        return _gm_done(
            request, campaign, membership, "", "Give between 1 and 10 (or take with a minus)."
        )
    try:
        spend(campaign, request.user)
        event = actions.perform(
            campaign,
            request.user,
            "give_points",
            {"amount": amount},
            sheet_id=sheet.pk,
            # A hidden GM character is not named to players.
            visibility="gm" if sheet.hidden else "public",
        )
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))
    one, many = campaign.game.points.one, campaign.game.points.many
    label = one if abs(amount) == 1 else many
    verb = "gets" if amount > 0 else "gives back"
    return _gm_done(
        request,
        campaign,
        membership,
        f"{sheet.name} {verb} {abs(amount)} {label} (now {event.outcome['now']}).",
        "",
    )


@login_required
@require_POST
def gm_plot_points_each(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Give points to every player character, or to those ticked, in one step: the
    table action "give_points_each", one card."""
    campaign, membership = _gm(request, campaign_id)
    sheets = Sheet.objects.filter(campaign=campaign)
    if request.POST.get("who") == "all":
        chosen = list(sheets.filter(kind=Sheet.Kind.PC, hidden=False).order_by("name"))
    else:
        ids = {small_int(v) for v in request.POST.getlist("sheets")} - {None}
        chosen = list(sheets.filter(pk__in=ids).order_by("name"))
    amount = small_int(request.POST.get("amount")) or 0
    if not chosen:
        return _gm_done(request, campaign, membership, "", "Tick at least one character.")
    if not 1 <= amount <= 10:
        return _gm_done(request, campaign, membership, "", "Give between 1 and 10 each.")
    try:
        spend(campaign, request.user)
        event = actions.perform(
            campaign,
            request.user,
            "give_points_each",
            {"amount": amount, "sheets": [s.pk for s in chosen]},
            # A hidden GM character is not named to players.
            visibility="gm" if any(s.hidden for s in chosen) else "public",
        )
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", error_text(exc))
    return _gm_done(request, campaign, membership, f"{event.headline}.", "")
