"""TOOLS: the GM's number to beat (SER-5) and the contests (SER-6, SER-7, SER-10) on the
GM dashboard and the scene panel, as the Cortex Plus kit declares them."""

from __future__ import annotations

from ..kit.cortex_tools import contest_tools
from .actions import GAME
from .sheet import STRESS_TYPES

TOOLS = contest_tools(GAME.pool_groups, STRESS_TYPES)
