"""Serenity Plus (seed 000): Cortex Plus in the 'Verse, Leverage and Smallville style.

Everything about the game is declared in this package: `mechanics` (its rules IDs and
their text), `sheet`, `actions` (pools, tests, contests, complications, benefits,
awareness), `odds` and `decisions` (the app's readings where rules.md leaves room). The
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
from .table import ORDER, TABLE
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
