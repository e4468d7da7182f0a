"""Unisystem: what a sheet needs before its first roll (UNI-1), starter sheets, and the
counters worked out from the attributes."""

from __future__ import annotations

from ..kit.demo import ratings
from ..kit.starting import Starter, rolled
from .sheet import ATTRIBUTES


def ready(traits) -> tuple[str, ...]:
    """UNI-1: a roll is a d10 plus an attribute (and a skill, or the attribute again)."""
    if rolled(traits, "attributes", min_rating=1):
        return ()
    return ("an attribute rated 1 or more",)


# Cast archetypes in the spirit of seed 004 (2 is an average human's attribute, skill
# 2 a proficient one's; Getting Medieval, Kung Fu, Occultism, Crime are its skills);
# the seed fixes no budget, so the ratings are a starting point to edit.
STARTERS = (
    Starter(
        "fighter",
        "Monster fighter",
        "Stakes first, questions later: Strength and Dexterity high, Kung Fu and Getting Medieval.",
        {
            "attributes": ratings(ATTRIBUTES, (4, 4, 3, 2, 3, 2)),
            "skills": [
                {"name": "Kung Fu", "rating": 3},
                {"name": "Getting Medieval", "rating": 3},
                {"name": "Acrobatics", "rating": 2},
                {"name": "Notice", "rating": 2},
            ],
        },
    ),
    Starter(
        "researcher",
        "Researcher",
        "Knows what the thing is and how to stop it: Intelligence high, Knowledge and Occultism.",
        {
            "attributes": ratings(ATTRIBUTES, (2, 2, 2, 4, 3, 3)),
            "skills": [
                {"name": "Knowledge", "rating": 4},
                {"name": "Occultism", "rating": 3},
                {"name": "Computers", "rating": 2},
                {"name": "Notice", "rating": 2},
            ],
        },
    ),
    Starter(
        "streetwise",
        "Streetwise",
        "Knows the town's dark corners: Dexterity and Perception high, Crime and Gun Fu.",
        {
            "attributes": ratings(ATTRIBUTES, (2, 3, 2, 2, 4, 3)),
            "skills": [
                {"name": "Crime", "rating": 3},
                {"name": "Gun Fu", "rating": 2},
                {"name": "Notice", "rating": 3},
                {"name": "Influence", "rating": 2},
            ],
        },
    ),
)
