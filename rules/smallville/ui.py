"""What the pages show of Smallville besides its rules (`rules.kit.ui` says what each
declaration means): the builder challenges a Value or Relationship (SMV-2), asks about
a Heritage (SMV-3) and adds plot-point dice, a new session frees the Resources
(SMV-7), and the GM adds a roll's 1s to the Trouble Pool from its card (SMV-9), a player
pays to take a die out of it from More actions; while a
player builds a pool, the Watchtower may add the opponent's stress (SMV-4) or a Limit
(SMV-5) to it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..kit import cards
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
    on_card,
    small_int,
)


def trouble(form: Mapping[str, Any]) -> dict[str, Any]:
    """SMV-9: the GM pays for the 1s the card offers, adding them to the Trouble Pool."""
    return {"operation": "add", "ones": small_int(form.get("ones")) or 1}


def remove_trouble(form: Mapping[str, Any]) -> dict[str, Any]:
    """SMV-9: a player's character (the form's sheet) pays 1 plot point to take a Trouble
    Pool die out against a 1 of the Watchtower's roll on card `seq` (the table reads
    the pool and the 1; the largest die it allows goes)."""
    return on_card(form, {"operation": "remove"})


def trouble_choices(
    action: str,
    request: Mapping[str, Any],
    outcome: Mapping[str, Any],
    traits: tuple[tuple[str, str, int | None], ...],
) -> list[tuple[str, dict[str, str]]]:
    """SMV-9: against the Watchtower's 1s, one tap pays to remove a Trouble Pool die."""
    ones = [str(d) for d in outcome.get("trouble_removal") or [] if d]
    if not ones:
        return []
    largest = max(ones, key=lambda die: int(die.lstrip("d")) if die.lstrip("d").isdigit() else 0)
    return [(f"Pay 1 plot point: remove a Trouble Pool die ({largest} or smaller)", {})]


# SMV-10: the GM runs a test with the player's pool from their sheet and the situation's dice.
TEST_FIELDS = {
    "player": FieldControl(POOL, take=("pool", "plot_points"), label="The player's pool"),
    "opposition": FieldControl(DICE, group="situation", wrap="pool", label="The opposition's dice"),
}
FROM_THE_TABLE = FieldControl(FROM_TABLE)
# The Cortex family's card, with the side pool's die (SMV-8) and a roll whose main dice
# all came up 1.
CARD = cards.CardReading(
    roles={**cards.CORTEX_ROLES, "side": cards.DieRole("side pool, counted", counted=True)},
    facts=(
        *cards.CORTEX_FACTS,
        cards.CardFact(
            "fails_outright", "Fails outright", cards.said_when_true("all main dice showed 1")
        ),
    ),
)

UI = GameUi(
    # SER-5, SMV-10: the opposition is the number to beat, from the table.
    **AGAINST_THE_TABLE,
    challenge_groups=("values", "relationships"),
    opposition=replace(SITUATION_POOL, dice_help=" Trouble Pool dice can be added to it."),
    session_note=", and Resources used last session are free again (SMV-7)",
    card_help=", add to the Trouble Pool",
    card_actions={"trouble": trouble},
    card_moves={"trouble": remove_trouble},
    card_move_picks={"trouble": trouble_choices},
    card=CARD,
    additions=PoolAdditions(
        groups=("stress", "limits"),
        note="SMV-4: the opponent's stress joins the pool (free once, then 1 plot point "
        "each); SMV-5: an opponent's Limit adds three dice of its size.",
    ),
    action_fields={
        "test": TEST_FIELDS,
        # SER-6, SMV-10: a GM side with no GM character rolls the dice the GM picks.
        "contest_roll": {
            "contest": FROM_THE_TABLE,
            "side": FROM_THE_TABLE,  # the side whose turn it is
            "pool": FieldControl(DICE, group="situation", label="The GM side's dice"),
            "side_pool": FieldControl(DICE, group="situation", label="Side dice"),
            "trouble_pool": FROM_THE_TABLE,
        },
        "stress": {"stress": FROM_THE_TABLE},
        "trouble": {"trouble_pool": FROM_THE_TABLE},
    },
    # SMV-9: a player pays 1 plot point to take a die out of the Trouble Pool, against a
    # 1 the Watchtower rolled (the earlier roll picked, or her latest with a 1 left).
    player_fields={
        "trouble": {
            "trouble_pool": FROM_THE_TABLE,
            "operation": FROM_THE_TABLE,
            "ones": FROM_THE_TABLE,
            "one_die": FROM_THE_TABLE,
        },
    },
    field_words={
        "trouble": {
            "operation": FieldWords(
                label="What to do",
                choices={
                    "add": "Add Trouble for a player's 1s (the Watchtower pays them)",
                    "remove": "Remove a Trouble Pool die (the player pays 1 plot point)",
                },
            ),
            "ones": FieldWords(label="How many 1s", help="adding: the 1s of the player's roll"),
            "one_die": FieldWords(
                label="The Watchtower's die that came up 1",
                help="removing: a Trouble Pool die of this size or smaller goes",
            ),
            "die": FieldWords(
                label="The Trouble Pool die to remove",
                help="of the size of the Watchtower's 1 or smaller; left empty, the largest",
            ),
        },
    },
)
