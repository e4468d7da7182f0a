"""Serenity Plus: what a sheet needs before its first roll (SER-1), and starter sheets."""

from __future__ import annotations

from ..kit.starting import rolled


def ready(traits) -> tuple[str, ...]:
    """SER-1: every pool has exactly one Stylin' die; the rest is optional."""
    if rolled(traits, "stylins"):
        return ()
    return ("a Stylin' with a die (how your character does things: Fightin', Fixin', …)",)
