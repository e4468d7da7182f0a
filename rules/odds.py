"""Exact odds for the five systems, for the odds pages and charts.

Every chance is an exact Fraction computed from the rules, never by sampling
and never as a float; the charts turn them into percentages at the last moment.
Nothing here enumerates rolls, so large pools stay fast:

- Serenity Plus and Smallville (SER-2, SER-4, SER-5, SER-8, SER-10, SMV-7,
  SMV-8, SMV-9) and Cortex with slots (CTX-2, CTX-4, CTX-6, CTX-8):
  `rules.odds_cortex`, by conditioning on one order statistic of the pool.
- Personae (PER-1 … PER-5): `rules.odds_personae`, a walk over totals from the top.
- Unisystem (UNI-1, UNI-3, UNI-5, UNI-6, UNI-7): `rules.odds_unisystem`, open-ended
  rolls as a finite core plus geometric tails summed in closed form.

How the odds read the rules where rules.md leaves room (the same readings as
the system modules, so the odds match what `resolve` does with real faces):

- SER-2/SER-8: a plot-point die that finds no non-1 die left is not spent; all
  dice showing 1 is result 0 (a botch).
- SER-4: with no die left for the effect, the effect is a d4, counted with the
  rolls whose effect die really is a d4.
- SMV-7: a side die showing 1 adds nothing and is not a complication.
- SMV-9: all main dice showing 1 is result 0, whatever the side pool shows.
- CTX-2: the odds are those of the app's proposed split: the two highest values
  in the Total, the largest die the Total does not need in the Effect slot. Bank
  moves (CTX-3) happen after the roll and are not in these odds.
- CTX-4: a botch (3+ hitches) fails whatever the total; a botch in the GM's pool
  does not change the difficulty it sets.
- CTX-6: the Big Hero Die stays outside the split; it joins the Total unless the
  Total already wins without it, so the roll succeeds when Total + its face beats
  the difficulty and the roll is no botch.
- CTX-8: when a d12+dN's d12 shows 1, the entry is a hitch, the d12 adds nothing,
  the plus die adds its face and lends its own size to the Effect slot.
- PER-1: a fixed number has no dice to yield to: on a tie an actor with another
  die wins by yielding, a single die leaves the tie unbroken.
- PER-4/PER-5: with a nat-10, winning by yielding is a clear success without
  criticals; a reactor's nat-10 settles a tied first comparison for the reactor.
- UNI-5: a fixed Ability Score is that side's total (below 9 it never wins);
  equal totals matter only when both sides succeed.
- UNI-6/UNI-7: a reroll never starts the other chain (a 1 after a 10 adds 0).
"""

from __future__ import annotations

from .kit.odds import (
    ChartRow,
    Distribution,
    chance_to_beat,
    chart_rows,
    count_distribution,
    point_mass,
    product_distribution,
)
from .odds_cortex import (
    OnesOdds,
    chance_above,
    chance_extraordinary,
    chance_pool_beats,
    gm_pool_totals,
    hitch_odds,
    ones_odds,
    results,
    serenity_outcomes,
    side_pool_distribution,
    slots_beats_gm_chance,
    slots_outcomes,
    slots_placed_outcomes,
    slots_success_chance,
    smallville_outcomes,
)
from .odds_cortex import clear_caches as _clear_cortex_caches
from .odds_personae import ChallengeOdds, challenge_odds, number_odds
from .odds_unisystem import (
    LevelOdds,
    OpenEndedLaw,
    ResistedOdds,
    against_score,
    fixed_score,
    resisted_chances,
    resisted_odds,
    success_chance,
    success_level_odds,
    total_law,
)

DECISIONS: dict[str, list[str]] = {
    "SER-2": [
        "Decision (odds): a roll whose dice all show 1 has result 0 and counts as a botch.",
    ],
    "SER-4": [
        "Decision (odds): when no die is left for the effect, the effect is a d4; the odds "
        "count it together with rolls whose effect die is a d4.",
    ],
    "SER-8": [
        "Decision (odds): plot-point dice beyond the non-1 dice rolled add nothing and are "
        "not spent, so the result is then the sum of every non-1 die.",
    ],
    "SMV-7": [
        "Decision (odds): a side die showing 1 adds nothing (a 1 never counts toward a "
        "Cortex-family total) and is not a complication.",
    ],
    "SMV-9": [
        "Decision (odds): all main dice showing 1 is result 0, whatever the side pool shows.",
    ],
    "CTX-2": [
        "Decision (odds): chances are those of the proposed split, the two highest values "
        "in the Total and the largest die the Total does not need in the Effect slot; Bank "
        "moves (CTX-3) come after the roll and are left out.",
    ],
    "CTX-4": [
        "Decision (odds): a player's botch fails whatever the total; a GM pool that "
        "botches is an automatic failure of the opposition, so any roll that is not "
        "itself a botch beats it.",
    ],
    "CTX-6": [
        "Decision (odds): the Big Hero Die stays outside the split and joins the Total "
        "unless the Total already wins, so a roll succeeds when Total plus its face beats "
        "the difficulty and the roll is no botch.",
    ],
    "CTX-8": [
        "Decision (odds): when a d12+dN's d12 shows 1 the entry is a hitch, the d12 adds "
        "nothing, and the plus die adds its face and gives the effect level.",
    ],
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
    "UNI-3": [
        "Decision (odds): success levels are listed up to a chosen level; the chance of "
        "more is given as one exact remainder.",
    ],
    "UNI-5": [
        "Decision (odds): a fixed Ability Score is that side's total, so below 9 it never "
        "wins; equal totals matter only when both sides succeed; both failing is its own "
        "outcome.",
    ],
    "UNI-6": [
        "Decision (odds): the chains are summed exactly to any length; a 1 rerolled in a "
        "Rule of 10 chain only ends it (adds 0).",
    ],
    "UNI-7": [
        "Decision (odds): a 10 rerolled in a Rule of 1 chain only ends it (adds nothing).",
    ],
}


def clear_caches() -> None:
    """Forget memoised counts, so a benchmark measures cold computation."""
    _clear_cortex_caches()


__all__ = [
    "DECISIONS",
    "ChallengeOdds",
    "ChartRow",
    "Distribution",
    "LevelOdds",
    "OnesOdds",
    "OpenEndedLaw",
    "ResistedOdds",
    "against_score",
    "challenge_odds",
    "chance_above",
    "chance_extraordinary",
    "chance_pool_beats",
    "chance_to_beat",
    "chart_rows",
    "clear_caches",
    "count_distribution",
    "fixed_score",
    "gm_pool_totals",
    "hitch_odds",
    "number_odds",
    "ones_odds",
    "point_mass",
    "product_distribution",
    "resisted_chances",
    "resisted_odds",
    "results",
    "serenity_outcomes",
    "side_pool_distribution",
    "slots_beats_gm_chance",
    "slots_outcomes",
    "slots_placed_outcomes",
    "slots_success_chance",
    "smallville_outcomes",
    "success_chance",
    "success_level_odds",
    "total_law",
]
