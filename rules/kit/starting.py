"""Starting a character: what a sheet needs before its first roll, and starter sheets.

A game package may expose READY, a function of a sheet's traits returning what is still
missing for a legal pool, each item in the game's own words ("a Distinction"); an empty
tuple means the sheet is ready to roll. A game that declares none gets `default_ready`:
one trait with a die or a rating. It may also expose STARTERS, starter sheets a player
picks on New sheet and then edits, as plain data in the import format's terms.

A trait here is anything with `group`, `name`, `die`, `rating` and `link_id` (a sheet's
rows, or `Line` in tests and starters), so the sheets app asks without naming a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .sheet import SheetTemplate

ReadyCheck = Callable[[Sequence[Any]], tuple[str, ...]]


@dataclass(frozen=True)
class Line:
    """A trait as the checks read it, for starters and tests."""

    group: str
    name: str
    die: int | None = None
    rating: int | None = None
    link_id: int | None = None
    id: int = 0


def rolled(traits: Sequence[Any], group: str, *, min_rating: int | None = None) -> list[Any]:
    """The group's traits that bring something to a roll: a die, or a rating (at least
    `min_rating` when given)."""
    found = []
    for t in traits:
        if t.group != group:
            continue
        if t.die:
            found.append(t)
        elif t.rating is not None and (min_rating is None or t.rating >= min_rating):
            found.append(t)
    return found


def rating_of(traits: Sequence[Any], group: str, name: str, default: int = 0) -> int:
    """A named trait's rating (a fixed attribute's, say), or `default` when it has none."""
    wanted = name.casefold()
    for t in traits:
        if t.group == group and t.name.casefold() == wanted and t.rating is not None:
            return t.rating
    return default


def default_ready(template: SheetTemplate) -> ReadyCheck:
    """A game that says nothing: one trait a player keeps (not the table's) with a die or
    a rating is enough to roll."""
    own = [g for g in template.groups if not g.table_owned and g.kind != "text"]

    def ready(traits: Sequence[Any]) -> tuple[str, ...]:
        if any(rolled(traits, g.key) for g in own):
            return ()
        labels = " or ".join(g.label for g in own) or "traits"
        return (f"a trait to roll: one of your {labels} with a die or a rating",)

    return ready


@dataclass(frozen=True)
class Starter:
    """A starter sheet: an archetype a player picks and then edits. `traits` and
    `counters` are in the import format's terms (traits by group, dice as "d8")."""

    key: str
    name: str
    summary: str
    traits: Mapping[str, list[dict]]
    counters: Mapping[str, int] = field(default_factory=dict)
    notes: str = ""

    def document(self) -> dict:
        """The import document's body (its header and name are the sheets app's)."""
        return {
            "kind": "pc",
            "notes": self.notes,
            "counters": dict(self.counters),
            "traits": {k: [dict(row) for row in rows] for k, rows in self.traits.items()},
        }

    def lines(self) -> list[Line]:
        """Its traits as the ready check reads them (a link by name becomes an id)."""
        ids: dict[tuple[str, str], int] = {}
        out: list[Line] = []
        rows = [(group, row) for group, items in self.traits.items() for row in items]
        for number, (group, row) in enumerate(rows, start=1):
            ids[(group, row["name"].casefold())] = number
        for number, (group, row) in enumerate(rows, start=1):
            die = row.get("die")
            link = row.get("link")
            out.append(
                Line(
                    group=group,
                    name=row["name"],
                    die=int(str(die).split("+")[0][1:]) if die else None,
                    rating=row.get("rating"),
                    link_id=_linked(ids, link) if link else None,
                    id=number,
                )
            )
        return out


def _linked(ids: Mapping[tuple[str, str], int], name: str) -> int | None:
    wanted = name.casefold()
    return next((i for (_, n), i in ids.items() if n == wanted), None)


@dataclass(frozen=True)
class StartHere:
    """A game's "Start here" page, as data: what a roll is made of, what the GM sets,
    what the first scene looks like and what to tap first, each a few short paragraphs
    in the game's words, with the rules IDs they summarise (the page links them)."""

    roll: tuple[str, ...]
    gm_sets: tuple[str, ...]
    first_scene: tuple[str, ...]
    first_taps: tuple[str, ...]
    rules: tuple[str, ...] = ()


def default_start_here(template: SheetTemplate) -> StartHere:
    """A game that declares no Start here page: what its sheet says, and the table's
    common steps."""
    own = [g.label for g in template.groups if not g.table_owned and g.kind != "text"]
    return StartHere(
        roll=(
            "A roll is built from your character's traits: "
            + (", ".join(own) or "its traits")
            + ". Tap the ones that fit what you are doing and roll them together.",
        ),
        gm_sets=("The GM starts the scene and sets what you roll against.",),
        first_scene=(
            "The GM starts a scene with a title on the GM dashboard and says what is going on.",
        ),
        first_taps=(
            "Make your character on the Sheets page (New sheet).",
            "Open the table, tap traits on your character, then Roll.",
            "Read the card in the log: it says what the roll meant.",
        ),
    )
