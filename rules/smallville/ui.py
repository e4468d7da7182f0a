"""What the pages show of Smallville besides its rules (`rules.kit.ui` says what each
declaration means): the builder challenges a Value or Relationship (SMV-2), asks about
a Heritage (SMV-3) and adds plot-point dice, a new session frees the Resources
(SMV-7), and the GM adds a roll's 1s to the Trouble Pool from its card (SMV-9); while a
player builds a pool, the Watchtower may add the opponent's stress (SMV-4) or a Limit
(SMV-5) to it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..kit.ui import SITUATION_POOL, GameUi, PoolAdditions, small_int


def trouble(form: Mapping[str, Any]) -> dict[str, Any]:
    """SMV-9: the GM pays for the 1s the card offers, adding them to the Trouble Pool."""
    return {"operation": "add", "ones": small_int(form.get("ones")) or 1}


UI = GameUi(
    challenge_groups=("values", "relationships"),
    opposition=replace(SITUATION_POOL, dice_help=" Trouble Pool dice can be added to it."),
    session_note=", and Resources used last session are free again (SMV-7)",
    card_help=", add to the Trouble Pool",
    card_actions={"trouble": trouble},
    additions=PoolAdditions(
        groups=("stress", "limits"),
        note="SMV-4: the opponent's stress joins the pool (free once, then 1 plot point "
        "each); SMV-5: an opponent's Limit adds three dice of its size.",
    ),
)
