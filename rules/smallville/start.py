"""Smallville: what a sheet needs before its first roll (SMV-1), and starter sheets."""

from __future__ import annotations

from ..kit.demo import dice, fixed_dice
from ..kit.starting import Starter, rolled
from .sheet import VALUES


def ready(traits) -> tuple[str, ...]:
    """SMV-1: every roll has one Value die and one Relationship die, both free."""
    missing = []
    if not rolled(traits, "values"):
        missing.append("a Value with a die")
    if not rolled(traits, "relationships"):
        missing.append("a Relationship")
    return tuple(missing)


def _values(**sizes: str) -> list[dict]:
    return fixed_dice(VALUES, "d4", **sizes)


# Archetypes in the spirit of seed 002 (a Value and a Relationship in every roll, an
# Ability or Distinction, Resources on the side); the seed fixes no budget, so the dice
# are a starting point to edit.
STARTERS = (
    Starter(
        "hero",
        "Hidden hero",
        "Gifted and hiding it: Duty and Love high, a power with a Limit, family close.",
        {
            "values": _values(duty="d10", love="d8", truth="d6"),
            "relationships": dice(("Best friend", "d8"), ("Mom", "d6")),
            "abilities": dice(("Super-Speed", "d8")),
            "distinctions": [{"name": "Farm Kid", "die": "d8"}, {"name": "Shy", "die": "d6"}],
            "limits": [{"name": "Meteor Rock Weakness", "die": "d8", "link": "Super-Speed"}],
            "locations": dice(("The family farm", "d6")),
        },
    ),
    Starter(
        "reporter",
        "Nosy reporter",
        "Digs up what the town hides: Truth high, a rival at school, the newspaper office.",
        {
            "values": _values(truth="d10", justice="d8", glory="d6"),
            "relationships": dice(("Editor", "d8"), ("Rival at school", "d6")),
            "distinctions": [
                {"name": "Investigative Reporter", "die": "d8"},
                {"name": "Stubborn", "die": "d6"},
            ],
            "locations": dice(("The school paper's office", "d6")),
            "extras": dice(("Helpful librarian", "d6")),
        },
    ),
    Starter(
        "heir",
        "Rich heir",
        "Money, ambition and a famous father: Power high, resources to spare.",
        {
            "values": _values(power="d10", glory="d8", love="d6"),
            "relationships": dice(("Father", "d10"), ("Only real friend", "d6")),
            "distinctions": [
                {"name": "Born Rich", "die": "d8"},
                {"name": "Cunning", "die": "d8"},
            ],
            "locations": dice(("The mansion", "d8")),
            "extras": dice(("Loyal driver", "d6")),
        },
    ),
)
