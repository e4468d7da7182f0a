"""TOOLS: the GM sets the scene's difficulty and grants bonus dice for a character's next
challenge (PER-1), each from a block of the GM dashboard."""

from __future__ import annotations

from ..kit.tools import GameTools, GmTool

TOOLS = GameTools(
    difficulty="set_difficulty",
    gm_tools=(
        GmTool(
            action="grant_bonus_dice",
            title="Grant bonus dice",
            partial="bonus_dice",
            where="the GM dashboard's bonus dice",
        ),
    ),
)
