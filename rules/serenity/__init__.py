"""Serenity Plus (seed 000): Cortex Plus in the 'Verse, Leverage and Smallville style.

Everything about the game is declared in this package: its mechanics and rules
IDs (`mechanics`), its sheet (`sheet`), its actions (`actions`), its odds (`odds`) and the app's
readings of the rules (`decisions`). The registry reads the names below.
"""

from .actions import ACTIONS, GAME
from .decisions import DECISIONS
from .mechanics import MECHANICS, NAME, PREFIX, SLUG, SOURCE
from .odds import ODDS_DECISIONS
from .sheet import SHEET_TEMPLATE, STRESS_TYPES

__all__ = [
    "ACTIONS",
    "DECISIONS",
    "GAME",
    "MECHANICS",
    "NAME",
    "ODDS_DECISIONS",
    "PREFIX",
    "SHEET_TEMPLATE",
    "SLUG",
    "SOURCE",
    "STRESS_TYPES",
]
