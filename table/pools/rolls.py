"""The roll of a built pool: one function for every way a player rolls one.

The pool builder's Roll button (table.pages.table.pool_roll), chat's `/roll` (table.talk.chat, from
the chat form or the socket's "say") all call `roll_pool`, so they cannot drift apart:
the same picks make the same request, with the same dice from the table and the same
cost. It fills the pool from the table through the game's builder (the sheet's traits,
the scene's and session's Assets, the GM's difficulty and bonus dice, and the dice the
GM added to the roll while it was built: table.pools.live_pool), makes it the side's roll when
it is the character's turn in the game's panel box (table.pools.game_tools), performs it
through table.writing.actions, then clears the pool in the open and keeps the pool among the
character's recent ones (table.pools.recent).

Who may roll for the sheet is the caller's to check first (table.pools.builder.sheet_for_builder);
the action re-checks the role inside its transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.models import Campaign, Membership
from rules.kit.builder import Pool
from sheets.models import Sheet
from table.log import visibility
from table.models import TableEvent
from table.pools import live_pool
from table.pools import recent as recent_pools
from table.pools.builder import BuilderInputs, build, builder_inputs
from table.pools.game_tools import roll_on_turn
from table.pools.scene import scene_state
from table.writing import actions
from table.writing.actions import ActionError

NO_POOL = "Pick dice first."


@dataclass(frozen=True)
class RollTable:
    """What a roll reads from the table before its pool is built: the scene as the
    roller may see it, and the builder's inputs (the GM's added dice among them)."""

    state: Mapping[str, Any]
    inputs: BuilderInputs


@dataclass(frozen=True)
class Rolled:
    """A roll made: its event, the pool it rolled, and what the roller is told."""

    event: TableEvent
    pool: Pool
    message: str


def read_table(campaign: Campaign, membership: Membership, sheet: Sheet) -> RollTable:
    """The table as the roll reads it: the same inputs as the roller's own builder
    (`live`: with the dice the GM added to this roll)."""
    state = scene_state(campaign, membership)
    return RollTable(state, builder_inputs(campaign, sheet, state, live=True))


def roll_pool(
    campaign: Campaign,
    membership: Membership,
    user,
    sheet: Sheet,
    data: Mapping,
    *,
    visibility: str = "public",
    table: RollTable | None = None,
    expect: tuple[str, int] | None = None,
    before: Callable[[], None] | None = None,
    empty: str = NO_POOL,
) -> Rolled:
    """Build the pool of the builder's fields `data` (the picked traits and Assets, and
    the builder's options: target, and those the game reads on a side's turn) from the
    table, and roll it.

    `table`: what the caller read with `read_table` already (chat's `/roll` names the
    traits against it). `expect`: the socket's (audience, membership id), as for
    table.writing.actions.perform_in. `before`: called once the pool is ready to roll, before
    the roll (the HTTP views spend from the user's budget there). `empty`: the refusal
    when the fields make no pool. Raises ActionError (or a RulesError from the rules):
    then nothing is rolled, and the pool in the open stays as it was.
    """
    if table is None:
        table = read_table(campaign, membership, sheet)
    pool = build(campaign, sheet, data, table.inputs, gm=membership.is_gm)
    if pool.errors:
        raise ActionError(pool.errors[0])
    if pool.request is None:
        raise ActionError(empty)
    name, request = roll_request(campaign, sheet, pool, data, table.state)
    if before is not None:
        before()
    event = actions.perform_in(
        campaign.pk, user, name, request, sheet_id=sheet.pk, visibility=visibility, expect=expect
    )
    live_pool.clear(campaign, sheet)
    recent_pools.remember(campaign.pk, sheet.pk, pool, event)
    return Rolled(event, pool, told(event, membership))


def told(event: TableEvent, membership: Membership) -> str:
    """What the roller reads after the roll: its headline, or that a blind roll went to
    the GM."""
    audience = visibility.audience_of(membership)
    if visibility.sees(event, audience) and event.headline:
        return f"Rolled: {event.headline}"
    return visibility.acknowledgement(event, audience, "Rolled.")


def roll_request(
    campaign: Campaign, sheet: Sheet, pool: Pool, data: Mapping, state: Mapping
) -> tuple[str, dict[str, Any]]:
    """The action and request for a built pool: the side's roll when the sheet is the
    side whose move it is in the game's panel box (in a game that declares that roll);
    otherwise the game's roll."""
    req = dict(pool.request or {})
    return roll_on_turn(campaign, sheet, req, data, state) or (pool.action, req)
