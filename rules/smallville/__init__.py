"""Smallville (seed 002): free and paid dice, a side pool of Resources, the Trouble Pool.

Everything about the game is declared in this package: `mechanics` (its rules IDs and
their text), `sheet`, `actions` (pools and what they cost, trouble, Shut Down,
contests), `odds` and `decisions` (the app's readings where rules.md leaves room). The
names below are what `rules.kit.game` reads into the registry.

`odds_queries` answers the odds fragment, `ui` says what the pages show of the game
besides its rules, and `demo` is its demo campaign.

GAME (the Cortex Plus flows' view of the game) and STRESS_TYPES make its `tools`
(TOOLS: the GM's number to beat and the contests, on the dashboard and the scene panel).
"""

from .actions import ACTIONS, GAME
from .builder import BUILDER
from .decisions import DECISIONS
from .demo import DEMO
from .imports import FOUNDRY
from .mechanics import MECHANICS, NAME, PREFIX, SLUG, SOURCE
from .odds import ODDS_DECISIONS
from .odds_queries import ODDS
from .scene import SCENE
from .sheet import SHEET_TEMPLATE, STRESS_TYPES
from .start import STARTERS
from .start import ready as READY
from .start_here import START_HERE
from .table import ORDER, SESSION_FLAGS, TABLE
from .tools import TOOLS
from .ui import UI

__all__ = [
    "ACTIONS",
    "BUILDER",
    "DECISIONS",
    "DEMO",
    "FOUNDRY",
    "GAME",
    "MECHANICS",
    "NAME",
    "ODDS",
    "ODDS_DECISIONS",
    "ORDER",
    "PREFIX",
    "READY",
    "SESSION_FLAGS",
    "SCENE",
    "SHEET_TEMPLATE",
    "SLUG",
    "SOURCE",
    "START_HERE",
    "STARTERS",
    "TOOLS",
    "UI",
    "STRESS_TYPES",
    "TABLE",
]
