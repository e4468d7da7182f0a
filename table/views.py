"""The live table page and its htmx fragments.

Views only read the form, check who is asking, and call `table.actions`: no
view ever draws a face or changes state itself. Every answer to an htmx
request is a partial of the page, rendered from the same templates as the page
(django-template-partials); a refused action comes back as the same form with
the message next to it, and nothing changed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from campaigns import services
from campaigns.locking import Busy, retry_conflicts
from campaigns.models import Campaign, Membership, Scene
from campaigns.permissions import get_campaign_for_player, get_campaign_for_user
from rules.kit.errors import RulesError
from rules.personae.table import GRANT_PREFIX, bonus_grant
from rules.registry import get_system
from sheets.models import Counter, Sheet, Trait

from . import limits, visibility
from . import pool as pools
from .forms import ActionForm
from .models import Kind, TableEvent
from .odds_views import OddsView, pool_odds

PAGE_SIZE = 20
POOL_SYSTEMS = tuple(pools.ROLL_ACTION)
PANEL_COUNTERS = {
    "serenity": ("plot_points",),
    "cortex_slots": ("plot_points",),
    "smallville": ("plot_points",),
    "personae": ("criticals", "potential_threshold"),
    "unisystem": ("drama_points", "life_points"),
}
PANEL_DICE_GROUPS = ("stress", "complications", "conditions")


def _actions():
    """table.actions, imported when first used (it imports the rules and the models)."""
    from . import actions

    return actions


def _spend(campaign: Campaign, user) -> None:
    """One action from the user's budget at this table, which their sockets spend from
    too (table.limits); over it, the socket's "Slow down" refusal, raised as an
    ActionError so each view shows it where it shows any refusal: nothing is done."""
    refusal = limits.spend(campaign.pk, user.pk)
    if refusal:
        raise _actions().ActionError(refusal)


def _error_text(error: Exception) -> str:
    message = str(error) or "That is not allowed."
    return message[:1].upper() + message[1:]


# --------------------------------------------------------------------------- reading state


def visible_events(campaign: Campaign, membership: Membership):
    """The log's events for this member: every seq, hidden ones rendered sealed for
    players (table.visibility decides; render_cards goes through it)."""
    audience = visibility.audience_of(membership)
    return TableEvent.objects.filter(
        campaign=campaign, **visibility.log_filter(audience)
    ).select_related("target")


def render_cards(events, membership: Membership) -> list[str]:
    """Cards as the log holds them (table.rendering.card_html), newest first."""
    from .rendering import card_html

    who = _actions().audience_of(membership)
    ordered = sorted(events, key=lambda e: -e.seq)
    return [mark_safe(card_html(e, who)) for e in ordered]  # noqa: S308 - rendered templates


def visible_sheets(campaign: Campaign, membership: Membership):
    sheets = (
        Sheet.objects.filter(campaign=campaign).select_related("owner").order_by("kind", "name")
    )
    if not membership.is_gm:
        sheets = sheets.filter(hidden=False)
    return sheets


def playable_sheets(campaign: Campaign, membership: Membership, user) -> list[Sheet]:
    """The sheets this user builds pools for: a player's own PCs; the GM's GM characters."""
    if membership.is_gm:
        return list(Sheet.objects.filter(campaign=campaign, kind=Sheet.Kind.NPC).order_by("name"))
    if not membership.can_play:
        return []
    return list(
        Sheet.objects.filter(campaign=campaign, kind=Sheet.Kind.PC, owner=user).order_by("name")
    )


def sheet_for_builder(campaign: Campaign, membership: Membership, user, sheet_id: object) -> Sheet:
    """A sheet the user may roll for, or 404 (GMs: any sheet; players: their own PCs)."""
    try:
        number = int(str(sheet_id))
    except ValueError:
        raise Http404("No such character") from None
    sheet = Sheet.objects.filter(campaign=campaign, pk=number).first()
    if sheet is None or (sheet.hidden and not membership.is_gm):
        raise Http404("No such character")
    if not membership.is_gm and not (sheet.kind == Sheet.Kind.PC and sheet.owner_id == user.pk):
        raise PermissionDenied("You can only roll for your own characters.")
    return sheet


def scene_state(campaign: Campaign, membership: Membership) -> dict[str, Any]:
    """What the active scene keeps, as this member may see it (table.actions.scene_state)."""
    return _scene_snapshot(campaign, membership)[1]


def _scene_snapshot(
    campaign: Campaign, membership: Membership
) -> tuple[Mapping[str, Any] | None, dict[str, Any]]:
    """(the active scene's id, title and description, or None; its state as this member
    may see it): one read of the active scene for both."""
    snapshot = _actions().scene_state(campaign, membership.user, membership=membership)
    state = snapshot.get("state")
    return snapshot.get("scene"), dict(state) if isinstance(state, Mapping) else {}


def session_assets(campaign: Campaign, membership: Membership | None = None) -> dict[str, Any]:
    """SER-10: the session Assets, which last across scenes until the next session_start.
    Public (only a public event promotes one), so the same for every member; with a
    membership, table.actions.session_state checks that member's role too."""
    user = membership.user if membership is not None else None
    snapshot = _actions().session_state(campaign, user, membership=membership)
    assets = (snapshot.get("state") or {}).get("assets")
    return dict(assets) if isinstance(assets, Mapping) else {}


def scene_target(campaign: Campaign, state: Mapping[str, Any]) -> int | None:
    """The number to beat right now: a set difficulty, or the standing result of a contest.
    A Unisystem difficulty is a modifier to the roll (UNI-4), not a number to beat."""
    difficulty = state.get("difficulty")
    if campaign.system == "unisystem":
        difficulty = None
    if isinstance(difficulty, Mapping) and isinstance(difficulty.get("value"), int):
        return difficulty["value"]
    if isinstance(difficulty, int) and not isinstance(difficulty, bool):
        return difficulty
    for record in (state.get("contests") or {}).values():
        contest = record.get("contest") if isinstance(record, Mapping) else None
        if isinstance(contest, Mapping) and contest.get("status") == "open":
            standing = contest.get("standing")
            if isinstance(standing, Mapping) and isinstance(standing.get("result"), int):
                return standing["result"]
    return None


D10_SYSTEMS = ("personae", "unisystem")


def d10_table(campaign: Campaign, sheet: Sheet, state: Mapping[str, Any]) -> dict[str, Any]:
    """What a d10 game's builder shows from the table besides the sheet (PER-1, UNI-4): the
    difficulty the GM set for the scene and the bonus dice granted to this character, as
    the member may see them (`state` went through the visibility gate)."""
    if campaign.system not in D10_SYSTEMS:
        return {}
    difficulty = state.get("difficulty")
    held = bonus_grant(state, sheet.pk) if campaign.system == "personae" else None
    return {
        "difficulty": dict(difficulty) if isinstance(difficulty, Mapping) else None,
        "bonus_dice": dict(held[1]) if held else None,
    }


def bonus_grants(campaign: Campaign, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """PER-1: the unused bonus dice the GM granted in this scene, as the member may see them."""
    if campaign.system != "personae":
        return []
    grants = [
        record
        for key, record in state.items()
        if key.startswith(GRANT_PREFIX) and isinstance(record, Mapping) and record.get("dice")
    ]
    return sorted(grants, key=lambda record: str(record.get("name", "")))


def counters_of(sheet: Sheet) -> dict[str, int]:
    return {c.key: c.value for c in Counter.objects.filter(sheet=sheet)}


def character_rows(campaign: Campaign, membership: Membership) -> list[dict[str, Any]]:
    """Every visible character's points, stress, complications and criticals."""
    sheets = list(visible_sheets(campaign, membership))
    ids = [s.pk for s in sheets]
    counters: dict[int, dict[str, int]] = {i: {} for i in ids}
    for c in Counter.objects.filter(sheet_id__in=ids):
        counters[c.sheet_id][c.key] = c.value
    dice: dict[int, list[Trait]] = {i: [] for i in ids}
    for t in Trait.objects.filter(sheet_id__in=ids, group__in=PANEL_DICE_GROUPS, die__isnull=False):
        dice[t.sheet_id].append(t)
    template = campaign.game.sheet_template
    labels = {c.key: c.label for c in template.counters}
    rows = []
    for sheet in sheets:
        shown = [
            (labels.get(key, key), counters[sheet.pk].get(key, 0), key)
            for key in PANEL_COUNTERS.get(campaign.system, ())
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


# --------------------------------------------------------------------------- the pool builder


def _form_choices(campaign: Campaign, key: str) -> tuple:
    builder = get_system(campaign.system).builder
    return builder.form_choices.get(key, ()) if builder else ()


def builder_for(campaign: Campaign, user, data: Mapping) -> tuple[pools.Pool, int | None]:
    """Build the pool for data["sheet"] from the builder's fields (used by the odds view too)."""
    _, membership = get_campaign_for_user(user, campaign.pk)
    sheet = sheet_for_builder(campaign, membership, user, data.get("sheet"))
    state = scene_state(campaign, membership)
    inputs = builder_inputs(campaign, sheet, state)
    return _build(campaign, sheet, data, inputs, gm=membership.is_gm), _target(data, inputs)


def _target(data: Mapping, inputs: BuilderInputs) -> int | None:
    """The number the odds are against: one typed in the builder, else the table's."""
    target = _whole_number(data.get("target"))
    if target is not None:
        return max(-50, min(200, target))
    return inputs.target


def _build(
    campaign: Campaign, sheet: Sheet, data: Mapping, inputs: BuilderInputs, *, gm: bool
) -> pools.Pool:
    return pools.build(
        campaign.system,
        inputs.traits,
        data,
        counters=inputs.counters,
        character=sheet.name,
        target=inputs.target,
        table_assets=inputs.assets,
        table={**inputs.table, "gm": gm},
    )


@dataclass(frozen=True)
class BuilderInputs:
    """Everything a pool builder shows besides what its player picked: the sheet (its
    traits can be edited on the sheet page meanwhile) and the table. It goes stale when
    any of it changes, and the page asks (`?depends=`) whether it has."""

    traits: list[Trait]
    sheet_version: int
    assets: list[tuple[str, str, str]]
    counters: dict[str, int]
    target: int | None
    contest: dict[str, Any] | None
    table: dict[str, Any]  # d10 games: the GM's difficulty and bonus dice (d10_table)

    def key(self) -> str:
        # A trait's version rises on every edit; a reorder moves only its position.
        lines = [(t.pk, t.version, t.position) for t in self.traits]
        text = json.dumps(
            [lines, self.sheet_version]
            + [self.assets, sorted(self.counters.items()), self.target, self.contest]
            + ([self.table] if self.table else []),
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def builder_inputs(
    campaign: Campaign, sheet: Sheet, state: Mapping, session: Mapping | None = None
) -> BuilderInputs:
    """`session`: the session Assets, when the caller has read them already."""
    return BuilderInputs(
        traits=list(Trait.objects.filter(sheet=sheet).select_related("parent", "link")),
        sheet_version=sheet.version,
        assets=table_assets(campaign, state, session),
        counters=counters_of(sheet),
        target=scene_target(campaign, state),
        contest=open_contest(state),
        table=d10_table(campaign, sheet, state),
    )


def table_assets(
    campaign: Campaign, state: Mapping, session: Mapping | None = None
) -> list[tuple[str, str, str]]:
    """SER-10, CTX-7: the scene's Assets, then the session's, as (name, die, scope).

    Read from the table on every request, so the builder offers (and the odds use)
    the dice the server will roll; `state` is the scene state the member may see.
    """
    if campaign.system not in pools.TABLE_ASSET_SYSTEMS:
        return []
    found: list[tuple[str, str, str]] = []
    if session is None:
        session = session_assets(campaign)
    scopes = [("scene", state.get("assets")), ("session", session)]
    for scope, assets in scopes:
        if not isinstance(assets, Mapping):
            continue
        for name, record in assets.items():
            die = record.get("die") if isinstance(record, Mapping) else None
            if isinstance(name, str) and isinstance(die, str) and die:
                found.append((name, die, scope))
    return found


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
    inputs = builder_inputs(campaign, sheet, state, session)
    pool = _build(campaign, sheet, data, inputs, gm=membership.is_gm)
    target = _target(data, inputs)
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
        "uni_kinds": _form_choices(campaign, "kinds"),
        "uni_difficulties": _form_choices(campaign, "difficulties"),
        "contest": inputs.contest,
        "is_gm": membership.is_gm,
    }


def open_contest(state: Mapping) -> dict[str, Any] | None:
    for record in (state.get("contests") or {}).values():
        contest = record.get("contest") if isinstance(record, Mapping) else None
        if isinstance(contest, Mapping) and contest.get("status") in ("open", "stress_pending"):
            return {**record, "contest": contest}
    return None


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
        current = builder_inputs(campaign, sheet, state).key()
        return HttpResponse(status=204 if data["depends"] == current else 200)
    context = builder_context(campaign, membership, sheet, data, state)
    return render(request, "table/page.html#pool-builder", context)


@login_required
@require_POST
def pool_roll(request: HttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    """Roll the built pool through table.actions (plain, or the character's contest move)."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    sheet = sheet_for_builder(campaign, membership, request.user, sheet_id)
    state = scene_state(campaign, membership)
    inputs = builder_inputs(campaign, sheet, state)
    pool = _build(campaign, sheet, request.POST, inputs, gm=membership.is_gm)
    error = message = ""
    if pool.request is None or pool.errors:
        error = pool.errors[0] if pool.errors else "Pick dice first."
    else:
        actions = _actions()
        name, req = roll_request(campaign, sheet, pool, request.POST, state)
        chosen = str(request.POST.get("visibility") or "public")
        try:
            _spend(campaign, request.user)
            event = actions.perform(
                campaign, request.user, name, req, sheet_id=sheet.pk, visibility=chosen
            )
            audience = visibility.audience_of(membership)
            message = visibility.acknowledgement(event, audience, "Rolled.")
            if visibility.sees(event, audience) and event.headline:
                message = f"Rolled: {event.headline}"
        except (actions.ActionError, RulesError) as exc:
            error = _error_text(exc)
    if not request.htmx:
        return redirect("table", campaign.pk)
    data = request.POST.copy()
    if not error:
        data["plot_points"] = "0"
    state = scene_state(campaign, membership)
    context = builder_context(
        campaign, membership, sheet, data, state, message=message, error=error
    )
    return render(request, "table/page.html#pool-builder", context)


def roll_request(
    campaign: Campaign, sheet: Sheet, pool: pools.Pool, data: Mapping, state: Mapping
) -> tuple[str, dict[str, Any]]:
    """The action and request for a built pool: a contest move when the sheet is a side
    whose turn it is (SER-6, SMV-10), otherwise the system's roll."""
    req = dict(pool.request or {})
    contest = open_contest(state)
    if (
        campaign.system in ("serenity", "smallville")
        and contest is not None
        and contest["contest"].get("status") == "open"
        and str(data.get("as_contest", "1")) != "0"
    ):
        turn = contest["contest"].get("turn")
        sheets = contest.get("sheets") or []
        if isinstance(turn, int) and turn < len(sheets) and sheets[turn] == sheet.pk:
            goal = str(data.get("goal", "")).strip()[:200]
            if goal:
                req["goal"] = goal
            req["table"] = {"contest": contest.get("id")}
            return "contest_roll", req
    return pool.action, req


# --------------------------------------------------------------------------- the page


def _event_page(campaign: Campaign, membership: Membership, before: int | None):
    events = visible_events(campaign, membership).order_by("-seq")
    if before is not None:
        events = events.filter(seq__lt=before)
    page = list(events[: PAGE_SIZE + 1])
    more = len(page) > PAGE_SIZE
    page = page[:PAGE_SIZE]
    return page, more


def _action_forms(campaign: Campaign, membership: Membership) -> list[dict[str, Any]]:
    game = campaign.game
    forms = []
    for action in game.actions.values():
        forms.append(
            {
                "action": action,
                "form": ActionForm(action, gm=membership.is_gm, prefix=action.name),
            }
        )
    return forms


@login_required
@require_GET
def table_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    last_seq = newest_seq(campaign, membership)  # before the state: see panel_context
    scene, state = _scene_snapshot(campaign, membership)
    events, more = _event_page(campaign, membership, None)
    session = session_assets(campaign, membership)
    builders = [
        builder_context(campaign, membership, sheet, {}, state, session=session)
        for sheet in playable_sheets(campaign, membership, request.user)
    ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "scene": scene,
        "planned_scenes": campaign.scenes.filter(status=Scene.Status.PLANNED),
        "state": state,
        "session_assets": session,
        "target": scene_target(campaign, state),
        "bonus_grants": bonus_grants(campaign, state),
        "uni_difficulties": _form_choices(campaign, "difficulties"),
        "contest": open_contest(state),
        "cards": render_cards(events, membership),
        "more": more,
        "oldest": events[-1].seq if events else None,
        "last_seq": last_seq,
        "panel_seq": last_seq,
        "characters": character_rows(campaign, membership),
        "stress_types": _stress_types(campaign),
        "benefits": _benefits_for(campaign, state),
        "builders": builders,
        "action_forms": _action_forms(campaign, membership) if membership.can_play else [],
        "all_sheets": list(visible_sheets(campaign, membership)),
        "session_number": TableEvent.objects.filter(
            campaign=campaign, kind=Kind.SESSION_START
        ).count(),
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


@login_required
@require_GET
def scene_panel(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    return render(request, "table/page.html#scene-panel", panel_context(campaign, membership))


def newest_seq(campaign: Campaign, membership: Membership) -> int:
    """The newest event this member may see (0 before the first)."""
    seq = visible_events(campaign, membership).order_by("-seq").values_list("seq", flat=True)
    return seq.first() or 0


def panel_context(campaign: Campaign, membership: Membership) -> dict[str, Any]:
    # Read the log's head before the state: the panel then shows the state after at
    # least that event (the state is written in the event's transaction), and says so
    # in data-seq, so the page can keep a newer panel when answers cross.
    panel_seq = newest_seq(campaign, membership)
    scene, state = _scene_snapshot(campaign, membership)
    return {
        "panel_seq": panel_seq,
        "campaign": campaign,
        "membership": membership,
        "scene": scene,
        "state": state,
        "session_assets": session_assets(campaign, membership),
        "target": scene_target(campaign, state),
        "bonus_grants": bonus_grants(campaign, state),
        "contest": open_contest(state),
        "characters": character_rows(campaign, membership),
        "stress_types": _stress_types(campaign),
        "benefits": _benefits_for(campaign, state),
    }


def _stress_types(campaign: Campaign) -> tuple[str, ...]:
    return tuple(getattr(campaign.game.module, "STRESS_TYPES", ()))


def _benefits_for(campaign: Campaign, state: Mapping) -> list[dict[str, Any]]:
    """SER-10 benefits as the panel offers them: each choice's value names the trait it
    applies to ("step_up_asset:Pistol"), so two of a kind stay apart. Promoting an
    Asset lists the scene's Assets, or (with none) asks for a name in `target`; the
    choices that need a name go last, so the one chosen first needs nothing more."""
    contest = open_contest(state)
    choices = []
    for option in contest_benefits(campaign, contest["contest"]) if contest else []:
        key, trait, text = option["benefit"], option.get("trait"), option["text"]
        if key == "promote_asset" and not trait:
            assets = [
                name
                for name, asset in (state.get("assets") or {}).items()
                if not (isinstance(asset, Mapping) and asset.get("promoted"))
            ]
            choices += [
                {"value": f"{key}:{name}", "text": f"{text}: {name}", "named": False}
                for name in assets
            ] or [{"value": key, "text": text, "named": True}]
        else:
            value = f"{key}:{trait}" if trait else key
            choices.append({"value": value, "text": text, "named": False})
    return sorted(choices, key=lambda choice: choice["named"])


def render_panel(
    campaign: Campaign, membership: Membership, request: HttpRequest | None = None
) -> str:
    return render_to_string(
        "table/page.html#scene-panel", panel_context(campaign, membership), request
    )


# --------------------------------------------------------------------------- any action


def _sheet_id(data: Mapping) -> int | None:
    sheet_id = _whole_number(data.get("sheet"), digits=18)
    return sheet_id if sheet_id is not None and sheet_id >= 0 else None


@login_required
@require_POST
def act(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """Any action of the campaign's system, from its generic form (table/forms.py)."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    game = campaign.game
    if action_name not in game.actions:
        raise Http404("No such action")
    action = game.actions[action_name]
    form = ActionForm(action, request.POST, gm=membership.is_gm, prefix=action.name)
    message = error = ""
    if form.is_valid():
        req = form.request()
        table = _table_params(request.POST)
        if table:
            req["table"] = table
        actions = _actions()
        try:
            _spend(campaign, request.user)
            event = actions.perform(
                campaign,
                request.user,
                action.name,
                req,
                sheet_id=_sheet_id(request.POST),
                visibility=form.visibility,
            )
            message = visibility.acknowledgement(
                event, visibility.audience_of(membership), f"{action.title}: done."
            )
        except (actions.ActionError, RulesError) as exc:
            error = _error_text(exc)
    else:
        error = "Check the fields marked below."
    if not request.htmx:
        return redirect("table", campaign.pk)
    context = {
        "campaign": campaign,
        "membership": membership,
        "entry": {"action": action, "form": form},
        "message": message,
        "error": error,
        "all_sheets": list(visible_sheets(campaign, membership)),
        "selected_sheet": _sheet_id(request.POST),
    }
    return render(request, "table/page.html#action-form", context)


TABLE_PARAMS = ("contest", "target", "roll", "from_seq", "task", "chase", "tracker")


def _table_params(data: Mapping) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in TABLE_PARAMS:
        raw = str(data.get(f"table_{key}", "") or "").strip()
        if not raw:
            continue
        number = _whole_number(raw)
        out[key] = number if number is not None else raw[:80]
    return out


def _gm_done(
    request: HttpRequest, campaign: Campaign, membership: Membership, message: str, error: str
) -> HttpResponse:
    if not request.htmx:
        return redirect("table", campaign.pk)
    context = {"message": message, "error": error, "campaign": campaign, "membership": membership}
    return render(request, "table/page.html#gm-result", context)


# --------------------------------------------------------------------------- GM dashboard


def _gm(request: HttpRequest, campaign_id: int) -> tuple[Campaign, Membership]:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM can do that.")
    return campaign, membership


def _event_id(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise Http404("No such event") from None


@login_required
@require_POST
def event_reveal(request: HttpRequest, campaign_id: int, event_id: int) -> HttpResponse:
    campaign, membership = _gm(request, campaign_id)
    actions = _actions()
    try:
        _spend(campaign, request.user)
        event = actions.reveal(campaign, request.user, event_id)
        return _gm_done(request, campaign, membership, event.headline, "")
    except actions.ActionError as exc:
        return _gm_done(request, campaign, membership, "", _error_text(exc))


@login_required
@require_POST
def event_void(request: HttpRequest, campaign_id: int, event_id: int) -> HttpResponse:
    campaign, membership = _gm(request, campaign_id)
    actions = _actions()
    try:
        _spend(campaign, request.user)
        event = actions.void(campaign, request.user, event_id, request.POST.get("reason", ""))
        left = event.outcome.get("not_undone") or []
        message = event.headline + (". Not undone: " + " ".join(left) if left else ".")
        return _gm_done(request, campaign, membership, message, "")
    except actions.ActionError as exc:
        return _gm_done(request, campaign, membership, "", _error_text(exc))


QUICK_ACTIONS = ("activate_complication", "buy_hitch", "trouble")


@login_required
@require_POST
def quick_action(request: HttpRequest, campaign_id: int, action_name: str) -> HttpResponse:
    """The GM's buttons on a roll card: activate a complication (SER-3), buy a hitch
    (CTX-4), pay for Trouble (SMV-9). Each is one table.actions.perform call."""
    campaign, membership = _gm(request, campaign_id)
    if action_name not in QUICK_ACTIONS or action_name not in campaign.game.actions:
        raise Http404("No such action")
    data = request.POST
    sheet_id = _sheet_id(data)
    req: dict[str, Any]
    if action_name == "activate_complication":
        req = {"complication": str(data.get("complication", "")).strip()[:80]}
    elif action_name == "buy_hitch":
        req = {"buyer": "gm", "index": _small_int(data.get("index"))}
        seq = _small_int(data.get("seq"))
        if seq is not None:
            req["table"] = {"roll": seq}
    else:
        req = {"operation": "add", "ones": _small_int(data.get("ones")) or 1}
    actions = _actions()
    try:
        _spend(campaign, request.user)
        event = actions.perform(campaign, request.user, action_name, req, sheet_id=sheet_id)
        return _gm_done(request, campaign, membership, event.headline, "")
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", _error_text(exc))


def _small_int(value: object) -> int | None:
    return _whole_number(value, digits=5)


WHOLE_NUMBER = re.compile(r"-?[0-9]{1,%d}")


def _whole_number(value: object, digits: int = 9) -> int | None:
    """An ASCII whole number of at most `digits` digits, or None ("²".isdigit() is True)."""
    raw = str(value if value is not None else "").strip()
    return int(raw) if re.fullmatch(WHOLE_NUMBER.pattern % digits, raw) else None


GM_GROUP = {"serenity": "situation", "smallville": "situation", "cortex_slots": "difficulty"}


def gm_roll_request(campaign: Campaign, form) -> tuple[str, dict[str, Any]]:
    """The opposition roll for each system from the GM pool form."""
    system = campaign.system
    dice = form.cleaned_data["dice"]
    name = form.cleaned_data.get("name") or "Opposition"
    if system in ("serenity", "smallville"):
        if not dice:
            raise ValueError("Give the opposition's dice, like: d8 Armed thugs, d6")
        return "roll", {"pool": [{**d, "group": "situation"} for d in dice]}
    if system == "cortex_slots":
        if not dice:
            raise ValueError("Give the GM pool's dice, like: d8, d6, d6")
        return "gm_pool", {"pool": [{**d, "group": "difficulty"} for d in dice]}
    skill = form.cleaned_data.get("skill") or 0
    attribute = form.cleaned_data.get("attribute")
    if attribute is None:
        raise ValueError("Give the attribute (and skill) the GM character rolls.")
    if system == "personae":
        raise ValueError(
            "In Personae the GM side rolls as the reactor: give its skill and attribute in a "
            "Challenge (the Every action list), or roll for a GM character's sheet."
        )
    return "task", {
        "name": name[:60],
        "kind": "task",
        "attribute": max(attribute, 1),
        "skill": skill,
    }


@login_required
@require_POST
def gm_roll(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Roll opposition (a situation pool, a GM difficulty pool, a GM task), public or secret."""
    from .forms import GmPoolForm

    campaign, membership = _gm(request, campaign_id)
    form = GmPoolForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(e for field in form.errors.values() for e in field)
        return _gm_done(request, campaign, membership, "", errors)
    actions = _actions()
    try:
        name, req = gm_roll_request(campaign, form)
        _spend(campaign, request.user)
        event = actions.perform(
            campaign, request.user, name, req, visibility=form.cleaned_data["visibility"]
        )
        return _gm_done(request, campaign, membership, event.headline, "")
    except ValueError as exc:
        return _gm_done(request, campaign, membership, "", str(exc))
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", _error_text(exc))


@login_required
@require_POST
def gm_contest(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Open a contest (SER-6, SMV-10): two sides, each a character or a named GM side."""
    campaign, membership = _gm(request, campaign_id)
    data = request.POST
    sides = []
    for key in ("a", "b"):
        side: dict[str, Any] = {"goal": str(data.get(f"{key}_goal", "")).strip()[:200]}
        sheet_id = _small_int(data.get(f"{key}_sheet"))
        if sheet_id is not None:
            side["sheet_id"] = sheet_id
        name = str(data.get(f"{key}_name", "")).strip()[:80]
        if name:
            side["name"] = name
        sides.append(side)
    first = 1 if str(data.get("first", "0")) == "1" else 0
    actions = _actions()
    try:
        _spend(campaign, request.user)
        event = actions.perform(
            campaign, request.user, "contest_start", {"sides": sides, "first": first}
        )
        return _gm_done(request, campaign, membership, event.headline, "")
    except (actions.ActionError, RulesError) as exc:
        return _gm_done(request, campaign, membership, "", _error_text(exc))


@login_required
@require_POST
def gm_scene(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Start a planned scene, end the running one, create and start a new one, or
    (op "session") mark a new session (table.actions.session_started)."""
    campaign, membership = _gm(request, campaign_id)
    op = request.POST.get("op")
    try:
        _spend(campaign, request.user)
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
                scene_id = _small_int(request.POST.get("scene"))
                scene = Scene.objects.filter(campaign=campaign, pk=scene_id).first()
                if scene is None:
                    raise services.CampaignError("Choose a planned scene.")
            _starting(campaign, scene, request.user)
            message = f"“{scene.title}” is now the active scene."
        elif op == "session":
            message = _actions().session_started(campaign, request.user).headline + "."
        else:
            raise services.CampaignError("Start or end a scene.")
    except (services.CampaignError, _actions().ActionError, Busy) as exc:
        return _gm_done(request, campaign, membership, "", _error_text(exc))
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
    actions = _actions()
    if kind == Kind.SCENE_START:
        actions.scene_started(campaign, scene, user)
    else:
        actions.scene_ended(campaign, scene, user)


@login_required
@require_POST
def gm_plot_points(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Give (or take back) plot points, Drama Points or criticals outside a roll: the
    table action "give_points", logged with a card and voidable like any other."""
    campaign, membership = _gm(request, campaign_id)
    sheet = Sheet.objects.filter(
        campaign=campaign, pk=_small_int(request.POST.get("sheet"))
    ).first()
    amount = _small_int(request.POST.get("amount")) or 0
    if sheet is None:
        return _gm_done(request, campaign, membership, "", "Choose a character.")
    if not -10 <= amount <= 10 or amount == 0:
        return _gm_done(
            request, campaign, membership, "", "Give between 1 and 10 (or take with a minus)."
        )
    actions = _actions()
    try:
        _spend(campaign, request.user)
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
        return _gm_done(request, campaign, membership, "", _error_text(exc))
    points = get_system(campaign.system).points
    label = points.one if abs(amount) == 1 else points.many
    verb = "gets" if amount > 0 else "gives back"
    return _gm_done(
        request,
        campaign,
        membership,
        f"{sheet.name} {verb} {abs(amount)} {label} (now {event.outcome['now']}).",
        "",
    )


# --------------------------------------------------------------------------- contests


def contest_benefits(campaign: Campaign, contest: Mapping) -> list[dict[str, Any]]:
    """SER-10: the benefits the winner may pick after an extraordinary success."""
    from rules.kit import cortex

    if not contest.get("extraordinary") or contest.get("status") != "stress_pending":
        return []
    game = campaign.game
    try:
        parsed = cortex.parse_contest(contest, game.module.GAME.pool_groups)
        return cortex.benefit_options(
            gm=parsed.sides[parsed.standing.side].gm,
            winner_pool=parsed.standing.pool,
            loser_pool=parsed.failed.pool,
            stress_die=parsed.stress_die,
        )
    except (RulesError, AttributeError, TypeError):
        return []


@login_required
@require_POST
def contest_move(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Give in (SER-6) or choose the stress (SER-7, SER-10) for the contest going on."""
    campaign, membership = get_campaign_for_player(request.user, campaign_id)
    data = request.POST
    contest_id = _small_int(data.get("contest"))
    op = data.get("op")
    req: dict[str, Any] = {"table": {"contest": contest_id}} if contest_id else {}
    if op == "give_in":
        name = "contest_give_in"
    elif op == "stress":
        name = "contest_stress"
        req["type"] = str(data.get("type", ""))[:20]
        # The panel's choices read "benefit:trait" (the trait it applies to), or just
        # "benefit" when the winner names it in `target` (a scene Asset to promote).
        benefit, _, trait = str(data.get("benefit", "")).strip().partition(":")
        if benefit:
            req["benefit"] = benefit[:40]
            target = trait.strip() or str(data.get("target", "")).strip()
            if target:
                req["target"] = target[:80]
    else:
        raise Http404("No such move")
    actions = _actions()
    try:
        _spend(campaign, request.user)
        event = actions.perform(campaign, request.user, name, req)
        message, error = event.headline, ""
    except (actions.ActionError, RulesError) as exc:
        message, error = "", _error_text(exc)
    if not request.htmx:
        return redirect("table", campaign.pk)
    context = {**panel_context(campaign, membership), "message": message, "error": error}
    return render(request, "table/page.html#scene-panel", context)
