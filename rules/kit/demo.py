"""Demo campaigns as plain data: what `manage.py load_demo` creates for a game.

A game package may expose DEMO, a DemoCampaign: the campaign's name, description and
first scene, which demo player plays which characters, and its sheets. A sheet is
written in the sheet import format's own terms (name, kind, traits by group,
counters, notes...): the sheets app adds the format's header and checks every demo
sheet as it checks an import, so demo data can never hold what the forms refuse.
The demo players are the sheets app's ("alice", "bob"); None is the GM.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DemoSheet:
    owner: str | None  # the demo player who plays it; None: a GM character
    document: Mapping[str, Any]  # the import format's fields but its header


@dataclass(frozen=True)
class DemoCampaign:
    name: str
    description: str
    characters: Mapping[str, tuple[str, ...]]  # username -> the names of their characters
    scene: tuple[str, str]  # the first scene's title and description
    sheets: tuple[DemoSheet, ...] = ()


def sheet(
    owner: str | None,
    name: str,
    traits: Mapping[str, list[dict]],
    counters: Mapping[str, int] | None = None,
    **extra: Any,
) -> DemoSheet:
    """A demo sheet: `extra` holds kind ("pc" unless said), npc_kind, hidden, notes."""
    document = {
        "name": name,
        "kind": extra.pop("kind", "pc"),
        **extra,
        "counters": dict(counters or {}),
        "traits": dict(traits),
    }
    return DemoSheet(owner, document)


def dice(*pairs: tuple[str, str], **filed_under: str) -> list[dict]:
    """Traits with dice, ("Freedom", "d10"), ...; `parent=` or `link=` files each under a trait."""
    key, value = next(iter(filed_under.items())) if filed_under else (None, None)
    rows = []
    for name, die in pairs:
        row = {"name": name, "die": die}
        if key:
            row[key] = value
        rows.append(row)
    return rows


def fixed_dice(names: Iterable[str], default: str | None = None, **held: str) -> list[dict]:
    """Every trait of a fixed list (stress types, Values), with the dice named by their
    lowercased name and `default` for the rest."""
    return [{"name": n, "die": held.get(n.lower(), default)} for n in names]


def ratings(names: Sequence[str], values: Sequence[int]) -> list[dict]:
    """Rated traits, names and ratings in the same order."""
    return [{"name": n, "rating": r} for n, r in zip(names, values, strict=True)]
