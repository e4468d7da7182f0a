"""The active scene and session as one member may see them, read through the write
path's readers (table.writing.actions, and so through the gate): the pool builders,
the roll and the pool in the open read the scene here, and so does the scene panel.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.models import Campaign, Membership
from sheets.models import Counter, Sheet
from table.writing import actions


def scene_state(campaign: Campaign, membership: Membership) -> dict[str, Any]:
    """What the active scene keeps, as this member may see it
    (table.writing.actions.scene_state)."""
    return scene_snapshot(campaign, membership)[1]


def scene_snapshot(
    campaign: Campaign, membership: Membership
) -> tuple[Mapping[str, Any] | None, dict[str, Any]]:
    """(the active scene's id, title and description, or None; its state as this member
    may see it): one read of the active scene for both."""
    snapshot = actions.scene_state(campaign, membership.user, membership=membership)
    state = snapshot.get("state")
    return snapshot.get("scene"), dict(state) if isinstance(state, Mapping) else {}


def session_assets(campaign: Campaign, membership: Membership | None = None) -> dict[str, Any]:
    """SER-10: the session Assets, which last across scenes until the next session_start.
    Public (only a public event promotes one), so the same for every member; with a
    membership, table.writing.actions.session_state checks that member's role too."""
    user = membership.user if membership is not None else None
    snapshot = actions.session_state(campaign, user, membership=membership)
    assets = (snapshot.get("state") or {}).get("assets")
    return dict(assets) if isinstance(assets, Mapping) else {}


def scene_target(campaign: Campaign, state: Mapping[str, Any]) -> int | None:
    """The number to beat right now: a set difficulty, or the standing result of a contest.
    In some games a difficulty is a modifier to the roll (UNI-4), not a number to beat."""
    difficulty = state.get("difficulty")
    if not campaign.game.ui.difficulty_is_target:
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


def counters_of(sheet: Sheet) -> dict[str, int]:
    return {c.key: c.value for c in Counter.objects.filter(sheet=sheet)}
