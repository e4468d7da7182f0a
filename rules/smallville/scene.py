"""SCENE: what Smallville keeps for the scene besides the contests' pieces (rules.kit.scene).

SMV-9: the Trouble Pool, the Watchtower's dice (and the 1s already paid against to take
one out); SMV-6: the Useful Details made in the scene, reused for free; SMV-5: the
Shut Downs of the scene, each with the seq of the event that shut the Ability down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.cortex_scene import CONTEST_PIECES
from ..kit.scene import BY_NAME, BY_SEQ, ScenePiece


def detail_lines(details: Any) -> list[str]:
    """SMV-6: each Useful Detail with its die ("Loose railing d6")."""
    if not isinstance(details, Mapping):
        return []
    out = []
    for name, detail in details.items():
        die = detail.get("die") if isinstance(detail, Mapping) else None
        out.append(f"{name} {die}" if die else str(name))
    return out


SCENE = (
    ScenePiece(
        key="trouble_pool",
        words="the Trouble Pool",
        expired="trouble pool",
        label="Trouble Pool",
        leads=True,
        partial="scene_trouble_pool",
    ),
    ScenePiece(key="trouble_answered"),
    ScenePiece(
        key="useful_details",
        cut=BY_NAME,
        words="the Useful Detail “{name}”",
        expired="useful details",
        label="Useful Details",
        lines=detail_lines,
    ),
    ScenePiece(key="shut_down", cut=BY_SEQ, words="the Shut Down of #{seq}", expired="shut down"),
    *CONTEST_PIECES,
)
