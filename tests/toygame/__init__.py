"""Toy Dice: a sixth game that lives only here, to show a game needs nothing outside its
own package. The app registers it from its settings (EXTRA_GAMES = ["tests.toygame"]),
as it would any game kept outside rules/; the tests in this folder play it end to end.

A sheet of two traits, each a die; a roll takes one or both and keeps the highest die
against the scene's difficulty (TOY-1, TOY-2); the GM's hunch is a d20 rolled behind
the screen (TOY-3), from a block of the GM dashboard; a clue found is kept for the scene
(TOY-4: its SCENE). Its roll card, in its own words (UI), marks the die kept and a die
on its top face, and counts those. Everything below is what rules.kit.game reads.
"""

from .rules import (
    ACTIONS,
    BUILDER,
    DECISIONS,
    MECHANICS,
    NAME,
    ODDS,
    ODDS_DECISIONS,
    PREFIX,
    SCENE,
    SHEET_TEMPLATE,
    SLUG,
    SOURCE,
    TABLE,
    TOOLS,
    UI,
)

__all__ = [
    "ACTIONS",
    "BUILDER",
    "DECISIONS",
    "MECHANICS",
    "NAME",
    "ODDS",
    "ODDS_DECISIONS",
    "PREFIX",
    "SCENE",
    "SHEET_TEMPLATE",
    "SLUG",
    "SOURCE",
    "TABLE",
    "TOOLS",
    "UI",
]
