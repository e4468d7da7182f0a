"""TOOLS: the GM sets the scene's difficulty, a named modifier to the roll (UNI-4), from
the GM dashboard."""

from __future__ import annotations

from ..kit.tools import GameTools

TOOLS = GameTools(difficulty="set_difficulty")
