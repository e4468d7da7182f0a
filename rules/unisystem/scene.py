"""SCENE: what Unisystem keeps for the scene (rules.kit.scene): a tracker per named lengthy
task (UNI-11) and per named chase (UNI-13), under "trackers" by kind and name, each named
by the table option its transition reads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.scene import BY_KIND_AND_NAME, ScenePiece


def _named(trackers: Any) -> list[tuple[str, Mapping[str, Any]]]:
    if not isinstance(trackers, Mapping):
        return []
    return [(str(n), t) for n, t in trackers.items() if isinstance(t, Mapping)]


def task_lines(tasks: Any) -> list[str]:
    """UNI-11: "Ritual: 2 / 5", and "(done)" once the levels are in."""
    return [
        f"{name}: {t.get('accumulated', '')} / {t.get('required_levels', '')}"
        + (" (done)" if t.get("complete") else "")
        for name, t in _named(tasks)
    ]


def chase_lines(chases: Any) -> list[str]:
    """UNI-13: "Alley: lead 1, turn 2 (running)"."""
    return [
        f"{name}: lead {t.get('lead', '')}, turn {t.get('turn', '')} ({t.get('status', '')})"
        for name, t in _named(chases)
    ]


SCENE = (
    ScenePiece(
        key="trackers",
        cut=BY_KIND_AND_NAME,
        kind="lengthy",
        words="the lengthy task “{name}”",
        expired="trackers",
        label="Lengthy tasks",
        lines=task_lines,
        named_by="task",
        name_label="Task name",
    ),
    ScenePiece(
        key="trackers",
        cut=BY_KIND_AND_NAME,
        kind="chase",
        words="the chase “{name}”",
        expired="trackers",
        label="Chases",
        lines=chase_lines,
        named_by="chase",
        name_label="Chase name",
    ),
)
