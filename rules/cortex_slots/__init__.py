"""Cortex with Total and Effect slots, the Bank and Hitches (seed 001, CTX-1 … CTX-9).

Everything about the game is declared in this package: its mechanics and rules
IDs (`mechanics`), its sheet (`sheet`), how a roll is read and scored (`rolls`),
what plot points and advance points buy (`spends`), its actions (`actions`), its odds (`odds`) and
the app's readings of the rules (`decisions`). The registry reads the names below.
"""

from .actions import ACTIONS
from .decisions import DECISIONS
from .mechanics import MECHANICS, NAME, PREFIX, SLUG, SOURCE
from .odds import ODDS_DECISIONS
from .sheet import SHEET_TEMPLATE

__all__ = [
    "ACTIONS",
    "DECISIONS",
    "MECHANICS",
    "NAME",
    "ODDS_DECISIONS",
    "PREFIX",
    "SHEET_TEMPLATE",
    "SLUG",
    "SOURCE",
]
