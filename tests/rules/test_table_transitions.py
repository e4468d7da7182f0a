"""The games' table transitions are plain Python over the `rules.kit.table.Table` interface:
they run here over an in-memory table, with no database and no Django, and read every die
from the table whatever the request claims.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.kit.cortex_table import fill_pool
from rules.kit.table import NPC, ActionError
from rules.registry import get_system
from rules.serenity.table import RULES as SERENITY_POOL

from .memory_table import MemoryEvent, MemorySheet, MemoryTable, play

SERENITY = get_system("serenity")
SMALLVILLE = get_system("smallville")
PERSONAE = get_system("personae")

DICE = st.sampled_from(["d4", "d6", "d8", "d10", "d12", "d20", "d2", "12", ""])


def mal() -> MemorySheet:
    sheet = MemorySheet(1, "Mal", counters={"plot_points": 1})
    sheet.add("stylins", "Fightin'", "d8")
    sheet.add("values", "Loyalty", "d10")
    sheet.add("complications", "Bad leg", "d6")
    return sheet


def jayne() -> MemorySheet:
    sheet = MemorySheet(2, "Jayne", owner_id=2)
    sheet.add("complications", "Greedy", "d8")
    return sheet


@given(fightin=DICE, loyalty=DICE, greedy=DICE)
def test_a_players_pool_takes_every_die_at_the_size_the_table_holds(fightin, loyalty, greedy):
    """SER-1: own dice from the sheet, the other side's complication from its holder's sheet."""
    table = MemoryTable(SERENITY, [mal(), jayne()])
    pool = [
        {"group": "stylins", "trait": "fightin'", "die": fightin},
        {"group": "values", "trait": "LOYALTY", "die": loyalty},
        {"group": "complications", "trait": "Greedy", "die": greedy, "sheet": 2},
    ]
    filled = fill_pool(table, pool, table.sheets[0], SERENITY_POOL)
    assert [(e["trait"], e["die"]) for e in filled] == [
        ("Fightin'", "d8"),
        ("Loyalty", "d10"),
        ("Greedy", "d8"),
    ]


def test_a_player_cannot_add_their_own_complication_or_one_nobody_holds():
    """SER-1: complications in a pool are the other side's, and only those on the table."""
    table = MemoryTable(SERENITY, [mal(), jayne()])
    own = [{"group": "complications", "trait": "Bad leg", "die": "d6", "sheet": 1}]
    with pytest.raises(ActionError, match="Mal's own"):
        fill_pool(table, own, table.sheets[0], SERENITY_POOL)
    made_up = [{"group": "complications", "trait": "Broke", "die": "d12", "sheet": 2}]
    with pytest.raises(ActionError, match="Broke d12 is not on the table"):
        fill_pool(table, made_up, table.sheets[0], SERENITY_POOL)


def test_a_hidden_holders_die_is_refused_as_if_it_did_not_exist():
    """SER-1: a hidden GM character's complication is as missing as a made-up one."""
    boss = MemorySheet(3, "Niska", kind=NPC, owner_id=None, hidden=True)
    boss.add("complications", "Greedy", "d8")
    table = MemoryTable(SERENITY, [mal(), boss])
    entry = [{"group": "complications", "trait": "Greedy", "die": "d8", "sheet": 3}]
    with pytest.raises(ActionError) as hidden:
        fill_pool(table, entry, table.sheets[0], SERENITY_POOL)
    missing = [{"group": "complications", "trait": "Greedy", "die": "d8", "sheet": 99}]
    with pytest.raises(ActionError) as absent:
        fill_pool(table, missing, table.sheets[0], SERENITY_POOL)
    assert str(hidden.value) == str(absent.value)


def test_activating_a_complication_gives_a_plot_point_and_keeps_the_die_for_the_scene():
    """SER-3: the GM activates a 1; the roller gains a plot point and a d6 complication."""
    table = MemoryTable(SERENITY, [mal()], gm=True)
    sheet = table.sheets[0]
    outcome = play(table, "activate_complication", {"complication": "Sore ribs"}, sheet=sheet)
    assert sheet.counters["plot_points"] == 2
    assert outcome["change"]["to"] == "d6"
    assert table.scene["complications"] == {"1": {"Sore ribs": "d6"}}


def test_only_the_gm_activates_a_complication():
    """SER-3: activating a complication is the GM's; a player is refused, nothing changes."""
    table = MemoryTable(SERENITY, [mal()])
    with pytest.raises(ActionError, match="Only the GM"):
        play(table, "activate_complication", {"complication": "Sore ribs"}, sheet=table.sheets[0])
    assert table.sheets[0].counters["plot_points"] == 1 and "complications" not in table.scene


def test_taking_a_die_out_of_the_trouble_pool_costs_the_player_a_plot_point():
    """SMV-9: the Trouble Pool is the scene's; a player pays 1 plot point to remove a die,
    against a 1 the Watchtower rolled (its size read from her roll)."""
    clark = MemorySheet(1, "Clark", counters={"plot_points": 1})
    table = MemoryTable(SMALLVILLE, [clark])
    table.scene["trouble_pool"] = ["d6", "d8"]
    table.events.append(MemoryEvent(4, "roll", {"trouble_removal": ["d8", "d6"]}))
    play(table, "trouble", {"operation": "remove", "one_die": "d12"}, sheet=clark)
    assert clark.counters["plot_points"] == 0
    assert table.scene["trouble_pool"] == ["d6"]
    with pytest.raises(ActionError, match="That costs 1 plot point; Clark has 0"):
        play(table, "trouble", {"operation": "remove", "one_die": "d6"}, sheet=clark)
    assert table.scene["trouble_pool"] == ["d6"]


def test_a_player_removes_trouble_only_against_a_watchtower_1_they_may_see():
    """SMV-9: each of her 1s answers one removal; a secret roll's seq is refused as a
    missing one, and a player never adds to the pool, whatever the request says."""
    clark = MemorySheet(1, "Clark", counters={"plot_points": 3})
    table = MemoryTable(SMALLVILLE, [clark])
    table.scene["trouble_pool"] = ["d8", "d6", "d4"]
    table.events += [
        MemoryEvent(4, "roll", {"trouble_removal": ["d6"]}),
        MemoryEvent(5, "roll", {"trouble_removal": ["d12"]}, hidden=True),
    ]
    refusals = []
    for seq in (5, 99):
        with pytest.raises(ActionError) as refused:
            play(table, "trouble", {"operation": "remove"}, sheet=clark, roll=seq)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1]
    play(table, "trouble", {}, sheet=clark, roll=4)  # a player only ever removes
    assert table.scene["trouble_pool"] == ["d8", "d4"]  # the largest of d6 or smaller
    assert table.scene["trouble_answered"] == {"4": ["d6"]}
    with pytest.raises(ActionError, match="no 1 of the Watchtower's left"):
        play(table, "trouble", {"operation": "remove"}, sheet=clark, roll=4)
    assert clark.counters["plot_points"] == 2


def test_a_players_challenge_takes_the_scenes_difficulty_not_the_requests():
    """PER-1: the number to beat is the GM's; without one a player's challenge is refused."""
    ace = MemorySheet(1, "Ace", counters={"potential_threshold": 3})
    wits = ace.add("attributes", "Wits", rating=3)
    ace.add("skills", "Stealth", rating=2, link=wits)
    table = MemoryTable(PERSONAE, [ace])
    side = {"skill_name": "Stealth"}
    with pytest.raises(ActionError, match="has not set a difficulty"):
        play(table, "challenge", {"actor": side, "difficulty": 2, "goal": "Slip by"}, sheet=ace)
    table.scene["difficulty"] = {"value": 9, "seq": 1}
    play(table, "challenge", {"actor": side, "difficulty": 2, "goal": "Slip by"}, sheet=ace)
    assert table.request["difficulty"] == 9
    assert table.request["actor"]["skill"] == 2 and table.request["actor"]["attribute"] == 3


def test_the_gms_opposition_pool_sets_the_number_a_players_roll_is_scored_against():
    """SER-5: the GM's pool in a scene is the number to beat; the player's roll reads it
    from the table, whatever its request says."""
    table = MemoryTable(SERENITY, [mal()], gm=True, seq=4)
    thugs = {"die": "d8", "trait": "Armed thugs", "group": "situation"}
    gm_roll = play(table, "roll", {"pool": [thugs], "difficulty": 2})
    assert "success" not in gm_roll
    assert table.scene["difficulty"]["value"] == gm_roll["result"]
    assert table.scene["difficulty"]["seq"] == 4 and table.scene["difficulty"]["pool"]
    table.gm, table.seq = False, 5
    fightin = {"group": "stylins", "trait": "Fightin'"}
    out = play(table, "roll", {"pool": [fightin], "difficulty": 0}, sheet=table.sheets[0])
    assert table.request["difficulty"] == gm_roll["result"]
    assert out["success"] is (out["result"] > gm_roll["result"])
    assert table.rested_on == [4]


def test_a_number_set_behind_the_screen_is_still_rolled_against_and_the_roll_rests_on_it():
    """SMV-10: the Watchtower's secret number scores the roll; the roll rests on the event
    that set it, so the engine seals it for players until that is revealed."""
    clark = MemorySheet(1, "Clark", owner_id=1)
    clark.add("values", "Justice", "d8")
    clark.add("relationships", "Lana", "d6")
    table = MemoryTable(SMALLVILLE, [clark], gm=True, seq=7, visibility="gm")
    play(table, "set_difficulty", {"difficulty": 9})
    assert table.veil_as == [(["difficulty"], {"secret": True})]
    table.gm, table.seq, table.visibility = False, 8, "public"
    table.hidden_keys = ("difficulty",)
    pool = [{"group": "values", "trait": "Justice"}, {"group": "relationships", "trait": "Lana"}]
    out = play(table, "roll", {"pool": pool}, sheet=clark)
    assert out["difficulty"] == 9 and table.rested_on == [7]


def test_a_players_roll_without_an_opposition_is_not_scored():
    """SER-5: no opposition in the scene, no number to beat, whatever the request says."""
    table = MemoryTable(SERENITY, [mal()], gm=True)
    fightin = {"group": "stylins", "trait": "Fightin'"}
    out = play(table, "roll", {"pool": [fightin], "difficulty": 3}, sheet=table.sheets[0])
    assert "success" not in out and "difficulty" not in table.request
