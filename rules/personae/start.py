"""Personae: what a sheet needs before its first roll (PER-1), and starter sheets."""

from __future__ import annotations

from ..kit.starting import rolled


def ready(traits) -> tuple[str, ...]:
    """PER-1: a challenge rolls a skill's d10s and adds its attribute to the highest."""
    attributes = rolled(traits, "attributes")
    skills = rolled(traits, "skills", min_rating=1)
    missing = []
    if not attributes:
        missing.append("an attribute with a rating (added to your highest die)")
    if not skills:
        missing.append("a skill rated 1 or more (how many d10s you roll)")
    elif attributes and not any(s.link_id in {a.id for a in attributes} for s in skills):
        missing.append("a skill linked to one of your attributes")
    return tuple(missing)
