"""SCENE: what Serenity keeps for the scene besides the table's own (rules.kit.scene): the
contests' pieces every Cortex Plus game keeps (SER-7: a nameless side's stress, who was
taken out)."""

from __future__ import annotations

from ..kit.cortex_scene import CONTEST_PIECES

SCENE = CONTEST_PIECES
