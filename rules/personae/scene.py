"""SCENE: what Personae keeps for the scene besides the table's own (rules.kit.scene): that
the scene's one concerted effort was made (with the seq of the event that made it)."""

from __future__ import annotations

from ..kit.scene import ScenePiece

SCENE = (ScenePiece(key="concerted_effort_used", words="the scene's concerted effort"),)
