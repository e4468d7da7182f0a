"""Action order and the spotlight (rules.kit.order): popcorn for the Cortex games,
initiative for Unisystem and Personae, over an in-memory table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.kit import order
from rules.kit.actions import resolve
from rules.kit.errors import RulesError
from rules.kit.table import NPC, ActionError
from rules.registry import SYSTEMS

from .memory_table import MemorySheet, MemoryTable


def act(table: MemoryTable, name: str, request: dict) -> dict:
    """One order action as the engine runs it (table.acting.state registers them for every game)."""
    table.action = order.ACTIONS[name]
    table.request, table.params, table.sheet = dict(request), {}, None
    transition = order.TRANSITIONS[name]
    transition.authorize(table)
    transition.prepare(table)
    outcome = resolve(table.action, table.request)
    transition.apply(table, outcome)
    return outcome


def crew(n: int) -> list[MemorySheet]:
    return [MemorySheet(pk=i + 1, name=f"Hero {i + 1}", owner_id=i + 1) for i in range(n)]


def popcorn_table(sheets: list[MemorySheet]) -> MemoryTable:
    return MemoryTable(system=SYSTEMS["serenity"], sheets=sheets, gm=True)


def current(table: MemoryTable) -> str | None:
    data = table.data["order"]
    return next((s["label"] for s in data["slots"] if s["slot"] == data["current"]), None)


def test_each_game_declares_its_kind_of_order():
    kinds = {slug: game.order.kind for slug, game in SYSTEMS.items()}
    assert kinds == {
        "serenity": "popcorn",
        "cortex_slots": "popcorn",
        "smallville": "popcorn",
        "personae": "initiative",
        "unisystem": "initiative",
    }
    for game in SYSTEMS.values():  # the decision is on each game's rules page
        assert any(text == game.order.decision for _, text in game.all_decisions())


@given(size=st.integers(1, 8), picks=st.lists(st.integers(0, 100), min_size=8, max_size=8))
def test_a_popcorn_round_gives_each_participant_exactly_one_turn(size, picks):
    table = popcorn_table(crew(size))
    act(table, "order_start", {"sheets": list(range(1, size + 1)), "first": 1})
    turns = [current(table)]
    for pick in picks[: size - 1]:
        left = order.waiting(table.data["order"])
        left.remove(table.data["order"]["current"])
        act(table, "order_pass", {"to": left[pick % len(left)]})
        turns.append(current(table))
    assert sorted(turns) == sorted(f"Hero {i + 1}" for i in range(size))
    assert table.data["order"]["round"] == 1
    # The last to act picks who starts the next round, themselves included.
    act(table, "order_pass", {"to": table.data["order"]["current"]})
    assert table.data["order"]["round"] == 2
    assert table.data["order"]["acted"] == []


def test_handing_to_someone_who_already_acted_is_refused_with_their_name():
    table = popcorn_table(crew(3))
    act(table, "order_start", {"sheets": [1, 2, 3], "first": 1})
    act(table, "order_pass", {"to": 2})
    with pytest.raises(
        RulesError,
        match="Hero 1 has already acted this round: hand the spotlight to someone who has not \\(Hero 3\\)",
    ):
        act(table, "order_pass", {"to": 1})
    with pytest.raises(RulesError, match="Hero 2 holds the spotlight now"):
        act(table, "order_pass", {"to": 2})
    assert current(table) == "Hero 2"


def test_the_gms_side_takes_turns_too():
    table = popcorn_table(crew(2))
    act(table, "order_start", {"sheets": [1, 2], "gm_side": True, "first": 0})
    assert current(table) == "The GM"
    outcome = act(table, "order_pass", {"to": 1})
    assert outcome["headline"] == "The GM hands the spotlight to Hero 1"


def test_a_player_passes_only_while_their_character_holds_the_spotlight():
    sheets = crew(2)
    table = popcorn_table(sheets)
    act(table, "order_start", {"sheets": [1, 2], "first": 1})
    table.gm, table.user = False, 2
    with pytest.raises(ActionError, match="It is not your turn: Hero 1 has the spotlight"):
        act(table, "order_pass", {"to": 2})
    table.user = 1
    act(table, "order_pass", {"to": 2})
    assert current(table) == "Hero 2"
    with pytest.raises(ActionError, match="Only the GM"):
        act(table, "order_end", {})


def test_a_hidden_gm_character_is_never_named_in_the_event():
    sheets = [*crew(1), MemorySheet(pk=9, name="Reaver Boss", kind=NPC, owner_id=None, hidden=True)]
    table = popcorn_table(sheets)
    outcome = act(table, "order_start", {"sheets": [1, 9], "first": 9})
    assert "Reaver" not in repr(table.request) + repr(outcome)
    assert current(table) == "GM character #2"
    assert table.data["order"]["slots"][1]["name"] == "Reaver Boss"  # for the GM's panel
    assert table.params["joining"][1]["sheet"] == 9  # kept in the GM-only table options


def initiative_table() -> MemoryTable:
    sheets = crew(3)
    for sheet, dex in zip(sheets, (2, 5, 2), strict=True):
        sheet.add("attributes", "Dexterity", rating=dex)
        sheet.add("attributes", "Perception", rating=6 - dex)
    return MemoryTable(system=SYSTEMS["unisystem"], sheets=sheets, gm=True)


def labels(table: MemoryTable) -> list[str]:
    return [s["label"] for s in table.data["order"]["slots"]]


def test_initiative_goes_by_dexterity_highest_first_ties_as_the_gm_listed():
    table = initiative_table()
    outcome = act(table, "order_start", {"sheets": [3, 1, 2], "gm_side": True})
    assert labels(table) == ["Hero 2", "Hero 3", "Hero 1", "The GM"]
    assert outcome["headline"] == "Initiative by Dexterity: Hero 2, Hero 3, Hero 1, The GM"
    seen = [current(table)]
    for _ in range(4):
        act(table, "order_pass", {})
        seen.append(current(table))
    assert seen == ["Hero 2", "Hero 3", "Hero 1", "The GM", "Hero 2"]
    assert table.data["order"]["round"] == 2


def test_the_gm_may_order_initiative_by_another_attribute_and_join_in_place():
    table = initiative_table()
    act(table, "order_start", {"sheets": [1, 2], "by": "Perception"})
    assert labels(table) == ["Hero 1", "Hero 2"]
    act(table, "order_add", {"sheet": 3})
    assert labels(table) == ["Hero 1", "Hero 3", "Hero 2"]
    act(table, "order_end", {})
    with pytest.raises(ActionError, match="Order it by one of: Dexterity, Perception"):
        act(table, "order_start", {"sheets": [1], "by": "Luck"})


def test_a_player_ends_their_turn_but_only_the_gm_goes_out_of_line():
    table = initiative_table()
    act(table, "order_start", {"sheets": [1, 2, 3]})
    table.gm, table.user = False, 2
    with pytest.raises(ActionError, match="only the GM hands it out of line"):
        act(table, "order_pass", {"to": 1})
    act(table, "order_pass", {})
    assert current(table) == "Hero 1"  # Dexterity 2, listed first


def test_removing_the_holder_leaves_the_choice_to_the_gm():
    table = popcorn_table(crew(3))
    act(table, "order_start", {"sheets": [1, 2, 3], "first": 1})
    act(table, "order_remove", {"slot": 1})
    assert table.data["order"]["current"] is None
    act(table, "order_pass", {"to": 2})
    assert current(table) == "Hero 2" and table.data["order"]["acted"] == []
    outcome = act(table, "order_end", {})
    assert "order" not in table.data and outcome["order"] is None


def test_one_order_at_a_time_and_none_without_a_scene():
    table = popcorn_table(crew(1))
    act(table, "order_start", {"sheets": [1]})
    with pytest.raises(ActionError, match="running already"):
        act(table, "order_start", {"sheets": [1]})
    table.scene = None
    with pytest.raises(ActionError, match="Start a scene first"):
        act(table, "order_pass", {"to": 1})
