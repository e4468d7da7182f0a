"""Smallville: who the game is, and its mechanics with their stable IDs (SMV-1 … SMV-10)."""

from __future__ import annotations

from ..kit.mechanics import Mechanic

SLUG = "smallville"
NAME = "Smallville"
PREFIX = "SMV"
SOURCE = "Smallville (the Watchtower is the GM) — seed 002"

MECHANICS: tuple[Mechanic, ...] = (
    Mechanic(
        "SMV-1",
        "Free dice",
        "one Value die and one Relationship die (both always).",
        (),
    ),
    Mechanic(
        "SMV-2",
        "Challenging",
        (
            "challenging a Value or Relationship gives three dice of its size instead of "
            "one; that trait steps down at the end of the conflict."
        ),
        (),
    ),
    Mechanic(
        "SMV-3",
        "Abilities and Distinctions",
        (
            "One Ability or Distinction die for free (Heritage only when the roll is "
            "about the Heritage); more cost 1 plot point each."
        ),
        (),
    ),
    Mechanic(
        "SMV-4",
        "The opponent's stress",
        (
            "The opponent's stress of a fitting type adds that die (free once; more "
            "stress dice of anyone cost 1 plot point each)."
        ),
        (),
    ),
    Mechanic(
        "SMV-5",
        "Limits",
        (
            "Using an opponent's Limit adds three dice of that Limit's size; on a win, "
            "the opponent's linked Ability can be Shut Down for 1 plot point, free if the "
            "opponent was stressed out."
        ),
        (),
    ),
    Mechanic(
        "SMV-6",
        "Useful Detail",
        (
            "1 plot point, a d6 that lasts the scene and can be reused in it for free. "
            "The Watchtower may instead take a die of any size out of the Trouble Pool "
            "for hers."
        ),
        (),
    ),
    Mechanic(
        "SMV-7",
        "Side pool",
        (
            "Resource dice, free when on the sheet and unused this session, 1 plot point "
            "each otherwise; rolled apart from the main pool; their 1s are not "
            "complications."
        ),
        (),
    ),
    Mechanic(
        "SMV-8",
        "Result",
        (
            "the two highest main dice (1s excluded) plus the highest side die. Plot "
            "points add more main dice to the result, 1 each."
        ),
        (),
    ),
    Mechanic(
        "SMV-9",
        "Complications",
        (
            "main-pool 1s are set aside. All main dice showing 1: the roll fails "
            "outright. When a player rolls, the Watchtower may pay 1 plot point per 1 to "
            "add a die to the Trouble Pool (a d6 per 1; decision: the seed does not size "
            "it, Smallville's own rule is a d6 stepped up by further 1s). When the "
            "Watchtower rolls and gets 1s, the opposing player may pay 1 plot point to "
            "remove one Trouble Pool die of that size or smaller."
        ),
        (
            "Decision: the seed does not size it; Smallville's own rule is a d6, stepped up by further 1s.",
        ),
    ),
    Mechanic(
        "SMV-10",
        "Contests and stress",
        (
            "Contests and stress work as SER-6 and SER-7 (stress types: Afraid, Angry, "
            "Exhausted, Injured, Insecure)."
        ),
        (),
    ),
)
