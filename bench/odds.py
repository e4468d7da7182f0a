"""Benchmark of the exact odds: median milliseconds of cold computations.

Run from the repository root: `.venv/bin/python bench/odds.py [--json] [--repeat N]`.
Caches are cleared before every run, so each figure is a computation from scratch.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.kit import cortex_odds  # noqa: E402
from rules.personae import odds as personae_odds  # noqa: E402
from rules.unisystem import odds as uni_odds  # noqa: E402

MIXED_5 = [4, 6, 8, 10, 12]
MIXED_12 = [4, 6, 8, 10, 12, 4, 6, 8, 10, 12, 6, 8]
MIXED_20 = [4, 6, 8, 10, 12] * 4
PLAYER_6 = [10, 8, 6, 12, 8, 6]
GM_6 = [8, 8, 6, 6, 10, 4]


def _opposed() -> object:
    return cortex_odds.chance_pool_beats(
        cortex_odds.serenity_outcomes(PLAYER_6), cortex_odds.serenity_outcomes(GM_6)
    )


CASES: dict[str, tuple[str, float, Callable[[], object]]] = {
    "cortex_joint_5": (
        "(result, effect) of d4 d6 d8 d10 d12",
        5.0,
        lambda: cortex_odds.serenity_outcomes(MIXED_5),
    ),
    "cortex_joint_12": (
        "(result, effect) of 12 mixed dice",
        3.0,
        lambda: cortex_odds.serenity_outcomes(MIXED_12),
    ),
    "cortex_joint_20": (
        "(result, effect) of four each d4…d12",
        5.0,
        lambda: cortex_odds.serenity_outcomes(MIXED_20),
    ),
    "cortex_opposed_6v6": ("P(6 dice beat 6 dice)", 2.0, _opposed),
    "personae_10v10": (
        "10d10+3 vs 10d10+2, all grades",
        5.0,
        lambda: personae_odds.challenge_odds(10, 3, 10, 2, critical_cap=3),
    ),
    "unisystem_resisted": (
        "resisted +8 vs +10, open-ended",
        2.0,
        lambda: uni_odds.resisted_chances(8, 10),
    ),
}


def median_ms(compute: Callable[[], object], repeat: int) -> float:
    """Median wall time of `repeat` cold runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        cortex_odds.clear_caches()
        start = time.perf_counter()
        compute()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object of medians")
    parser.add_argument("--repeat", type=int, default=25, help="runs per case (default 25)")
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    medians = {name: median_ms(compute, repeat) for name, (_, _, compute) in CASES.items()}
    if args.json:
        print(json.dumps({name: round(ms, 4) for name, ms in medians.items()}))
        return
    print(f"{'case':<20} {'what':<38} {'median ms':>10} {'target':>8}")
    for name, (what, target, _) in CASES.items():
        verdict = "ok" if medians[name] <= target else "SLOW"
        print(f"{name:<20} {what:<38} {medians[name]:>10.3f} {target:>8.1f}  {verdict}")
    print(f"({repeat} cold runs each, median)")


if __name__ == "__main__":
    main()
