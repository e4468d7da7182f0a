"""Exact odds of a Personae challenge (PER-1 … PER-5), without enumerating rolls.

Comparing two pools die by die, highest first, with ties yielded down the
pools, is the same as walking the totals from the highest down and comparing
how many dice each side shows at each total: the first total where the counts
differ decides, and the side with more dice there wins (a side out of dice
simply shows none). The first comparison is the first total either side shows.
So a dynamic programme over totals, from the top down, only needs how many dice
each side has left while the pools are still tied, and the number of ways to
show c of r remaining dice at a face f with the rest below is C(r, c)·(f−1)^(r−c).
Ten dice against ten take well under a millisecond.

Where rules.md leaves room the odds read it as the actions do:

- PER-1: a fixed number has no dice to yield to: on a tie an actor with another
  die wins by yielding, a single die leaves the tie unbroken.
- PER-4/PER-5: with a nat-10, winning by yielding is a clear success without
  criticals; a reactor's nat-10 settles a tied first comparison for the reactor.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..kit.errors import InvalidRequest

DIE = 10
CLEAR, GLANCING, FAILURE = "clear", "glancing", "failure"
MAX_DICE = 40


@dataclass(frozen=True)
class ChallengeOdds:
    """Chances of each grade for the actor, and the criticals a roll banks on average."""

    clear: Fraction
    glancing: Fraction
    failure: Fraction
    expected_criticals: Fraction

    @property
    def success(self) -> Fraction:
        return self.clear + self.glancing


def grade(first: int, final: int, actor_ten: bool, reactor_ten: bool) -> str:
    """PER-3, PER-4, PER-5 from the first and the deciding comparison (+1 the actor is
    ahead, 0 tied, −1 behind).

    Clear: won on the first comparison, or won by yielding with a nat-10 (no
    criticals then). Glancing: won by yielding without one, or saved by a nat-10
    from an unbroken tie or a loss. A reactor's nat-10 makes a tied first
    comparison a failure at once and cancels the actor's save (as
    rules/personae/challenges.py reads PER-4 and PER-5).
    """
    if first > 0:
        return CLEAR
    if first == 0 and reactor_ten:
        return FAILURE
    if final > 0:
        return CLEAR if actor_ten else GLANCING
    return GLANCING if actor_ten and not reactor_ten else FAILURE


def _dice_count(value: object, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_DICE:
        raise InvalidRequest(f"the {who} rolls between 1 and {MAX_DICE} dice")
    return value


def _cap(critical_cap: int | None) -> int:
    if critical_cap is None:
        return MAX_DICE
    if isinstance(critical_cap, bool) or not isinstance(critical_cap, int) or critical_cap < 0:
        raise InvalidRequest("the cap on criticals must be a whole number, 0 or more")
    return critical_cap


class _Tally:
    """Ways of each grade, and of criticals banked, out of `rolls` equally likely rolls."""

    def __init__(self, rolls: int) -> None:
        self.rolls = rolls
        self.ways = {CLEAR: 0, GLANCING: 0, FAILURE: 0}
        self.criticals = 0

    def add(self, ways: int, first: int, final: int, actor_ten: bool, reactor_ten: bool) -> None:
        self.ways[grade(first, final, actor_ten, reactor_ten)] += ways

    def odds(self) -> ChallengeOdds:
        def chance(ways: int) -> Fraction:
            return Fraction(ways, self.rolls)

        return ChallengeOdds(
            clear=chance(self.ways[CLEAR]),
            glancing=chance(self.ways[GLANCING]),
            failure=chance(self.ways[FAILURE]),
            expected_criticals=chance(self.criticals),
        )


def _showing(face: int, left: int) -> tuple[range, int]:
    """How many of `left` dice (all showing `face` or less) can show exactly `face`, and how
    many faces each die that does not has below it. Faces above 10 are not on the die;
    at face 1 every die left must show it."""
    if face > DIE:
        return range(1), DIE
    if face < 1:
        return range(1 if left == 0 else 0), 0
    return (range(left, left + 1) if face == 1 else range(left + 1)), face - 1


def challenge_odds(
    actor_dice: int,
    actor_bonus: int,
    reactor_dice: int,
    reactor_bonus: int,
    *,
    critical_cap: int | None = None,
) -> ChallengeOdds:
    """PER-1, PER-2, PER-3, PER-4, PER-5: the actor's n d10 + bonus against the reactor's
    m d10 + bonus.

    A bonus is the attribute plus modifiers. `critical_cap` is the most criticals
    one roll can bank (the Potential Threshold, or less when the campaign's bank
    limit is near); None leaves them uncapped.
    """
    n = _dice_count(actor_dice, "actor")
    m = _dice_count(reactor_dice, "reactor")
    cap = _cap(critical_cap)
    lead = actor_bonus - reactor_bonus
    tally = _Tally(DIE ** (n + m))
    # Pools still tied after yielding: (actor dice left, reactor dice left, actor nat-10) -> ways.
    tied: dict[tuple[int, int, bool], int] = {}
    for total in range(max(DIE + lead, DIE), min(1 + lead, 1) - 1, -1):
        actor_face, reactor_face = total - lead, total
        tied = _yield_step(tied, tally, actor_face, reactor_face)
        _first_comparison(tally, tied, (n, actor_face), (m, reactor_face), cap)
    for (_, _, actor_ten), ways in tied.items():
        tally.add(ways, 0, 0, actor_ten, False)
    return tally.odds()


def _first_comparison(
    tally: _Tally,
    tied: dict[tuple[int, int, bool], int],
    actor: tuple[int, int],
    reactor: tuple[int, int],
    cap: int,
) -> None:
    """The rolls whose first comparison (PER-1, PER-3) is at the current total: nothing
    showed higher, and a side shows dice here. `actor` and `reactor` are (dice rolled,
    the face that makes this total).

    A clear success banks its nat-10s (PER-4); a tie with a reactor's nat-10 fails at
    once (PER-5); other ties join `tied`, to be broken by yielding further down.
    """
    (n, actor_face), (m, reactor_face) = actor, reactor
    actor_shows, actor_below = _showing(actor_face, n)
    reactor_shows, reactor_below = _showing(reactor_face, m)
    actor_ten, reactor_ten = actor_face == DIE, reactor_face == DIE
    for a in actor_shows:
        for r in reactor_shows:
            if not a and not r:
                continue
            ways = comb(n, a) * comb(m, r)
            if a and r and a == r and not reactor_ten:
                key = (n - a, m - r, actor_ten)
                tied[key] = tied.get(key, 0) + ways
                continue
            ways *= actor_below ** (n - a) * reactor_below ** (m - r)
            first = (a > 0) - (r > 0)
            final = (a > r) - (a < r)
            if first > 0:
                tally.criticals += ways * (min(a, cap) if actor_ten else 0)
            if first < 0 and actor_face > DIE:
                # Beaten above anything the actor's dice show: a nat-10 among them saves it.
                without_ten = ways // DIE**n * (DIE - 1) ** n
                tally.add(ways - without_ten, first, final, True, reactor_ten)
                tally.add(without_ten, first, final, False, reactor_ten)
            else:
                tally.add(ways, first, final, actor_ten and a > 0, reactor_ten and r > 0)


def _yield_step(
    tied: dict[tuple[int, int, bool], int], tally: _Tally, actor_face: int, reactor_face: int
) -> dict[tuple[int, int, bool], int]:
    """One total further down for pools tied after yielding (PER-2): equal counts stay
    tied, otherwise the side showing more dice here wins. A reactor with a nat-10 never
    gets here (PER-5 settles the first tie)."""
    still: dict[tuple[int, int, bool], int] = {}
    for (actor_left, reactor_left, actor_ten), ways in tied.items():
        actor_shows, actor_below = _showing(actor_face, actor_left)
        reactor_shows, reactor_below = _showing(reactor_face, reactor_left)
        actor_terms = {a: comb(actor_left, a) for a in actor_shows}
        reactor_terms = {r: comb(reactor_left, r) for r in reactor_shows}
        ahead = behind = 0
        for a, actor_ways in actor_terms.items():
            actor_settled = actor_ways * actor_below ** (actor_left - a)
            for r, reactor_ways in reactor_terms.items():
                if a == r:
                    key = (actor_left - a, reactor_left - r, actor_ten)
                    still[key] = still.get(key, 0) + ways * actor_ways * reactor_ways
                    continue
                settled = actor_settled * reactor_ways * reactor_below ** (reactor_left - r)
                if a > r:
                    ahead += settled
                else:
                    behind += settled
        tally.add(ways * ahead, 0, 1, actor_ten, False)
        tally.add(ways * behind, 0, -1, actor_ten, False)
    return still


def number_odds(
    actor_dice: int, actor_bonus: int, difficulty: int, *, critical_cap: int | None = None
) -> ChallengeOdds:
    """PER-1 … PER-4 against a fixed number (as rules/personae/challenges.py reads it): the
    actor's highest die + bonus against the number. The number has no dice to yield, so on a
    tie an actor with another die wins by yielding and a single die leaves the tie
    unbroken. The actor's nat-10s apply; there is no reactor nat-10."""
    n = _dice_count(actor_dice, "actor")
    cap = _cap(critical_cap)
    tally = _Tally(DIE**n)
    for highest in range(1, DIE + 1):
        tens_counts = range(1, n + 1) if highest == DIE else range(1)
        for tens in tens_counts:
            if highest == DIE:
                ways = comb(n, tens) * (DIE - 1) ** (n - tens)
            else:
                ways = highest**n - (highest - 1) ** n
            total = highest + actor_bonus
            first = (total > difficulty) - (total < difficulty)
            final = first if first or n == 1 else 1
            tally.add(ways, first, final, tens > 0, False)
            if first > 0:
                tally.criticals += ways * min(tens, cap)
    return tally.odds()


ODDS_DECISIONS: dict[str, list[str]] = {
    "PER-1": [
        "Decision (odds): against a fixed number, a tie is won by yielding when the actor "
        "has another die and is unbroken with a single die.",
    ],
    "PER-4": [
        "Decision (odds): with a nat-10, winning by yielding is a clear success that banks no "
        "criticals; one roll banks at most a given cap (the Potential Threshold, or less "
        "near the campaign's bank limit).",
    ],
    "PER-5": [
        "Decision (odds): a reactor's nat-10 settles a tied first comparison for the reactor "
        "at once, and cancels the actor's nat-10 save.",
    ],
}
