"""Odds queries: what a game answers when a page asks for the odds, as plain data.

A game package exposes ODDS, an OddsQueries: `from_fields` reads the odds fragment's own
fields (GET /c/<id>/odds/?pool=d8,d6&target=11), `from_request` the request its pool
builder built, against the table's number to beat. Both return an OddsReport: a title,
the sentence to show, the chance of success, more lines, and the chart's bars with the
first value that succeeds. The table lays a report out (a chart, a table of numbers)
without knowing which game made it. A game that declares no ODDS gets NO_ODDS, which
says so in words.

The field readers below are shared by every game's `from_fields`: each refuses what it
cannot read with a RulesError, whose message the page shows instead of the odds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .dice import parse_die
from .errors import RulesError
from .odds import chart_rows

MAX_FIELD = 400
MAX_DICE = 40


@dataclass(frozen=True)
class Bar:
    """One value of the distribution: its exact chance and whether it succeeds."""

    value: int
    chance: Fraction
    success: bool

    @property
    def percent(self) -> str:
        return percent(self.chance)


@dataclass
class OddsReport:
    """The odds of one roll as a page shows them.

    `bars` are the chart's values, lowest first; the chart's target line goes before
    the first bar whose value is `first_success` or more (none when it is None), and
    is labelled `target_label`.
    """

    title: str = ""
    summary: str = ""
    chance: Fraction | None = None
    lines: list[str] = field(default_factory=list)
    bars: list[Bar] = field(default_factory=list)
    target_label: str = ""
    first_success: int | None = None


FieldsQuery = Callable[[Mapping[str, Any]], OddsReport]
RequestQuery = Callable[[Mapping[str, Any], int | None], OddsReport]


@dataclass(frozen=True)
class OddsQueries:
    """A game's odds: from the odds fragment's fields, and from a built pool's request.

    while_incomplete: the builder shows the odds even while it reports a problem with
    the pool (a missing goal does not change the chances); otherwise the odds wait
    until the pool can be rolled.
    """

    from_fields: FieldsQuery
    from_request: RequestQuery
    while_incomplete: bool = False


def _no_odds(*_args: object) -> OddsReport:
    raise RulesError("there are no odds for this game yet")


NO_ODDS = OddsQueries(from_fields=_no_odds, from_request=_no_odds)


# --------------------------------------------------------------------------- numbers in words


def percent(chance: Fraction | float) -> str:
    """A chance as a percentage with one decimal: "62.4%"; tiny non-zero chances say "<0.1%"."""
    value = float(chance) * 100
    if 0 < value < 0.05:
        return "<0.1%"
    if 99.95 <= value < 100:
        return ">99.9%"
    return f"{value:.1f}%"


def bars(chances: Mapping[int, Fraction], success: Callable[[int], bool]) -> list[Bar]:
    """The chart's bars of a finite distribution, lowest value first."""
    return [Bar(row.value, row.chance, success(row.value)) for row in chart_rows(chances)]


def mean(chances: Mapping[int, Fraction]) -> Fraction:
    return sum((Fraction(v) * p for v, p in chances.items()), Fraction(0))


# --------------------------------------------------------------------------- reading fields


def text(data: Mapping[str, Any], key: str) -> str:
    """A field as text; a repeated field (a QueryDict's list, a list) joined by commas."""
    if hasattr(data, "getlist"):
        values = [v for v in data.getlist(key) if v]
        return ",".join(values)[:MAX_FIELD]
    value = data.get(key, "")
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)[:MAX_FIELD]
    return str(value or "")[:MAX_FIELD]


def number(data: Mapping[str, Any], key: str, lo: int, hi: int) -> int | None:
    """A whole number between lo and hi, or None when the field is empty."""
    raw = text(data, key).strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise RulesError(f"{key.replace('_', ' ')} must be a whole number") from None
    if not lo <= value <= hi:
        raise RulesError(f"{key.replace('_', ' ')} must be between {lo} and {hi}")
    return value


def dice(data: Mapping[str, Any], key: str) -> list[str]:
    """Dice named in a field, "d8,d6" or "d8 d6" (d12+dN allowed), each checked."""
    raw = text(data, key).replace(" ", ",")
    found = [part for part in raw.split(",") if part]
    for die in found:
        parse_die(die, allow_compound=True)
    if len(found) > MAX_DICE:
        raise RulesError(f"at most {MAX_DICE} dice")
    return found
