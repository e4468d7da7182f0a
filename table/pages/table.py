"""The live table page, its log, its pool builders and the generic action forms.

Views only read the form, check who is asking, and call `table.writing.actions`: no view
ever draws a face or changes state itself. Every answer to an htmx request is a
partial of the page, rendered from the same templates as the page
(django-template-partials); a refused action comes back as the same form with the
message next to it, and nothing changed. The scene panel is table/pages/scene_panel.py,
the GM dashboard table/pages/gm.py, the odds fragment table/pages/odds.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from campaigns.models import Campaign, Membership, Scene
from campaigns.permissions import get_campaign_for_player, get_campaign_for_user
from rules.kit.errors import RulesError
from rules.kit.ui import KEPT_DICE
from sheets.models import Sheet
from table.acting import whispers
from table.acting.state import handler_for
from table.log import visibility
from table.models import Kind, TableEvent
from table.pages.action_forms import (
    PickError,
    Pickers,
    field_value,
    named_params,
    picker_rows,
    pickers_for,
    table_params,
)
from table.pages.action_menu import field_controls, more_actions
from table.pages.forms import ActionForm
from table.pages.odds import OddsView, pool_odds
from table.pages.order_panel import tracker
from table.pages.scene_panel import (
    bonus_grants,
    character_rows,
    newest_seq,
    scene_pieces,
    visible_events,
    visible_sheets,
)
from table.pages.support import error_text, sheet_id_of, spend
from table.pools import live_pool, rolls
from table.pools import recent as recent_pools
from table.pools.builder import (
    build,
    builder_inputs,
    playable_sheets,
    sheet_for_builder,
    target_of,
)
from table.pools.game_tools import box_context, turn_roll
from table.pools.scene import scene_snapshot, scene_state, scene_target, session_assets
from table.reading.rendering import card_html
from table.writing import actions

PAGE_SIZE = 20


# --------------------------------------------------------------------------- the page and its log


def render_cards(events, membership: Membership) -> list[str]:
    """Cards as the log holds them (table.reading.rendering.card_html), newest first."""
    who = actions.audience_of(membership)
    ordered = sorted(events, key=lambda e: -e.seq)
    viewer = membership.user_id
    return [mark_safe(card_html(e, who, viewer=viewer)) for e in ordered]  # noqa: S308 - rendered templates


def _event_page(campaign: Campaign, membership: Membership, before: int | None):
    events = visible_events(campaign, membership).order_by("-seq")
    if before is not None:
        events = events.filter(seq__lt=before)
    page = list(events[: PAGE_SIZE + 1])
    more = len(page) > PAGE_SIZE
    page = page[:PAGE_SIZE]
    return page, more


def _action_forms(campaign: Campaign, membership: Membership, state: Mapping) -> dict[str, Any]:
    """ "More actions": the forms (actions with no control elsewhere) with the pickers
    this member may choose from, and where the other actions are played."""
    if not membership.can_play:
        return {"action_forms": [], "pickers": None, "actions_elsewhere": []}
    gm = membership.is_gm
    offered, elsewhere = more_actions(campaign.game, gm=gm)
    pickers = None
    if offered:
        controls = [c for a in offered for c in field_controls(campaign.game, a, gm=gm).values()]
        pickers = pickers_for(campaign, membership, state, controls)
    return {
        "action_forms": [action_entry(campaign, membership, a, pickers) for a in offered],
        "pickers": pickers,
        "actions_elsewhere": elsewhere,
    }


def action_entry(
    campaign: Campaign, membership: Membership, action, pickers: Pickers, data=None
) -> dict[str, Any]:
    """One More-actions form: its plain fields and its pickers."""
    controls = field_controls(campaign.game, action, gm=membership.is_gm)
    words = campaign.game.ui.field_words.get(action.name, {})
    form = ActionForm(
        action, data, gm=membership.is_gm, controls=controls, words=words, prefix=action.name
    )
    rows = picker_rows(action, controls, pickers)
    params = handler_for(campaign.game, action.name).table_params
    # The lists read again as the form opens (act_form): the kept rolls' dice, the rolls.
    fresh = [f"#picker-{r.key}" for r in rows if r.kind == KEPT_DICE]
    fresh += [f"#{k}-{action.name}" for k, p in (("tr", "roll"), ("tf", "from_seq")) if p in params]
    return {
        "action": action,
        "form": form,
        "pickers": rows,
        # The table options this action's transition reads: the form asks for those only.
        "table_params": params,
        # Those that name something the game keeps for the scene, with the names it keeps.
        "named_params": named_params(campaign.game, params, pickers.state),
        "fresh": fresh,
    }


def dashboard_tools(
    campaign: Campaign, membership: Membership, state: Mapping
) -> list[dict[str, Any]]:
    """The GM dashboard's blocks the game declares (its TOOLS' gm_tools), in its order:
    each the tool, its partial's templates, or for a tool without one the action's
    generic form (`entry`, with its `pickers`) as "More actions" draws it."""
    if not membership.is_gm:
        return []
    game = campaign.game
    blocks = []
    for tool in game.tools.gm_tools:
        action = game.actions.get(tool.action)
        if action is None:
            continue
        block: dict[str, Any] = {"tool": tool, "template": None, "entry": None, "pickers": None}
        if tool.partial:
            block["template"] = game.partials[tool.partial]
        else:
            controls = field_controls(game, action).values()
            block["pickers"] = pickers_for(campaign, membership, state, controls)
            block["entry"] = action_entry(campaign, membership, action, block["pickers"])
        blocks.append(block)
    return blocks


@login_required
@require_GET
def table_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    last_seq = newest_seq(campaign, membership)  # before the state: see panel_context
    scene, state = scene_snapshot(campaign, membership)
    events, more = _event_page(campaign, membership, None)
    session = session_assets(campaign, membership)
    characters = character_rows(campaign, membership)
    playable = playable_sheets(campaign, membership, request.user)
    builders = [
        builder_context(campaign, membership, sheet, {}, state, session=session)
        for sheet in playable
        if campaign.game.builder is not None
    ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "scene": scene,
        "planned_scenes": campaign.scenes.filter(status=Scene.Status.PLANNED),
        "state": state,
        "session_assets": session,
        "target": scene_target(campaign, state),
        "scene_pieces": scene_pieces(campaign, state),
        "bonus_grants": bonus_grants(campaign, state),
        **box_context(campaign, membership, state),
        "cards": render_cards(events, membership),
        "more": more,
        "oldest": events[-1].seq if events else None,
        "last_seq": last_seq,
        "panel_seq": last_seq,
        "characters": characters,
        "order_tracker": tracker(campaign, membership, scene, state, characters),
        "builders": builders,
        "chat_sheets": playable,
        "whisper_to": whispers.recipients(campaign, membership),
        **_action_forms(campaign, membership, state),
        "gm_tools": dashboard_tools(campaign, membership, state),
        "all_sheets": list(visible_sheets(campaign, membership)),
        "session_number": TableEvent.objects.filter(
            campaign=campaign, kind=Kind.SESSION_START
        ).count(),
        "points_name": campaign.game.points.many,
        "live_pools": live_pool.slots(campaign, membership, request.user),
    }
    return render(request, "table/page.html", context)


@login_required
@require_GET
def older_events(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """htmx "load older": the page of events before ?before=<seq>, and the next button."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    try:
        before = int(request.GET.get("before", ""))
    except ValueError:
        before = None
    events, more = _event_page(campaign, membership, before)
    context = {
        "campaign": campaign,
        "cards": render_cards(events, membership),
        "more": more,
        "oldest": events[-1].seq if events else None,
    }
    return render(request, "table/page.html#older", context)


# --------------------------------------------------------------------------- the pool builder


def builder_context(
    campaign: Campaign,
    membership: Membership,
    sheet: Sheet,
    data: Mapping,
    state: Mapping,
    *,
    message: str = "",
    error: str = "",
    session: Mapping | None = None,
) -> dict[str, Any]:
    inputs = builder_inputs(campaign, sheet, state, session, live=True)
    pool = build(campaign, sheet, data, inputs, gm=membership.is_gm)  # the GM's dice in it
    target = target_of(data, inputs)
    gm_additions = live_pool.additions_of(campaign.pk, sheet.pk)
    odds: OddsView = pool_odds(campaign.system, pool, target)
    return {
        "depends": inputs.key(),
        "campaign": campaign,
        "membership": membership,
        "sheet": sheet,
        "pool": pool,
        "odds": odds,
        "target": target,
        "typed_target": str(data.get("target", "") or ""),
        "message": message,
        "error": error,
        "turn_roll": turn_roll(campaign, inputs.box),
        "is_gm": membership.is_gm,
        "gm_additions": gm_additions,
        "recent": recent_pools.recall(campaign.pk, sheet.pk, membership),
        # Who sees the roll, as the player last chose: a re-render keeps it.
        "chosen_visibility": str(data.get("visibility") or ""),
    }


@login_required
def pool_builder(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    """GET or POST: the builder after a click, with the rules applied and the odds."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    sheet = sheet_for_builder(campaign, membership, request.user, sheet_id)
    data = request.POST if request.method == "POST" else request.GET
    state = scene_state(campaign, membership)
    if request.method == "GET" and "depends" in data:
        # The page asks after another member's action: 204 if what this builder shows
        # from the table is unchanged, 200 if it should re-render itself.
        current = builder_inputs(campaign, sheet, state, live=True).key()
        return HttpResponse(status=204 if data["depends"] == current else 200)
    if request.method == "POST":
        data = recent_pools.with_recent(data, campaign.pk, sheet.pk, membership)
    context = builder_context(campaign, membership, sheet, data, state)
    if request.method == "POST":  # the pool in the open (table.pools.live_pool)
        chosen = str(data.get("visibility") or "public")
        live_pool.record_pool(campaign, membership, sheet, context["pool"], context["odds"], chosen)
    return render(request, "table/page.html#pool-builder", context)


@login_required
@require_POST
def pool_roll(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    """Roll the built pool (table.pools.rolls.roll_pool: plain, or the side's roll on its turn
    in the game's panel box)."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    sheet = sheet_for_builder(campaign, membership, request.user, sheet_id)
    # A recent pool named (`again`: a side's roll back on its turn, one tap) in place of
    # the ticks.
    fields = recent_pools.with_recent(request.POST, campaign.pk, sheet.pk, membership)
    error = message = ""
    try:
        rolled = rolls.roll_pool(
            campaign,
            membership,
            request.user,
            sheet,
            fields,
            visibility=str(request.POST.get("visibility") or "public"),
            before=lambda: spend(campaign, request.user),
        )
        message = rolled.message
    except (actions.ActionError, RulesError) as exc:
        error = error_text(exc)
    if not request.htmx:
        return redirect("table", campaign.pk)
    data: Mapping = request.POST
    if not error:
        # The roll clears the pool (a second tap on Roll rolls nothing; Again, just
        # remembered, brings it back in one tap), so nothing lists it as being built.
        data = {key: request.POST.get(key, "") for key in AFTER_A_ROLL}
    state = scene_state(campaign, membership)
    context = builder_context(
        campaign, membership, sheet, data, state, message=message, error=error
    )
    return render(request, "table/page.html#pool-builder", context)


AFTER_A_ROLL = ("visibility", "target")  # what the player chose for the table, not the pool


# --------------------------------------------------------------------------- any action


@login_required
@require_POST
def act(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """Any action of the campaign's system, from its form (table/pages/forms.py) and pickers
    (table/pages/action_forms.py): the member names things, the table fills the values."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    game = campaign.game
    if action_name not in game.actions:
        raise Http404("No such action")
    action = game.actions[action_name]
    controls = field_controls(game, action, gm=membership.is_gm)
    state = scene_state(campaign, membership)
    pickers = pickers_for(campaign, membership, state, controls.values())
    entry = action_entry(campaign, membership, action, pickers, request.POST)
    form = entry["form"]
    message = error = ""
    if form.is_valid():
        try:
            req, sheet_id = picked_request(campaign, membership, pickers, form, request.POST)
            spend(campaign, request.user)
            event = actions.perform(
                campaign,
                request.user,
                action.name,
                req,
                sheet_id=sheet_id,
                visibility=form.visibility,
            )
            message = visibility.acknowledgement(
                event, visibility.audience_of(membership), f"{action.title}: done."
            )
        except (PickError, actions.ActionError, RulesError) as exc:
            error = error_text(exc)
    else:
        error = "Check the fields marked below."
    if not request.htmx:
        return redirect("table", campaign.pk)
    if message:  # the lists as they are now (the new roll among the earlier ones)
        pickers = pickers_for(
            campaign, membership, scene_state(campaign, membership), controls.values()
        )
        entry["pickers"] = picker_rows(action, controls, pickers)
    context = {
        "campaign": campaign,
        "membership": membership,
        "entry": entry,
        "pickers": pickers,
        "message": message,
        "error": error,
        "selected_sheet": sheet_id_of(request.POST),
    }
    return render(request, "table/page.html#action-form", context)


@login_required
@require_GET
def act_form(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """One More-actions form with its lists read now (the rolls kept and made since the
    page loaded, the dice where a re-split put them): fetched as its <details> opens."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    offered, _ = more_actions(campaign.game, gm=membership.is_gm)
    action = next((a for a in offered if a.name == action_name), None)
    if action is None:
        raise Http404("No such action")
    controls = field_controls(campaign.game, action, gm=membership.is_gm)
    state = scene_state(campaign, membership)
    pickers = pickers_for(campaign, membership, state, controls.values())
    context = {
        "campaign": campaign,
        "membership": membership,
        "entry": action_entry(campaign, membership, action, pickers),
        "pickers": pickers,
        "selected_sheet": sheet_id_of(request.GET),
    }
    return render(request, "table/page.html#action-form", context)


def picked_request(
    campaign: Campaign, membership: Membership, pickers: Pickers, form: ActionForm, data
) -> tuple[dict[str, Any], int | None]:
    """(the rules request, the acting character's id) from a valid form and its picks;
    PickError for a pick this member may not make."""
    req = form.request()
    raw_sheet = str(data.get("sheet", "") or "").strip()
    acting = pickers.sheet(raw_sheet) if raw_sheet else None
    prefix = form.action.name
    controls = field_controls(campaign.game, form.action, gm=membership.is_gm)
    for name in sorted(controls, key=lambda n: bool(controls[n].like)):  # "like" ones last
        value = field_value(
            campaign, membership, pickers, name, controls[name], data, prefix, acting, req
        )
        if value is not None:
            req[name] = value
    table = table_params(pickers, membership, campaign, data)
    if table:
        req["table"] = table
    return req, acting.pk if acting is not None else None
