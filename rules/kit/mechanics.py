"""A mechanic as the rules pages show it: a stable ID, a title, the rule's text and the
decisions the rules digest takes on it. Each game declares its own in its package."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mechanic:
    id: str
    title: str
    text: str
    decisions: tuple[str, ...] = ()

    @property
    def prefix(self) -> str:
        return self.id.split("-")[0]
