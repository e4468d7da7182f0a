"""Unisystem: what a sheet needs before its first roll (UNI-1), starter sheets, and the
counters worked out from the attributes."""

from __future__ import annotations

from ..kit.starting import rolled


def ready(traits) -> tuple[str, ...]:
    """UNI-1: a roll is a d10 plus an attribute (and a skill, or the attribute again)."""
    if rolled(traits, "attributes", min_rating=1):
        return ()
    return ("an attribute rated 1 or more",)
