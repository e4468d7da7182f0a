"""SCENE: what Cortex Prime keeps for the scene besides the table's own (rules.kit.scene).

The rolls kept for the scene (each by its seq, for a Bank move or a bought hitch: CTX-4),
the hitches bought from them, and the Opportunities bought (CTX-7), each with the seq of
the event that bought it.
"""

from __future__ import annotations

from ..kit.scene import BY_NAME, BY_SEQ, ScenePiece

SCENE = (
    # A kept roll's seq may be a blind roll's: its words do not name it.
    ScenePiece(key="rolls", cut=BY_NAME, words="the kept roll"),
    ScenePiece(
        key="held_hitches",
        cut=BY_SEQ,
        words="the hitch bought in #{seq}",
        expired="held hitches",
        label="Bought hitches",
        partial="scene_held_hitches",
    ),
    ScenePiece(key="opportunities", cut=BY_SEQ, words="the Opportunity of #{seq}"),
)
