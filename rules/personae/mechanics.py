"""Personae: who the game is, and its mechanics with their stable IDs (PER-1 … PER-9)."""

from __future__ import annotations

from ..kit.mechanics import Mechanic

SLUG = "personae"
NAME = "Personae"
PREFIX = "PER"
SOURCE = "Personae v4 — seed 003"

MECHANICS: tuple[Mechanic, ...] = (
    Mechanic(
        "PER-1",
        "Challenge",
        (
            "the actor and the reactor each declare a skill, roll that many d10 (plus "
            "bonus dice), sort descending, and add their attribute and modifiers to the "
            "highest die. The higher total wins."
        ),
        (),
    ),
    Mechanic(
        "PER-2",
        "Ties",
        (
            'both "yield" to their next-highest die (plus the same attribute and '
            "modifiers) and compare again, and so on. A side that runs out of dice while "
            "the other still has some loses the tie. Decision: if both run out together, "
            "the tie is not broken (see PER-4, PER-5)."
        ),
        ("Decision: if both run out together, the tie is not broken (see PER-4, PER-5).",),
    ),
    Mechanic(
        "PER-3",
        "Clear success",
        (
            "the actor wins on the first comparison. Glancing success: the actor wins "
            "only by yielding (success at a cost). Only clear successes are marked toward "
            "development points."
        ),
        (),
    ),
    Mechanic(
        "PER-4",
        "Actor's natural 10s",
        (
            "with one or more nat-10s the actor cannot fail outright: winning on the "
            "first comparison is a clear success and banks one critical per nat-10 (at "
            "most the Potential Threshold); winning by yielding is a success without "
            "criticals; an unbroken tie or a loss is a glancing success. Decision (not in "
            "the seed): when the reactor also rolled a nat-10, PER-5 overrides on ties "
            "and losses (the actor fails)."
        ),
        (
            "Decision (not in the seed): when the reactor also rolled a nat-10, "
            "PER-5 overrides on ties and losses (the actor fails).",
        ),
    ),
    Mechanic(
        "PER-5",
        "Reactor's natural 10",
        "the actor fails even on a tie. The reactor never banks criticals.",
        (),
    ),
    Mechanic(
        "PER-6",
        "Criticals",
        (
            "spend one before rolling for an automatic success, or after the ties are "
            "broken to steer a failure into a glancing success (or per a trait's text). "
            "Criticals can be given to another character. The campaign sets how many can "
            "be kept and for how long."
        ),
        (),
    ),
    Mechanic(
        "PER-7",
        "Assisting",
        (
            "each assistant (same kind of challenge, fitting skill) steers the primary "
            "actor's result one step: failure → glancing → clear. The primary actor is "
            "chosen before rolling (usually the highest rating)."
        ),
        (),
    ),
    Mechanic(
        "PER-8",
        "Concerted effort",
        (
            "a coordinator rolls their skill dice plus the other contributors' ratings in "
            "the skill, capped at the average Potential Threshold of the group + 2 dice; "
            "the coordinator's attribute is added; a successful attack deals one hit per "
            "participant."
        ),
        (),
    ),
    Mechanic(
        "PER-9",
        "Goals",
        (
            "a challenge records the actor's stated goal; after it, the actor says "
            "whether the challenge is extended."
        ),
        (),
    ),
)
