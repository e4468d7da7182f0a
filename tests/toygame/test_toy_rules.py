"""Toy Dice's rules and transitions, with no database: what the package declares is all a
game is (TOY-1, TOY-2, TOY-3, TOY-4)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.kit.actions import resolve
from rules.kit.game import game_from_package
from rules.kit.table import ActionError
from tests.rules.memory_table import MemorySheet, MemoryTable, play

from .. import toygame
from . import rules as toy

GAME = game_from_package(toygame)
SIZES = st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=2)


def hero() -> MemorySheet:
    sheet = MemorySheet(1, "Pip")
    sheet.add("traits", "Brawn", "d8")
    sheet.add("traits", "Wits", "d4")
    return sheet


def test_the_highest_die_meets_the_difficulty():
    """TOY-1, TOY-2: the highest die counts, and succeeds when it meets the difficulty."""
    pool = [{"die": "d8", "trait": "Brawn"}, {"die": "d4", "trait": "Wits"}]
    outcome = resolve(GAME.action("roll"), {"pool": pool, "difficulty": 5}, [5, 3])
    assert (outcome["highest"], outcome["success"]) == (5, True)
    outcome = resolve(GAME.action("roll"), {"pool": pool, "difficulty": 6}, [5, 3])
    assert (outcome["highest"], outcome["success"]) == (5, False)


@given(sizes=SIZES, difficulty=st.integers(1, 12))
def test_the_chance_of_success_counts_every_face(sizes, difficulty):
    """TOY-2: the exact chance equals the share of all face combinations that succeed."""
    combos = [[]]
    for size in sizes:
        combos = [c + [f] for c in combos for f in range(1, size + 1)]
    hits = sum(max(c) >= difficulty for c in combos)
    assert toy.chance_of_success(sizes, difficulty) == Fraction(hits, len(combos))


def test_a_players_roll_takes_the_sheets_dice_and_the_scenes_difficulty():
    """TOY-1, TOY-2: the client names traits and sizes; the table gives the values."""
    table = MemoryTable(GAME, [hero()])
    table.scene["difficulty"] = {"value": 7, "seq": 1}
    request = {"pool": [{"die": "d12", "trait": "brawn", "group": "traits"}], "difficulty": 1}
    play(table, "roll", request, sheet=table.sheets[0])
    assert table.request["pool"][0]["die"] == "d8"
    assert table.request["difficulty"] == 7


def test_the_hunch_is_the_gms():
    """TOY-3: a player cannot roll the GM's hunch."""
    table = MemoryTable(GAME, [hero()])
    with pytest.raises(ActionError, match="Only the GM"):
        play(table, "hunch", {"note": "trap?"}, sheet=table.sheets[0])
    gm = MemoryTable(GAME, [hero()], gm=True)
    assert 1 <= play(gm, "hunch", {"note": "trap?"})["face"] <= 20


def test_the_odds_chart_sums_to_one_and_matches_the_chance():
    """TOY-1, TOY-2: the chart's bars are the highest die's distribution."""
    shown = toy.report([8, 4], 5)
    assert sum(bar.chance for bar in shown.bars) == 1
    assert sum(bar.chance for bar in shown.bars if bar.success) == shown.chance
    assert shown.summary == "50.0% to meet 5."  # only the d8 can show 5 or more


def test_a_clue_is_named_by_the_table_and_kept_for_the_scene():
    """TOY-4: the clue's name is the table option the game declares; without one, or
    without a scene, nothing is kept."""
    table = MemoryTable(GAME, [hero()])
    with pytest.raises(ActionError, match="Name the clue"):
        play(table, "spot", {}, sheet=table.sheets[0])
    play(table, "spot", {"note": "by the door"}, sheet=table.sheets[0], clue="Muddy boots")
    assert table.scene["clues"] == {"Muddy boots": {"note": "by the door", "seq": 1}}
    (piece,) = GAME.scene
    assert piece.named_by in GAME.table["spot"].table_params
    assert piece.lines(table.scene["clues"]) == ["Muddy boots (by the door)"]
    with pytest.raises(ActionError, match="Start a scene"):
        play(MemoryTable(GAME, [hero()], scene=None), "spot", {}, clue="Footprints")
