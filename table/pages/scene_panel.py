"""The scene panel: what the active scene keeps (the table's own and the pieces the game
declares, rules.kit.scene), the characters' points and the dice the table gives them,
and the game's box (table.pools.game_tools), as one member may see them; its htmx views.

Every read of the table goes through `table.writing.actions` (and so through the visibility
gate); the panel, the pool builders and the page read the scene through
table.pools.scene.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from campaigns.models import Campaign, Membership
from campaigns.permissions import get_campaign_for_player, get_campaign_for_user
from rules.kit.d10_table import GRANT_PREFIX
from rules.kit.errors import RulesError
from sheets.models import Counter, Sheet, Trait
from table.log import visibility
from table.models import TableEvent
from table.pages.order_panel import tracker
from table.pages.support import error_text, spend
from table.pools.game_tools import box_context
from table.pools.scene import scene_snapshot, scene_target, session_assets
from table.writing import actions

# --------------------------------------------------------------------------- reading the scene


def bonus_grants(campaign: Campaign, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """PER-1: the unused bonus dice the GM granted in this scene, as the member may see them."""
    grants = [
        record
        for key, record in state.items()
        if key.startswith(GRANT_PREFIX) and isinstance(record, Mapping) and record.get("dice")
    ]
    return sorted(grants, key=lambda record: str(record.get("name", "")))


def scene_pieces(campaign: Campaign, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the game keeps for the scene, as the panel shows it: each declared piece with
    a label and a value in `state` (already as the member may see it), in the game's
    words: its lines of text, or the game's template partial for it."""
    game = campaign.game
    shown = []
    for piece in game.scene:
        value = piece.value(state)
        if not piece.label or not value:
            continue
        shown.append(
            {
                "label": piece.label,
                "leads": piece.leads,
                "value": value,
                "template": game.partials[piece.partial] if piece.partial else None,
                "lines": piece.lines(value) if piece.lines and not piece.partial else (),
            }
        )
    return shown


def newest_seq(campaign: Campaign, membership: Membership) -> int:
    """The newest event this member may see (0 before the first)."""
    seq = visible_events(campaign, membership).order_by("-seq").values_list("seq", flat=True)
    return seq.first() or 0


def visible_events(campaign: Campaign, membership: Membership):
    """The log's events for this member: every seq, hidden ones rendered sealed for
    players (table.log.visibility decides; the page's render_cards goes through it)."""
    audience = visibility.audience_of(membership)
    return TableEvent.objects.filter(
        visibility.log_filter(audience, membership.user_id), campaign=campaign
    ).select_related("target")


# --------------------------------------------------------------------------- the characters


def visible_sheets(campaign: Campaign, membership: Membership):
    sheets = (
        Sheet.objects.filter(campaign=campaign).select_related("owner").order_by("kind", "name")
    )
    if not membership.is_gm:
        sheets = sheets.filter(hidden=False)
    return sheets


def panel_counters(campaign: Campaign) -> tuple[str, ...]:
    """The counters the panel shows for each character: the game's choice, or those its
    sheet keeps at the table."""
    game = campaign.game
    if game.ui.panel_counters is not None:
        return game.ui.panel_counters
    return tuple(c.key for c in game.sheet_template.table_owned_counters())


def panel_groups(campaign: Campaign) -> tuple[str, ...]:
    """The sheet groups whose dice the panel shows for each character: the game's choice,
    or the die groups its sheet keeps at the table."""
    game = campaign.game
    if game.ui.panel_groups is not None:
        return game.ui.panel_groups
    return tuple(g.key for g in game.sheet_template.groups if g.table_owned)


def character_rows(campaign: Campaign, membership: Membership) -> list[dict[str, Any]]:
    """Every visible character's counters and dice the table keeps (panel_counters,
    panel_groups)."""
    sheets = list(visible_sheets(campaign, membership))
    ids = [s.pk for s in sheets]
    counters: dict[int, dict[str, int]] = {i: {} for i in ids}
    for c in Counter.objects.filter(sheet_id__in=ids):
        counters[c.sheet_id][c.key] = c.value
    dice: dict[int, list[Trait]] = {i: [] for i in ids}
    groups = panel_groups(campaign)
    for t in Trait.objects.filter(sheet_id__in=ids, group__in=groups, die__isnull=False):
        dice[t.sheet_id].append(t)
    template = campaign.game.sheet_template
    labels = {c.key: c.label for c in template.counters}
    keys = panel_counters(campaign)
    rows = []
    for sheet in sheets:
        shown = [
            (labels.get(key, key), counters[sheet.pk].get(key, 0), key)
            for key in keys
            if key in labels
        ]
        rows.append(
            {
                "sheet": sheet,
                "counters": shown,
                "dice": dice[sheet.pk],
                "mine": sheet.owner_id == membership.user_id,
            }
        )
    return rows


# --------------------------------------------------------------------------- the panel


def panel_context(campaign: Campaign, membership: Membership) -> dict[str, Any]:
    # Read the log's head before the state: the panel then shows the state after at
    # least that event (the state is written in the event's transaction), and says so
    # in data-seq, so the page can keep a newer panel when answers cross.
    panel_seq = newest_seq(campaign, membership)
    scene, state = scene_snapshot(campaign, membership)
    characters = character_rows(campaign, membership)
    return {
        "panel_seq": panel_seq,
        "campaign": campaign,
        "membership": membership,
        "scene": scene,
        "state": state,
        "session_assets": session_assets(campaign, membership),
        "target": scene_target(campaign, state),
        "scene_pieces": scene_pieces(campaign, state),
        "bonus_grants": bonus_grants(campaign, state),
        **box_context(campaign, membership, state),
        "characters": characters,
        "order_tracker": tracker(campaign, membership, scene, state, characters),
    }


def render_panel(
    campaign: Campaign, membership: Membership, request: HttpRequest | None = None
) -> str:
    return render_to_string(
        "table/page.html#scene-panel", panel_context(campaign, membership), request
    )


@login_required
@require_GET
def scene_panel(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    return render(request, "table/page.html#scene-panel", panel_context(campaign, membership))


@login_required
@require_POST
def panel_move(request: HttpRequest, campaign_id: int, address: str) -> HttpResponse:
    """A move from the game's panel box at this address (rules.kit.tools.PanelBox): `op`
    names one of the moves the box declares, whose form the game reads into the
    action's request; the action's transition decides who may make it."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    box = campaign.game.tools.panel
    if box is None or box.address != address:
        raise Http404("No such box")
    move = box.moves.get(str(request.POST.get("op", "")))
    if move is None or move.action not in campaign.game.actions:
        raise Http404("No such move")
    req = move.read(request.POST)
    try:
        spend(campaign, request.user)
        event = actions.perform(campaign, request.user, move.action, req)
        message, error = event.headline, ""
    except (actions.ActionError, RulesError) as exc:
        message, error = "", error_text(exc)
    if not request.htmx:
        return redirect("table", campaign.pk)
    context = {**panel_context(campaign, membership), "message": message, "error": error}
    return render(request, "table/page.html#scene-panel", context)
