"""Cortex with slots: what a sheet needs before its first roll (CTX-1), and starter sheets."""

from __future__ import annotations

from ..kit.demo import dice
from ..kit.starting import Starter, rolled

# CTX-1: at least one die each from Attributes, Distinctions and Skills.
NEEDED = (("attributes", "an Attribute"), ("distinctions", "a Distinction"), ("skills", "a Skill"))


def ready(traits) -> tuple[str, ...]:
    """CTX-1: a pool takes a die from each of Attributes, Distinctions and Skills."""
    return tuple(what for group, what in NEEDED if not rolled(traits, group))


ATTRIBUTES = ("Agility", "Alertness", "Intelligence", "Strength", "Vitality", "Willpower")


def _attributes(*sizes: str) -> list[dict]:
    return [{"name": n, "die": d} for n, d in zip(ATTRIBUTES, sizes, strict=True)]


# Archetypes in the spirit of seed 001 (Attributes, Distinctions, Skills, Assets,
# Talents); the seed fixes no budget, so the dice are a starting point to edit.
STARTERS = (
    Starter(
        "brawler",
        "Two-fisted brawler",
        "Strong and tough, first into a fight: Strength and Vitality high, Fight and Athletics.",
        {
            "attributes": _attributes("d8", "d6", "d4", "d10", "d8", "d6"),
            "distinctions": dice(("Back-alley Boxer", "d8"), ("Hot-headed", "d8")),
            "skills": dice(("Fight", "d8"), ("Athletics", "d6"), ("Intimidate", "d6")),
            "assets": dice(("Brass Knuckles", "d6")),
            "talents": dice(("Haymaker", "d6")),
        },
    ),
    Starter(
        "scholar",
        "Curious scholar",
        "Knows things and notices more: Intelligence and Alertness high, Science and Notice.",
        {
            "attributes": _attributes("d6", "d8", "d10", "d4", "d6", "d8"),
            "distinctions": dice(("Well-read Academic", "d8"), ("Too Curious by Half", "d8")),
            "skills": dice(("Science", "d8"), ("Notice", "d8"), ("Languages", "d6")),
            "assets": dice(("Field Notebook", "d6")),
        },
    ),
    Starter(
        "face",
        "Smooth talker",
        "Gets in anywhere by talking: Willpower and Alertness high, Charm and Deceive.",
        {
            "attributes": _attributes("d6", "d8", "d6", "d4", "d6", "d10"),
            "distinctions": dice(("Silver Tongue", "d8"), ("Owes Everyone Money", "d8")),
            "skills": dice(("Charm", "d8"), ("Deceive", "d8"), ("Notice", "d6")),
            "assets": dice(("Forged Papers", "d6")),
        },
    ),
)
