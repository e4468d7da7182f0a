"""The d10 games at the table (Personae, Unisystem): the scene's difficulty, set by the GM.

A player's roll takes the difficulty the GM set for the scene, never the request's; one set
behind the screen is rolled against only blind (PER-1, UNI-4). The Cortex Plus games set
their number to beat with the same `SetDifficulty` (SER-5, SMV-10; rules.kit.cortex_table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .table import BLIND, PUBLIC, ActionError, Table, Transition

# The refusal for another side given as numbers: a player names it, the GM gives numbers.
NAME_THE_OTHER_SIDE = (
    "Name the character you roll against; the GM gives the numbers of one without a sheet."
)
NAME_THE_HELPERS = (
    "Name each character who works with you by their sheet; the GM gives the numbers of one "
    "without a sheet."
)
NO_DIFFICULTY = (
    "The GM has not set a difficulty for this scene: ask the GM for one, or name the "
    "character you challenge (table.target)."
)
SECRET_DIFFICULTY = (
    "The GM set the difficulty behind the screen: roll blind, and the GM sees how it went "
    "and reveals it."
)


def scene_difficulty(ctx: Table) -> tuple[dict[str, Any] | None, bool]:
    """PER-1, UNI-4: the difficulty the GM set for the scene, as stored, and whether it is
    hidden from the actor (set behind the screen and not revealed yet)."""
    if not ctx.in_scene:
        return None, False
    current = ctx.data.get("difficulty")
    if not isinstance(current, dict) or current.get("value") is None:
        return None, False
    return current, current != ctx.seen_data.get("difficulty")


def player_difficulty(ctx: Table) -> dict[str, Any] | None:
    """The difficulty a player's roll takes: the GM's, whatever the request says. One set
    behind the screen only in a blind roll, as a public card would show it to players."""
    current, hidden = scene_difficulty(ctx)
    if current is not None and hidden and ctx.visibility != BLIND:
        raise ActionError(SECRET_DIFFICULTY)
    return current


class SetDifficulty(Transition):
    """PER-1, UNI-4: the GM sets the scene's difficulty (or clears it), in public or in
    secret. Kept as {"value", "seq"} like the Cortex GM pool's (Unisystem adds its preset);
    a difficulty set in secret shows to players as set behind the screen."""

    gm_only = True
    needs_scene = True

    def precheck(self, ctx: Table) -> None:
        if ctx.request.get("clear") is True and ctx.visibility != PUBLIC:
            raise ActionError("Clear the difficulty in the open: the players need to know.")

    def record(self, outcome: dict[str, Any]) -> dict[str, Any]:
        """What the scene keeps of the difficulty: its value (the game may add more)."""
        return {"value": outcome["difficulty"]}

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        if outcome.get("difficulty") is None:
            ctx.data.pop("difficulty", None)
            ctx.note(difficulty=None)
            return
        record = self.record(outcome)
        if outcome.get("note"):
            record["note"] = outcome["note"]
        ctx.data["difficulty"] = {**record, "seq": ctx.seq}
        if ctx.visibility != PUBLIC:
            # Players see that a difficulty is set, not the older one it replaced.
            ctx.veil_as.append((["difficulty"], {"secret": True}))
        ctx.note(difficulty=record["value"])


# Each grant of bonus dice is a scene-state key of its own ("bonus_dice_for_Ace"), so a
# void or a veil (table.log.undo.parts) touches one character's grant and no other's.
GRANT_PREFIX = "bonus_dice_for_"


def bonus_grant(data: Mapping[str, Any], sheet_id: int) -> tuple[str, dict[str, Any]] | None:
    """PER-1: (key, record) of the bonus dice granted to this character, if any."""
    for key, record in data.items():
        if (
            key.startswith(GRANT_PREFIX)
            and isinstance(record, dict)
            and record.get("sheet") == sheet_id
            and isinstance(record.get("dice"), int)
        ):
            return key, record
    return None
