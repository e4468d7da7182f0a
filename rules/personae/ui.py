"""What the pages show of Personae besides its rules (`rules.kit.ui` says what each
declaration means): skills are numbers of d10s, the panel shows criticals against the
Potential Threshold (PER-6), a player's builder takes the GM's difficulty and bonus
dice from the table (PER-1) and states its goal (PER-9), and the GM side rolls as a
reactor rather than from the dashboard; the actor answers a challenge from its card
(a critical steers a failure, PER-6; the challenge ends or goes on, PER-9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import cards
from ..kit.ui import CHARACTER, FROM_TABLE, PEOPLE, POOL, FieldControl, GameUi, OppositionRoll

# PER-6, PER-7, PER-8: banks and the reactor come from the sheets (the reactor is the
# form's other character); helpers are picked as characters.
FROM_THE_TABLE = FieldControl(FROM_TABLE)
ASSISTANTS = FieldControl(PEOPLE, label="Who assists")


def steer_failure(form: Mapping[str, Any]) -> dict[str, Any]:
    """PER-6: a banked critical steers the card's failure into a glancing success (the
    button is on a failed challenge's card only; the table reads the bank)."""
    return {"use": "steer_failure", "result": "failure"}


def extend_or_end(form: Mapping[str, Any]) -> dict[str, Any]:
    """PER-9: after the challenge on the card (its goal), it is over or goes on toward
    the goal typed beside "Go on"."""
    request: dict[str, Any] = {
        "goal": str(form.get("goal", "")).strip()[:300],
        "extended": str(form.get("extended", "")) == "yes",
    }
    next_goal = str(form.get("next_goal", "")).strip()[:300]
    if request["extended"] and next_goal:
        request["next_goal"] = next_goal
    return request


CONCERTED_EFFORT_FIELDS = {
    "coordinator": FieldControl(POOL, only="actor", label="The coordinator's roll"),
    "contributors": FieldControl(PEOPLE, by_id=True, label="Who contributes"),
    "reactor": FROM_THE_TABLE,
    "assistants": ASSISTANTS,
}


def banked(value: Any, outcome: Mapping[str, Any]) -> str | None:
    """PER-4, PER-6: the criticals a roll banked (its bank's account, when it banked any)."""
    if isinstance(value, Mapping):
        return f"{value['banked']} banked" if value.get("banked") else None
    return cards.plain(value, outcome)


# A compared die that showed 10 is a natural 10 (PER-4); a challenge banks criticals.
CARD = cards.CardReading(
    marks=(cards.DieMark(("nat_ten",), "natural 10"),),
    facts=(
        cards.RESULT,
        cards.TOTAL,
        cards.AGAINST,
        cards.DAMAGE,
        cards.MARGIN,
        cards.CardFact("criticals", "Criticals", banked),
        cards.OUTCOME,
    ),
)

UI = GameUi(
    panel_counters=("criticals", "potential_threshold"),
    builder_from_table=True,
    difficulty_help="A player's challenge without a reactor must beat it (PER-1).",
    target_field=False,
    against_group="skills",
    opposition=OppositionRoll(
        fields="rating",
        refusal=(
            "In Personae the GM side rolls as the reactor: roll for a GM character's sheet "
            "(under GM characters), or a player names it as the other side of a challenge."
        ),
    ),
    rating_labels={"skills": ("Dice for", "Dice (d10s)")},
    card_moves={"spend_critical": steer_failure, "extend_challenge": extend_or_end},
    action_fields={
        "assist": {
            "primary_actor": FieldControl(CHARACTER, label="Who acts"),
            "assistants": ASSISTANTS,
        },
        "give_critical": {"giver": FROM_THE_TABLE, "receiver": FROM_THE_TABLE},
        "concerted_effort": CONCERTED_EFFORT_FIELDS,
    },
    # PER-1, PER-8: a player's concerted effort is against the GM's difficulty, read from
    # the table; only the GM names another number.
    player_fields={"concerted_effort": {**CONCERTED_EFFORT_FIELDS, "difficulty": FROM_THE_TABLE}},
    card=CARD,
)
