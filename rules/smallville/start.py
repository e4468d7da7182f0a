"""Smallville: what a sheet needs before its first roll (SMV-1), and starter sheets."""

from __future__ import annotations

from ..kit.starting import rolled


def ready(traits) -> tuple[str, ...]:
    """SMV-1: every roll has one Value die and one Relationship die, both free."""
    missing = []
    if not rolled(traits, "values"):
        missing.append("a Value with a die")
    if not rolled(traits, "relationships"):
        missing.append("a Relationship")
    return tuple(missing)
