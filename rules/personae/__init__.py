"""Personae v4 (seed 003): pools of d10s compared highest die first, ties yielded down the pool.

Everything about the game is declared in this package: its mechanics and rules
IDs (`mechanics`), its sheet (`sheet`), how a request is read (`reading`), the
challenge and what follows it (`challenges`), its actions (`actions`), its odds (`odds`) and the
app's readings of the rules (`decisions`). The registry reads the names below.
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
