"""The scene state the Cortex Plus games' contests and stress keep (`rules.kit.cortex_table`),
declared once for each game that plays them (its SCENE: rules.kit.scene).

SER-7 / SMV-10: a side without a sheet holds its stress in the scene, by its name; past d12
a side is taken out of the scene, listed with the seq of the event that took it out.
"""

from __future__ import annotations

from .scene import BY_NAME, BY_SEQ, ScenePiece

SIDE_STRESS = ScenePiece(
    key="side_stress", cut=BY_NAME, words="the stress of {name}", expired="side stress"
)
TAKEN_OUT = ScenePiece(
    key="taken_out",
    cut=BY_SEQ,
    words="who was taken out in #{seq}",
    expired="taken out",
    label="Taken out",
    partial="scene_taken_out",
)

CONTEST_PIECES = (SIDE_STRESS, TAKEN_OUT)
