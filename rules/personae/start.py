"""Personae: what a sheet needs before its first roll (PER-1), and starter sheets."""

from __future__ import annotations

from ..kit.demo import ratings
from ..kit.starting import Starter, rolled


def ready(traits) -> tuple[str, ...]:
    """PER-1: a challenge rolls a skill's d10s and adds its attribute to the highest."""
    attributes = rolled(traits, "attributes")
    skills = rolled(traits, "skills", min_rating=1)
    missing = []
    if not attributes:
        missing.append("an attribute with a rating (added to your highest die)")
    if not skills:
        missing.append("a skill rated 1 or more (how many d10s you roll)")
    elif attributes and not any(s.link_id in {a.id for a in attributes} for s in skills):
        missing.append("a skill linked to one of your attributes")
    return tuple(missing)


ATTRIBUTES = ("Might", "Finesse", "Wits", "Presence")


def _skill(name: str, rating: int, attribute: str) -> dict:
    return {"name": name, "rating": rating, "link": attribute}


# Archetypes in the spirit of seed 003 (a skill's d10s plus its attribute); the seed
# fixes no budget, so the ratings are a starting point to edit.
STARTERS = (
    Starter(
        "bruiser",
        "Bruiser",
        "Solves it up close: Might high, Brawl and Athletics.",
        {
            "attributes": ratings(ATTRIBUTES, (4, 2, 1, 2)),
            "skills": [
                _skill("Brawl", 3, "Might"),
                _skill("Athletics", 2, "Might"),
                _skill("Intimidation", 2, "Presence"),
            ],
        },
    ),
    Starter(
        "infiltrator",
        "Infiltrator",
        "Gets in and out unseen: Finesse high, Stealth and Acrobatics.",
        {
            "attributes": ratings(ATTRIBUTES, (1, 4, 3, 2)),
            "skills": [
                _skill("Stealth", 3, "Finesse"),
                _skill("Acrobatics", 2, "Finesse"),
                _skill("Investigation", 2, "Wits"),
            ],
        },
    ),
    Starter(
        "speaker",
        "Silver tongue",
        "Wins with words: Presence high, Persuasion and Insight.",
        {
            "attributes": ratings(ATTRIBUTES, (1, 2, 3, 4)),
            "skills": [
                _skill("Persuasion", 3, "Presence"),
                _skill("Insight", 2, "Wits"),
                _skill("Deception", 2, "Presence"),
            ],
        },
    ),
)
