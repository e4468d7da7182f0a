"""The pool builder's inputs: the sheet a member rolls for, what the table adds to it,
and the pool built from the builder's fields (table/pool.py), for the pool views and
the odds fragment alike.

A builder goes stale when anything it shows from the sheet or the table changes;
`BuilderInputs.key()` says whether it has (the page asks with `?depends=`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.models import Campaign, Membership
from campaigns.permissions import get_campaign_for_user
from rules.kit.builder import Pool
from rules.kit.builder import build as build_pool
from rules.kit.d10_table import bonus_grant
from rules.kit.ui import whole_number
from sheets.models import Sheet, Trait
from table.pools import live_pool
from table.pools.game_tools import panel_box
from table.pools.scene import counters_of, scene_state, scene_target, session_assets

MIN_TARGET, MAX_TARGET = -50, 200


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
    """A sheet the user may roll for, or 404 (GMs: any sheet; players: their own PCs; a
    game without a pool builder has none to show)."""
    if campaign.game.builder is None:
        raise Http404("This game has no pool builder")
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


def from_the_table(campaign: Campaign, sheet: Sheet, state: Mapping[str, Any]) -> dict[str, Any]:
    """What the builder shows from the table besides the sheet, in the games whose
    builder takes it (PER-1, UNI-4): the difficulty the GM set for the scene and the
    bonus dice granted to this character, as the member may see them (`state` went
    through the visibility gate)."""
    if not campaign.game.ui.builder_from_table:
        return {}
    difficulty = state.get("difficulty")
    held = bonus_grant(state, sheet.pk)
    out = {
        "difficulty": dict(difficulty) if isinstance(difficulty, Mapping) else None,
        "bonus_dice": dict(held[1]) if held else None,
    }
    group = campaign.game.ui.against_group
    if group:
        out["against"] = other_sides(campaign, sheet, group)
    return out


def other_sides(campaign: Campaign, sheet: Sheet, group: str) -> list[dict[str, Any]]:
    """PER-5: the characters a roll may be against (the hidden ones never), each with the
    names of its traits in `group`, which the roll reads from their sheet again."""
    others = Sheet.objects.filter(campaign=campaign, hidden=False).exclude(pk=sheet.pk)
    traits = Trait.objects.filter(sheet__in=others, group=group).order_by("position", "name")
    names: dict[int, list[str]] = {}
    for trait in traits:
        names.setdefault(trait.sheet_id, []).append(trait.name)
    return [
        {"id": other.pk, "name": other.name, "traits": names[other.pk]}
        for other in others.order_by("name")
        if names.get(other.pk)
    ]


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
    box: dict[str, Any] | None  # what the game's panel box shows (table.pools.game_tools)
    table: dict[str, Any]  # the GM's difficulty and bonus dice (from_the_table)
    # The dice the GM added to this roll while it is built (table.pools.live_pool).
    additions: list[dict[str, Any]] = field(default_factory=list)
    # The scene state the game's builder reads (its BUILDER.scene_keys), as seen.
    scene: dict[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        # A trait's version rises on every edit; a reorder moves only its position.
        lines = [(t.pk, t.version, t.position) for t in self.traits]
        text = json.dumps(
            [lines, self.sheet_version]
            + [self.assets, sorted(self.counters.items()), self.target, self.box]
            + ([self.table] if self.table else [])
            + ([self.additions] if self.additions else [])
            + ([self.scene] if self.scene else []),
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def builder_inputs(
    campaign: Campaign,
    sheet: Sheet,
    state: Mapping,
    session: Mapping | None = None,
    *,
    live: bool = False,
) -> BuilderInputs:
    """`session`: the session Assets, when the caller has read them already. `live`: the
    player's own builder, whose roll takes the dice the GM added to it (table.pools.live_pool);
    other forms that build a pool from a sheet take none."""
    return BuilderInputs(
        traits=list(Trait.objects.filter(sheet=sheet).select_related("parent", "link")),
        sheet_version=sheet.version,
        assets=table_assets(campaign, state, session),
        counters=counters_of(sheet),
        target=scene_target(campaign, state),
        box=panel_box(campaign, state),
        table=from_the_table(campaign, sheet, state),
        additions=live_pool.addition_entries(campaign.pk, sheet.pk) if live else [],
        scene=scene_pieces(campaign, state),
    )


def scene_pieces(campaign: Campaign, state: Mapping) -> dict[str, Any]:
    """The scene state the game's builder reads (its BUILDER.scene_keys), from `state`,
    the scene as the member may see it."""
    builder = campaign.game.builder
    keys = builder.scene_keys if builder is not None else ()
    return {key: state[key] for key in keys if state.get(key)}


def table_assets(
    campaign: Campaign, state: Mapping, session: Mapping | None = None
) -> list[tuple[str, str, str]]:
    """SER-10, CTX-7: the scene's Assets, then the session's, as (name, die, scope).

    Read from the table on every request, so the builder offers (and the odds use)
    the dice the server will roll; `state` is the scene state the member may see.
    """
    builder = campaign.game.builder
    if builder is None or not builder.table_assets:
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


def build(
    campaign: Campaign, sheet: Sheet, data: Mapping, inputs: BuilderInputs, *, gm: bool
) -> Pool:
    """The pool of the builder's fields against its inputs: the request is the roll's,
    the GM's added dice in it, and its cost is the one the roll charges."""
    return build_pool(
        campaign.game,
        inputs.traits,
        data,
        counters=inputs.counters,
        character=sheet.name,
        target=inputs.target,
        table_assets=inputs.assets,
        table={**inputs.table, "gm": gm, "scene": inputs.scene},
        additions=inputs.additions,
        gm_side=gm and sheet.kind == Sheet.Kind.NPC,
    )


def target_of(data: Mapping, inputs: BuilderInputs) -> int | None:
    """The number the odds are against: one typed in the builder, else the table's."""
    target = whole_number(data.get("target"))
    if target is not None:
        return max(MIN_TARGET, min(MAX_TARGET, target))
    return inputs.target


def builder_for(campaign: Campaign, user, data: Mapping) -> tuple[Pool, int | None]:
    """Build the pool for data["sheet"] from the builder's fields (the odds fragment's)."""
    _, membership = get_campaign_for_user(user, campaign.pk)
    sheet = sheet_for_builder(campaign, membership, user, data.get("sheet"))
    state = scene_state(campaign, membership)
    inputs = builder_inputs(campaign, sheet, state, live=True)
    return build(campaign, sheet, data, inputs, gm=membership.is_gm), target_of(data, inputs)
