"""Sheet templates: what a system's character sheet holds, as plain data.

The sheets app builds its forms, validation and import format from these, so a
sheet can never hold a trait the rules do not know how to roll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

TraitKind = Literal["die", "die_or_compound", "rating", "text"]


@dataclass(frozen=True)
class TraitGroup:
    """A group of traits on a sheet (Stylin's, Skills, Values, ...).

    kind: "die" (d4-d12), "die_or_compound" (also d12+dN, CTX-8), "rating"
    (a whole number between min_rating and max_rating), "text" (name and notes only).
    parent: key of the group each trait must be filed under (Refinement -> Stylin',
    Limit -> Ability). fixed_names: traits every sheet has and cannot rename or
    remove (Unisystem's six attributes, Smallville's stress types).
    flags: extra booleans a trait in this group can carry (e.g. "heritage").
    link_group: key of the group each trait links to (Smallville Limit -> Ability,
    Personae skill -> its attribute).
    table_owned: the group's dice change at the table (stress, complications, ...):
    players cannot change it on the sheet, and a GM's die change there (adding or
    removing a trait included) is an event in the roll log.
    default_flags: (name, flag) pairs: a trait added by one of these names (any case)
    starts with that flag on (a Unisystem "Kung Fu" skill is a combat skill).
    """

    key: str
    label: str
    kind: TraitKind
    default_die: int | None = None
    min_rating: int = 0
    max_rating: int = 0
    default_rating: int = 0
    parent: str | None = None
    fixed_names: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    max_traits: int = 60
    link_group: str | None = None
    help: str = ""
    table_owned: bool = False
    default_flags: tuple[tuple[str, str], ...] = ()

    def default_flag(self, name: str) -> str | None:
        wanted = name.casefold()
        return next((flag for known, flag in self.default_flags if known == wanted), None)


@dataclass(frozen=True)
class Counter:
    """A number on the sheet outside the trait groups: plot points, Life Points, ...

    table_owned: it changes at the table (plot points, Drama Points, criticals, ...):
    players cannot set it on the sheet, a GM's edit is an event in the roll log, and a
    player's new or imported character starts at `default` at most.
    capped_by: the key of another counter it may never exceed (Personae's criticals
    and the Potential Threshold, PER-6).
    derived: a pure function of the sheet's traits (objects with group, name, die,
    rating) giving the counter's value: a new sheet, a player's import and an edit of
    the traits it reads fill it in (an edit only while it still holds the value worked
    out before, so damage taken or a GM's own number stays); the GM may still change it.
    """

    key: str
    label: str
    minimum: int = 0
    maximum: int = 99
    default: int = 0
    help: str = ""
    table_owned: bool = False
    capped_by: str | None = None
    derived: Callable[[Sequence[Any]], int] | None = None

    def derive(self, traits: Sequence[Any]) -> int | None:
        """The value worked out from the traits, within the counter's bounds; None when
        the counter is not derived."""
        if self.derived is None:
            return None
        return max(self.minimum, min(self.maximum, self.derived(traits)))


@dataclass(frozen=True)
class SheetTemplate:
    groups: tuple[TraitGroup, ...]
    counters: tuple[Counter, ...]
    npc_kinds: tuple[str, ...] = ()

    def group(self, key: str) -> TraitGroup:
        for g in self.groups:
            if g.key == key:
                return g
        raise KeyError(key)

    def counter(self, key: str) -> Counter:
        for c in self.counters:
            if c.key == key:
                return c
        raise KeyError(key)

    def table_owned_counters(self) -> tuple[Counter, ...]:
        return tuple(c for c in self.counters if c.table_owned)

    def derived_counters(self) -> tuple[Counter, ...]:
        return tuple(c for c in self.counters if c.derived is not None)

    def table_owned_groups(self) -> tuple[TraitGroup, ...]:
        return tuple(g for g in self.groups if g.table_owned)
