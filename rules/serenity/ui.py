"""What the pages show of Serenity Plus besides its rules (`rules.kit.ui` says what each
declaration means): the builder challenges a Value (SER-9) and adds plot-point dice
(SER-8), the GM rolls the situation's dice, and activates a complication from a roll
card (SER-3); while a player builds a pool, the GM may add the other side's
complications and stress to it (SER-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.ui import SITUATION_POOL, GameUi, PoolAdditions


def activate_complication(form: Mapping[str, Any]) -> dict[str, Any]:
    """SER-3: the GM's button on a roll card names the complication."""
    return {"complication": str(form.get("complication", "")).strip()[:80]}


UI = GameUi(
    challenge_groups=("values",),
    opposition=SITUATION_POOL,
    card_help=", activate complications",
    card_actions={"activate_complication": activate_complication},
    additions=PoolAdditions(
        groups=("complications", "stress"),
        note="SER-1: the other side's complications and stress join the roller's pool.",
    ),
)
