"""Dice core shared by every system: sizes, steps, compound dice, pools.

Sizes are plain ints (4, 6, 8, 10, 12). A `Die` remembers which trait it came
from, so outcomes can say "Shoot d8 showed 7" rather than "a d8 showed 7".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .errors import InvalidDie, RulesError

SIZES: tuple[int, ...] = (4, 6, 8, 10, 12)
_DIE_RE = re.compile(r"^\s*d(\d{1,3})\s*(?:\+\s*d(\d{1,3})\s*)?$", re.IGNORECASE)


def die_name(size: int) -> str:
    return f"d{size}"


def parse_size(value: object) -> int:
    """Accept 8, "8", "d8" or "D8"; refuse anything that is not a die size."""
    if isinstance(value, bool):
        raise InvalidDie(f"{value!r} is not a die size")
    if isinstance(value, int):
        size = value
    elif isinstance(value, str):
        text = value.strip()
        match = re.fullmatch(r"[dD]?(\d{1,3})", text)
        if not match:
            raise InvalidDie(f"{text[:20] or 'an empty value'} is not a die size")
        size = int(match.group(1))
    else:
        raise InvalidDie(f"{str(value)[:20]} is not a die size")
    if size not in SIZES:
        raise InvalidDie(f"d{size} is not a die size (use d4, d6, d8, d10 or d12)")
    return size


def step_up(size: int) -> int:
    """One size up. A d12 cannot step up: callers with a rule for it (stress) catch this."""
    size = parse_size(size)
    if size == 12:
        raise RulesError("a d12 cannot step up")
    return SIZES[SIZES.index(size) + 1]


def step_down(size: int) -> int | None:
    """One size down; a d4 stepped down is removed (None)."""
    size = parse_size(size)
    if size == 4:
        return None
    return SIZES[SIZES.index(size) - 1]


@dataclass(frozen=True)
class Die:
    """One entry of a pool.

    `plus` is the second die of a compound "d12+dN" trait (CTX-8): both roll as
    one entry whose value is the sum. `big_hero` marks the Big Hero Die (CTX-6).
    """

    size: int
    trait: str = ""
    group: str = ""
    plus: int | None = None
    big_hero: bool = False
    tags: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        base = die_name(self.size) if self.plus is None else f"d{self.size}+d{self.plus}"
        return base

    @property
    def label(self) -> str:
        return f"{self.trait} {self.name}" if self.trait else self.name

    @property
    def face_count(self) -> int:
        """How many faces this entry consumes when rolled."""
        return 1 if self.plus is None else 2


def parse_die_spec(value: object, *, allow_compound: bool = False) -> tuple[int, int | None]:
    """Parse "d8" or (where allowed, CTX-8) "d12+d6" into (size, plus)."""
    if isinstance(value, str):
        match = _DIE_RE.match(value)
        if match and match.group(2) is not None:
            if not allow_compound:
                raise InvalidDie(f"{value.strip()} is not a die size here")
            size, plus = int(match.group(1)), int(match.group(2))
            if size != 12:
                raise InvalidDie(f"{value.strip()}: only a d12 can carry a plus die (d12+dN)")
            return 12, parse_size(plus)
    return parse_size(value), None


def parse_die(entry: object, *, allow_compound: bool = False, default_group: str = "") -> Die:
    """Build a Die from "d8", 8, or {"die": "d8", "trait": "Shoot", "group": "skills"}."""
    if isinstance(entry, Mapping):
        if "die" not in entry:
            raise InvalidDie("each die needs a size, like d8")
        size, plus = parse_die_spec(entry["die"], allow_compound=allow_compound)
        trait = entry.get("trait", "")
        group = entry.get("group", default_group)
        if not isinstance(trait, str) or not isinstance(group, str):
            raise InvalidDie("a die's trait and group must be text")
        if len(trait) > 80 or len(group) > 40:
            raise InvalidDie("a trait name is at most 80 characters")
        return Die(size=size, trait=trait, group=group, plus=plus)
    size, plus = parse_die_spec(entry, allow_compound=allow_compound)
    return Die(size=size, group=default_group, plus=plus)


MAX_POOL = 40


def parse_pool(
    entries: object, *, allow_compound: bool = False, default_group: str = "", what: str = "pool"
) -> list[Die]:
    """A list of dice from a request; pools are capped so nobody rolls a million dice."""
    if not isinstance(entries, list | tuple):
        raise InvalidDie(f"the {what} must be a list of dice")
    if len(entries) > MAX_POOL:
        raise InvalidDie(f"the {what} has {len(entries)} dice; at most {MAX_POOL} can be rolled")
    return [
        parse_die(e, allow_compound=allow_compound, default_group=default_group) for e in entries
    ]


def sizes_of(dice: Iterable[Die]) -> list[int]:
    return [d.size for d in dice]
