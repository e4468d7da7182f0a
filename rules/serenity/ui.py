"""What the pages show of Serenity Plus besides its rules (`rules.kit.ui` says what each
declaration means): the builder challenges a Value (SER-9) and adds plot-point dice
(SER-8), the GM rolls the situation's dice, and activates a complication from a roll
card (SER-3); while a player builds a pool, the GM may add the other side's
complications and stress to it (SER-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.cards import CORTEX_CARD
from ..kit.cortex import PLAYER_BENEFITS
from ..kit.ui import (
    AGAINST_THE_TABLE,
    DICE,
    FROM_TABLE,
    POOL,
    SITUATION_POOL,
    FieldControl,
    FieldWords,
    GameUi,
    PoolAdditions,
)


def activate_complication(form: Mapping[str, Any]) -> dict[str, Any]:
    """SER-3: the GM's button on a roll card names the complication."""
    return {"complication": str(form.get("complication", "")).strip()[:80]}


# SER-5: the GM runs a test with the player's pool from their sheet and the situation's dice.
TEST_FIELDS = {
    "player": FieldControl(POOL, take=("pool", "plot_points"), label="The player's pool"),
    "opposition": FieldControl(DICE, group="situation", wrap="pool", label="The opposition's dice"),
}
FROM_THE_TABLE = FieldControl(FROM_TABLE)

UI = GameUi(
    # SER-5, SMV-10: the opposition is the number to beat, from the table.
    **AGAINST_THE_TABLE,
    challenge_groups=("values",),
    opposition=SITUATION_POOL,
    card_help=", activate complications",
    card_actions={"activate_complication": activate_complication},
    action_fields={
        "test": TEST_FIELDS,
        # SER-6, SMV-10: a GM side with no GM character rolls the dice the GM picks.
        "contest_roll": {
            "contest": FROM_THE_TABLE,
            "side": FROM_THE_TABLE,  # the side whose turn it is
            "pool": FieldControl(DICE, group="situation", label="The GM side's dice"),
        },
        "benefit": {"winner_pool": FROM_THE_TABLE, "loser_pool": FROM_THE_TABLE},
        "stress": {"stress": FROM_THE_TABLE},
        "activate_complication": {"complications": FROM_THE_TABLE},
    },
    # SER-10: a player claims the benefit of their own logged test, which gives the margin,
    # both pools and the winner; only the GM names a roll-off the table did not log.
    player_fields={
        "benefit": {
            key: FROM_THE_TABLE
            for key in ("winner_pool", "loser_pool", "gm", "margin", "stress_die")
        },
    },
    field_words={
        "benefit": {
            "benefit": FieldWords(label="The benefit", choices=dict(PLAYER_BENEFITS)),
            "gm": FieldWords(label="The winner is a GM character"),
            "target": FieldWords(help="the Asset, complication or stress it applies to"),
        },
        "contest_roll": {"plot_points": FieldWords(help="spent to add dice to the result")},
    },
    # SER-11: the pool builder suggests the awareness or knowledge pool in one tap.
    played_elsewhere={"awareness_pool": "the pool builder's suggestion"},
    additions=PoolAdditions(
        groups=("complications", "stress"),
        note="SER-1: the other side's complications and stress join the roller's pool.",
    ),
    card=CORTEX_CARD,
)
