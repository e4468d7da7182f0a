"""Cortex with slots: what a sheet needs before its first roll (CTX-1), and starter sheets."""

from __future__ import annotations

from ..kit.starting import rolled

# CTX-1: at least one die each from Attributes, Distinctions and Skills.
NEEDED = (("attributes", "an Attribute"), ("distinctions", "a Distinction"), ("skills", "a Skill"))


def ready(traits) -> tuple[str, ...]:
    """CTX-1: a pool takes a die from each of Attributes, Distinctions and Skills."""
    return tuple(what for group, what in NEEDED if not rolled(traits, group))
