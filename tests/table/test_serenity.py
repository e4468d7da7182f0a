"""Serenity Plus at the table: every action through table.writing.actions.perform, with the
state each one reads from the database and writes back (SER-1 … SER-11)."""

import pytest

from table.models import TableEvent
from table.reading.export import verify
from table.writing.actions import ActionError

pytestmark = pytest.mark.django_db

FIGHTIN = {"die": "d4", "trait": "Fightin'", "group": "stylins"}  # size comes from the sheet
THUGS = [
    {"die": "d8", "trait": "Armed thugs", "group": "situation"},
    {"die": "d6", "trait": "Cramped cargo bay", "group": "situation"},
    {"die": "d6", "trait": "Bad light", "group": "situation"},
]


@pytest.fixture
def t(table_for):
    return table_for("serenity")


def test_roll_takes_dice_from_the_sheet_and_spends_plot_points(t, faces):
    """SER-1, SER-8, SER-9: sizes come from the sheet, not the client; points are spent."""
    faces.queue.extend([9, 8, 2, 3, 1])
    request = {
        "pool": [
            FIGHTIN,
            {"die": "d12", "trait": "War Veteran", "group": "refinements"},
            {"die": "d12", "trait": "Freedom", "group": "values", "challenged": True},
        ],
        "plot_points": 1,
    }
    event = t.perform(t.player, "roll", request, sheet_id=t.pc.pk)
    pool = event.request["pool"]
    assert [e["die"] for e in pool] == ["d10", "d8", "d4"]
    assert pool[1]["parent"] == "Fightin'"
    assert event.request["gm"] is False
    assert event.outcome["plot_points_spent"] == 1
    assert t.counter(t.pc, "plot_points") == 1
    # A challenged d4 Value is removed after the roll (SER-9 decision).
    assert not t.pc.traits.filter(group="values", name="Freedom").exists()
    assert {"sheet": t.pc.pk, "counter": "plot_points", "from": 2, "to": 1} in event.effects


def test_roll_refuses_traits_the_sheet_lacks_and_points_it_has_not(t, faces):
    with pytest.raises(ActionError, match="has no “Flyin'” among their Stylin's"):
        t.perform(t.player, "roll", {"pool": [{"die": "d12", "trait": "Flyin'", "group": "stylins"}]},
                  sheet_id=t.pc.pk)  # fmt: skip
    with pytest.raises(ActionError, match="costs 3 plot points; Mal has 2"):
        t.perform(t.player, "roll", {"pool": [FIGHTIN], "plot_points": 3}, sheet_id=t.pc.pk)
    assert t.counter(t.pc, "plot_points") == 2


def test_player_cannot_roll_a_free_form_gm_pool(t, faces):
    event = t.perform(t.player, "roll", {"pool": [FIGHTIN], "gm": True}, sheet_id=t.pc.pk)
    assert event.request["gm"] is False
    gm_event = t.perform(t.gm, "roll", {"pool": THUGS})
    assert gm_event.request["gm"] is True


def test_contest_to_the_end_with_stress_extraordinary_success_and_taken_out(t, faces):
    """SER-6, SER-7, SER-10: telegraphed goals, turns, a failed roll, stress chosen by
    the winner (stepped up by the extraordinary benefit), then a second contest that
    takes Mal out."""
    t.start_scene()
    started = t.perform(
        t.player,
        "contest_start",
        {
            "sides": [
                {"sheet_id": t.pc.pk, "goal": "walk out with the cargo"},
                {"name": "Niska's thugs", "goal": "take Mal prisoner"},
            ],
            "first": 1,
        },
        sheet_id=t.pc.pk,
    )
    contest_id = started.params["contest"]
    record = t.state()["contests"][str(contest_id)]
    assert record["sheets"] == [t.pc.pk, None]
    assert record["contest"]["sides"][0] == {
        "name": "Mal",
        "goal": "walk out with the cargo",
        "gm": False,
    }
    assert record["contest"]["sides"][1]["gm"] is True

    # Not Mal's turn yet: the thugs (the GM) roll first.
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "contest_roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)
    faces.queue.extend([6, 5, 4])
    t.perform(t.gm, "contest_roll", {"pool": THUGS})
    assert t.state()["contests"][str(contest_id)]["contest"]["standing"]["result"] == 11

    faces.queue.extend([4])
    failed = t.perform(t.player, "contest_roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)
    assert failed.outcome["beaten"] is False
    contest = t.state()["contests"][str(contest_id)]["contest"]
    assert contest["status"] == "stress_pending" and contest["stress_die"] == "d6"
    assert contest["extraordinary"] is True

    # The winner (the GM's side) picks the stress; a player cannot.
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "contest_stress", {"type": "Injured"}, sheet_id=t.pc.pk)
    settled = t.perform(
        t.gm,
        "contest_stress",
        {"type": "Injured", "stress": {"Injured": "d4"}, "benefit": "step_up_stress"},
    )
    assert settled.request["stress"]["Injured"] is None  # read from the sheet, not the client
    assert settled.outcome["stress_change"]["to"] == "d8"
    assert t.trait(t.pc, "stress", "Injured").die == 8
    assert t.state()["contests"][str(contest_id)]["contest"]["status"] == "over"
    with pytest.raises(ActionError, match="No contest is going on"):
        t.perform(t.gm, "contest_roll", {"pool": THUGS})

    # A second contest: Mal already holds d12 Injured, so more stress takes him out.
    t.pc.traits.filter(group="stress", name="Injured").update(die=12)
    t.perform(
        t.gm,
        "contest_start",
        {
            "sides": [
                {"sheet_id": t.pc.pk, "goal": "escape"},
                {"name": "Thugs", "goal": "stop him"},
            ],
            "first": 1,
        },
    )
    faces.queue.extend([6, 5, 4])
    t.perform(t.gm, "contest_roll", {"pool": THUGS})
    faces.queue.extend([9])
    t.perform(t.player, "contest_roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)
    out = t.perform(t.gm, "contest_stress", {"type": "Injured"})
    assert out.outcome["taken_out"] is True
    assert [x["name"] for x in t.state()["taken_out"]] == ["Mal"]
    assert verify(t.campaign).ok


def test_give_in_ends_the_contest_without_stress(t, faces):
    t.start_scene()
    t.perform(
        t.gm,
        "contest_start",
        {
            "sides": [
                {"sheet_id": t.pc.pk, "goal": "talk past"},
                {"name": "Guard", "goal": "no entry"},
            ]
        },
    )
    given = t.perform(t.player, "contest_give_in", {}, sheet_id=t.pc.pk)
    assert given.outcome["goal_granted"] == "no entry"
    assert all(not x.die for x in t.pc.traits.filter(group="stress"))


def test_contests_need_a_scene_and_are_public(t):
    with pytest.raises(ActionError, match="Start a scene first"):
        t.perform(
            t.gm,
            "contest_start",
            {"sides": [{"name": "A", "goal": "x"}, {"name": "B", "goal": "y"}]},
        )
    t.start_scene()
    with pytest.raises(ActionError, match="public"):
        t.perform(
            t.gm,
            "contest_start",
            {"sides": [{"name": "A", "goal": "x"}, {"name": "B", "goal": "y"}]},
            visibility="gm",
        )


def test_stress_steps_up_the_sheet(t):
    """SER-7 outside a contest: the held die steps up, the client's track is ignored."""
    t.perform(t.gm, "stress", {"type": "Afraid", "die": "d6", "stress": {"Afraid": "d12"}},
              sheet_id=t.pc.pk)  # fmt: skip
    assert t.trait(t.pc, "stress", "Afraid").die == 6
    t.perform(t.player, "stress", {"type": "Afraid", "die": "d4"}, sheet_id=t.pc.pk)
    assert t.trait(t.pc, "stress", "Afraid").die == 8


def test_activate_complication_gives_a_plot_point(t):
    """SER-3: GM only; an existing complication steps up, a new one lasts the scene."""
    t.start_scene()
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "activate_complication", {"complication": "Winged"}, sheet_id=t.pc.pk)
    t.perform(t.gm, "activate_complication", {"complication": "Winged"}, sheet_id=t.pc.pk)
    assert t.trait(t.pc, "complications", "Winged").die == 8
    t.perform(t.gm, "activate_complication", {"complication": "Jammed gun"}, sheet_id=t.pc.pk)
    assert t.state()["complications"][str(t.pc.pk)] == {"Jammed gun": "d6"}
    assert t.counter(t.pc, "plot_points") == 4


def test_test_is_run_by_the_gm_with_the_players_pool(t, faces):
    """SER-5: the player's dice come from their sheet; the opposition is the GM's."""
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "test", {"player": {"pool": [FIGHTIN]}, "opposition": {"pool": THUGS}},
                  sheet_id=t.pc.pk)  # fmt: skip
    faces.queue.extend([10, 2, 1, 1])
    event = t.perform(
        t.gm,
        "test",
        {"player": {"pool": [FIGHTIN]}, "opposition": {"pool": THUGS}},
        sheet_id=t.pc.pk,
    )
    assert event.request["player"]["pool"][0]["die"] == "d10"
    assert event.outcome["success"] is True


def extraordinary_test(t, faces, *, visibility="public"):
    """The GM's test of Mal against thugs who roll Mal's Injured stress against him; Mal
    wins by 8 (SER-5, SER-10)."""
    opposition = [*THUGS[:2], {"die": "d12", "trait": "Injured", "group": "stress",
                               "sheet": t.pc.pk}]  # fmt: skip
    faces.queue.extend([10, 2, 1, 1])
    return t.perform(t.gm, "test", {"player": {"pool": [FIGHTIN]},
                                    "opposition": {"pool": opposition}},
                     sheet_id=t.pc.pk, visibility=visibility)  # fmt: skip


def test_benefit_lands_on_the_winners_sheet(t, faces):
    """SER-10 after a test: the margin and both pools come from the logged test; stepping
    down the winner's own stress die that the other side rolled changes their sheet."""
    t.pc.traits.filter(group="stress", name="Injured").update(die=8)
    test = extraordinary_test(t, faces)
    assert test.outcome["extraordinary"]["by"] == "player"
    claim = {"benefit": "step_down_stress", "target": "Injured", "margin": 99,
             "winner_pool": [{"die": "d12", "trait": "Made up", "group": "situation"}]}  # fmt: skip
    event = t.perform(t.player, "benefit", claim, sheet_id=t.pc.pk)
    assert event.params["roll"] == test.seq and event.request["margin"] == 8
    assert event.request["winner_pool"] == test.request["player"]["pool"]
    assert event.request["loser_pool"][-1]["die"] == "d8"
    assert t.trait(t.pc, "stress", "Injured").die == 6
    with pytest.raises(ActionError, match="still to be claimed"):  # once per test
        t.perform(t.player, "benefit", claim, sheet_id=t.pc.pk)


def test_a_benefit_needs_a_test_the_claimant_won_and_may_see(t, faces):
    """SER-10: no test, another character's test, a secret test and a claimed one are
    refused alike, and nothing changes."""
    claim = {"benefit": "step_down_stress", "target": "Injured", "margin": 9,
             "winner_pool": [FIGHTIN], "loser_pool": THUGS}  # fmt: skip
    refusals = set()

    def refused(user, sheet, **table):
        with pytest.raises(ActionError) as caught:
            t.perform(user, "benefit", {**claim, "table": table}, sheet_id=sheet.pk)
        refusals.add(str(caught.value))

    refused(t.player, t.pc)  # no test at all: the free-form claim is the GM's only
    secret = extraordinary_test(t, faces, visibility="gm")
    refused(t.player, t.pc)
    refused(t.player, t.pc, roll=secret.seq)
    refused(t.player, t.pc, roll=secret.seq + 100)
    public = extraordinary_test(t, faces)
    refused(t.other, t.other_pc, roll=public.seq)  # Zoe did not win it
    assert refusals == {
        "That is not a test with an extraordinary success that is still to be claimed."
    }
    assert not TableEvent.objects.filter(campaign=t.campaign, action="benefit").exists()


def test_awareness_pool_is_suggested_from_the_sheet(t):
    """SER-11: the sheet's own Stylin's and Refinements, not the client's."""
    event = t.perform(
        t.player, "awareness_pool", {"stylins": {"Finaglin'": "d12"}}, sheet_id=t.pc.pk
    )
    assert event.request["stylins"]["Finaglin'"] == "d6"
    assert event.outcome["pool"] == [{"die": "d6", "trait": "Finaglin'", "group": "stylins"}]


def test_ser5_a_number_the_gm_sets_is_the_number_to_beat_until_cleared(t, faces):
    """SER-5: the GM sets the number instead of rolling; clearing it leaves rolls unscored."""
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 8, "note": "the crowd is thick"})
    faces.queue.extend([9])
    scored = t.perform(t.player, "roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)
    assert scored.outcome["headline"] == "Result 9 vs 8 — success by 1, effect d4"
    t.perform(t.gm, "set_difficulty", {"clear": True})
    faces.queue.extend([9])
    plain = t.perform(t.player, "roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)
    assert "success" not in plain.outcome
