"""Cortex with Total and Effect slots at the table (CTX-1 … CTX-9): rolls kept for the
scene, Bank moves and bought hitches against them, plot point spends, advancement."""

import pytest

from campaigns import services
from table.reading.rendering import render_event_html
from table.writing.actions import ActionError

pytestmark = pytest.mark.django_db

POOL = [
    {"die": "d4", "trait": "Agility", "group": "attributes"},
    {"die": "d4", "trait": "Ex-Marine", "group": "distinctions"},
    {"die": "d4", "trait": "Shoot", "group": "skills"},
    {"die": "d4", "trait": "Sniper Rifle", "group": "assets"},
]


@pytest.fixture
def t(table_for):
    table = table_for("cortex_slots")
    table.scene = table.start_scene()
    return table


def test_roll_with_big_hero_die_charges_a_plot_point(t, faces):
    """CTX-1, CTX-6: the pool and the Big Hero Die come from the sheet."""
    faces.queue.extend([6, 2, 8, 7, 5])
    event = t.perform(t.player, "roll", {"pool": POOL, "big_hero": True}, sheet_id=t.pc.pk)
    assert [e["die"] for e in event.request["pool"]] == ["d8", "d8", "d10", "d8"]
    assert event.request["big_hero"]["die"] == "d6" and event.request["plot_points"] == 1
    assert event.request["roller_kind"] == "pc"
    assert t.counter(t.pc, "plot_points") == 0
    with pytest.raises(ActionError, match="That costs 1 plot point; Mal has 0"):
        t.perform(t.player, "roll", {"pool": POOL, "big_hero": True}, sheet_id=t.pc.pk)


def test_gm_pool_sets_the_difficulty_players_roll_against(t, faces):
    """CTX-1: a player's roll uses the scene's difficulty, whatever the client says."""
    faces.queue.extend([5, 4, 1])
    t.perform(t.gm, "gm_pool", {"pool": ["d8", "d6", "d6"], "roller_kind": "boss"})
    assert t.state()["difficulty"]["value"] == 9
    faces.queue.extend([6, 2, 8, 7])
    event = t.perform(t.player, "roll", {"pool": POOL, "difficulty": 1}, sheet_id=t.pc.pk)
    assert event.request["difficulty"] == 9
    assert event.outcome["success"] is True


def test_bank_move_spends_a_plot_point_on_the_kept_roll(t, faces):
    """CTX-3: a banked die joins the Total for 1 plot point, refused at 0."""
    t.pc.counters.filter(key="plot_points").update(value=2)
    faces.queue.extend([6, 2, 8, 7])
    roll = t.perform(t.player, "roll", {"pool": POOL}, sheet_id=t.pc.pk)
    banked = next(i for i, d in enumerate(roll.outcome["dice"]) if d["role"] == "bank")
    moved = t.perform(t.player, "bank_move", {"index": banked, "to": "total"}, sheet_id=t.pc.pk)
    assert moved.params["roll"] == roll.seq
    assert moved.outcome["total"] == roll.outcome["total"] + 2
    assert t.counter(t.pc, "plot_points") == 1
    assert t.state()["rolls"][str(roll.seq)]["dice"][banked]["role"] == "total"
    with pytest.raises(ActionError, match="not in the Bank"):
        t.perform(t.player, "bank_move", {"index": banked, "to": "total"}, sheet_id=t.pc.pk)
    with pytest.raises(ActionError, match="your own characters"):
        t.perform(t.other, "bank_move", {"index": banked, "to": "total", "table": {"roll": roll.seq}},
                  sheet_id=t.other_pc.pk)  # fmt: skip


def test_resplit_changes_the_kept_roll(t, faces):
    """CTX-2: the player re-splits their kept roll; the scene keeps the new dice."""
    faces.queue.extend([6, 2, 8, 7])
    roll = t.perform(t.player, "roll", {"pool": POOL}, sheet_id=t.pc.pk)
    event = t.perform(t.player, "resplit", {"split": {"total": [0, 1], "effect": 2}, "dice": []},
                      sheet_id=t.pc.pk)  # fmt: skip
    assert event.request["dice"] == roll.outcome["dice"]
    assert event.outcome["total"] == 8
    assert t.state()["rolls"][str(roll.seq)]["dice"] == event.outcome["dice"]


def test_buy_hitch_both_ways_and_expiry_at_scene_end(t, faces):
    """CTX-4: the GM buys a player's hitch (+1 plot point, a difficulty die held for the
    scene); a player buys the GM's hitch (−1 plot point, an Opportunity); both expire."""
    faces.queue.extend([5, 1, 9, 3])
    roll = t.perform(t.player, "roll", {"pool": POOL}, sheet_id=t.pc.pk)
    hitch = next(i for i, d in enumerate(roll.outcome["dice"]) if d["hitch"])
    # The GM's card offers each hitch of the player's roll; the players' offers none.
    offered = render_event_html(roll, "gm").count("Buy hitch:")
    assert offered == sum(1 for d in roll.outcome["dice"] if d["hitch"]) >= 1
    assert "Buy hitch:" not in render_event_html(roll, "players")
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "buy_hitch", {"index": hitch}, sheet_id=t.pc.pk)
    t.perform(t.gm, "buy_hitch", {"index": hitch, "table": {"roll": roll.seq}})
    assert t.counter(t.pc, "plot_points") == 2
    faces.queue.extend([1, 6, 4])
    gm_roll = t.perform(t.gm, "gm_pool", {"pool": ["d8", "d6", "d6"]})
    assert "Buy hitch:" not in render_event_html(gm_roll, "gm")  # the players buy these
    bought = t.perform(t.player, "buy_hitch", {"index": 0, "table": {"roll": gm_roll.seq}},
                       sheet_id=t.pc.pk)  # fmt: skip
    assert bought.request["buyer"] == "players"
    assert t.counter(t.pc, "plot_points") == 1
    held = t.state()["held_hitches"]
    assert [(h["held_by"], h["use"]) for h in held] == [
        ("gm", "condition"),
        ("players", "opportunity"),
    ]
    ended = services.end_scene(t.campaign, t.scene.pk)
    assert ended.table_state.expired
    last = t.campaign.table_events.order_by("-seq").first()
    assert (
        last.kind == "scene_end" and last.effects[0]["scene_state"]["expired"]["held_hitches"] == 2
    )
    with pytest.raises(ActionError, match="Start a scene first"):
        t.perform(t.gm, "buy_hitch", {"index": 0})


def test_spend_plot_point_scene_asset_and_step_up(t):
    """CTX-7: a d6 scene asset for 1 plot point, then stepped up for another."""
    t.pc.counters.filter(key="plot_points").update(value=2)
    t.perform(
        t.player, "spend_plot_point", {"kind": "scene_asset", "asset": "Smoke"}, sheet_id=t.pc.pk
    )
    assert t.state()["assets"]["Smoke"]["die"] == "d6"
    t.perform(t.player, "spend_plot_point", {"kind": "step_up_asset", "asset": "Smoke", "die": "d12"},
              sheet_id=t.pc.pk)  # fmt: skip
    assert t.state()["assets"]["Smoke"]["die"] == "d8"
    assert t.counter(t.pc, "plot_points") == 0
    with pytest.raises(ActionError, match="no plot point left"):
        t.perform(t.player, "spend_plot_point", {"kind": "scene_change", "description": "Fog"},
                  sheet_id=t.pc.pk)  # fmt: skip
    with pytest.raises(ActionError, match="Bank"):
        t.perform(
            t.player, "spend_plot_point", {"kind": "bank_die", "to": "total"}, sheet_id=t.pc.pk
        )


def test_advance_award_and_raise(t):
    """CTX-9: the GM awards; raising Shoot d10 to d12 costs 48 of the sheet's points."""
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "advance", {"operation": "award", "session_award": 9}, sheet_id=t.pc.pk)
    t.perform(t.gm, "advance", {"operation": "award", "session_award": 9, "milestone_points": 2},
              sheet_id=t.pc.pk)  # fmt: skip
    assert t.counter(t.pc, "advance_points") == 51
    assert t.counter(t.pc, "milestones") == 2
    t.perform(t.player, "advance", {"operation": "raise", "group": "skills", "trait": "Shoot",
                                    "from": "d4", "to": "d12"}, sheet_id=t.pc.pk)  # fmt: skip
    assert t.trait(t.pc, "skills", "Shoot").die == 12
    assert t.counter(t.pc, "advance_points") == 3
