"""Unisystem (CharLoft RPG), seed 004: one d10 plus traits against a target of 9.

Everything about the game is declared in this package: `mechanics` (its rules IDs and
their text), `sheet`, `rolls` (the d10, success levels, tasks, resisted actions),
`situations` (what is built on the roll), `actions`, `odds` and `decisions` (the app's
readings where rules.md leaves room). The names below are what `rules.kit.game` reads
into the registry.

`odds_queries` answers the odds fragment, `ui` says what the pages show of the game
besides its rules, `scores` computes a sheet's Ability Scores (UNI-8), and `demo`
is its demo campaign.
"""

from .actions import ACTIONS
from .builder import BUILDER
from .decisions import DECISIONS
from .demo import DEMO
from .mechanics import MECHANICS, NAME, PREFIX, SLUG, SOURCE
from .odds import ODDS_DECISIONS
from .odds_queries import ODDS
from .scene import SCENE
from .scores import SCORES
from .sheet import SHEET_TEMPLATE
from .start import STARTERS
from .start import ready as READY
from .start_here import START_HERE
from .table import ORDER, POINTS, TABLE
from .tools import TOOLS
from .ui import UI

__all__ = [
    "ACTIONS",
    "BUILDER",
    "DECISIONS",
    "DEMO",
    "MECHANICS",
    "NAME",
    "ODDS",
    "ODDS_DECISIONS",
    "ORDER",
    "POINTS",
    "PREFIX",
    "READY",
    "SCORES",
    "SCENE",
    "SHEET_TEMPLATE",
    "SLUG",
    "SOURCE",
    "START_HERE",
    "STARTERS",
    "TABLE",
    "TOOLS",
    "UI",
]
