"""Smallville at the table (SMV-1 … SMV-10): paid dice, the Trouble Pool kept for the
scene, contests with challenged traits stepping down when the conflict ends."""

import pytest

from table.writing.actions import ActionError

pytestmark = pytest.mark.django_db

CLARK = [
    {"die": "d4", "trait": "Justice", "group": "values"},
    {"die": "d4", "trait": "Lana", "group": "relationships"},
    {"die": "d4", "trait": "Super-speed", "group": "abilities"},
    {"die": "d4", "trait": "Farm boy", "group": "distinctions"},
]


@pytest.fixture
def t(table_for):
    table = table_for("smallville")
    table.start_scene()
    return table


def test_roll_prices_the_pool_and_marks_resources_used(t, faces):
    """SMV-1, SMV-3, SMV-7, SMV-8: the second trait costs 1, plot points add dice; the
    Resource was free (on the sheet, unused) and is used now."""
    faces.queue.extend([7, 4, 9, 1, 5])
    side = [{"die": "d4", "trait": "Kent Farm", "group": "locations", "used": False}]
    event = t.perform(t.player, "roll", {"pool": CLARK, "side_pool": side, "plot_points": 1},
                      sheet_id=t.pc.pk)  # fmt: skip
    assert [e["die"] for e in event.request["pool"]] == ["d8", "d6", "d10", "d6"]
    assert event.outcome["plot_points_spent"] == 2
    assert t.counter(t.pc, "plot_points") == 0
    assert t.trait(t.pc, "locations", "Kent Farm").flags == {"used": True}
    assert event.outcome["trouble_offer"] == 1  # the Farm boy d6 showed 1


def test_roll_refuses_what_the_pool_costs_before_rolling(t, faces):
    t.pc.counters.filter(key="plot_points").update(value=0)
    with pytest.raises(ActionError, match="costs 1 plot point; Mal has 0"):
        t.perform(t.player, "roll", {"pool": CLARK}, sheet_id=t.pc.pk)
    assert not t.campaign.table_events.filter(kind="action").exists()


def test_heritage_only_on_a_heritage_roll(t, faces):
    """SMV-3: the sheet says Kryptonian is a Heritage, whatever the client claims."""
    pool = [*CLARK[:2], {"die": "d8", "trait": "Kryptonian", "group": "distinctions"}]
    with pytest.raises(ActionError, match="Heritage"):
        t.perform(t.player, "roll", {"pool": pool}, sheet_id=t.pc.pk)
    t.perform(t.player, "roll", {"pool": pool, "heritage_roll": True}, sheet_id=t.pc.pk)


def test_trouble_pool_add_and_remove(t, faces):
    """SMV-9: the Watchtower adds trouble for a player's 1s (the player gains the plot
    points); a player pays 1 to remove a die of the size of the Watchtower's 1 or less:
    the size is read from her roll, one removal per 1."""
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "trouble", {"operation": "add", "ones": 1}, sheet_id=t.pc.pk)
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 2, "trouble_pool": ["d12"] * 5},
              sheet_id=t.pc.pk)  # fmt: skip
    assert t.state()["trouble_pool"] == ["d8"]
    assert t.counter(t.pc, "plot_points") == 4
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 1})
    assert t.state()["trouble_pool"] == ["d8", "d6"]
    with pytest.raises(ActionError, match="No roll of the Watchtower's has a 1"):
        t.perform(t.player, "trouble", {"operation": "remove", "one_die": "d12"},
                  sheet_id=t.pc.pk)  # fmt: skip
    faces.queue.extend([1, 5])
    t.perform(t.gm, "roll", {"pool": [{"die": "d6", "trait": "Storm", "group": "situation"},
                                      {"die": "d8", "trait": "Goons", "group": "situation"}]})  # fmt: skip
    removed = t.perform(t.player, "trouble", {"operation": "remove", "one_die": "d12"},
                        sheet_id=t.pc.pk)  # fmt: skip
    assert removed.request["one_die"] == "d6"  # her 1 was on the d6, whatever was sent
    assert removed.outcome["removed"] == "d6"
    assert t.state()["trouble_pool"] == ["d8"]
    assert t.counter(t.pc, "plot_points") == 3
    with pytest.raises(ActionError, match="No roll of the Watchtower's has a 1"):
        t.perform(t.player, "trouble", {"operation": "remove"}, sheet_id=t.pc.pk)


def test_watchtower_takes_a_useful_detail_out_of_the_trouble_pool(t, faces):
    """SMV-6: the die leaves the scene's Trouble Pool."""
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 2})
    faces.queue.extend([5, 3])
    event = t.perform(
        t.gm,
        "roll",
        {
            "pool": [
                {"die": "d6", "trait": "Storm", "group": "situation"},
                {
                    "die": "d8",
                    "trait": "Collapsing barn",
                    "group": "useful_details",
                    "from_trouble": True,
                },
            ]
        },  # fmt: skip
    )
    assert event.request["watchtower"] is True
    assert t.state()["trouble_pool"] == []


def test_contest_steps_challenged_values_down_when_it_ends(t, faces):
    """SMV-2, SMV-10: the challenged Value steps down at the end of the conflict, not at
    the roll; the loser takes stress on their sheet."""
    t.perform(
        t.gm,
        "contest_start",
        {
            "sides": [
                {"sheet_id": t.pc.pk, "goal": "save Lana"},
                {"name": "Lex", "goal": "keep the plant"},
            ]
        },
    )
    pool = [{**CLARK[0], "challenged": True}, CLARK[1]]
    faces.queue.extend([7, 6, 5, 4])
    t.perform(t.player, "contest_roll", {"pool": pool}, sheet_id=t.pc.pk)
    assert t.trait(t.pc, "values", "Justice").die == 8
    faces.queue.extend([2, 2])
    t.perform(t.gm, "contest_roll", {"pool": [{"die": "d6", "trait": "Goons", "group": "situation"},
                                              {"die": "d6", "trait": "Alarm", "group": "situation"}]})  # fmt: skip
    t.perform(t.player, "contest_stress", {"type": "Angry"}, sheet_id=t.pc.pk)
    assert t.trait(t.pc, "values", "Justice").die == 6
    assert t.state()["side_stress"]["Lex"]["Angry"] == "d8"


def test_stress_and_shut_down(t):
    """SMV-10 stress on the sheet; SMV-5 Shut Down costs 1, free against a stressed-out foe."""
    t.perform(t.gm, "stress", {"type": "Insecure", "die": "d10"}, sheet_id=t.other_pc.pk)
    assert t.trait(t.other_pc, "stress", "Insecure").die == 10
    t.perform(t.player, "shut_down", {"won": True, "limit": "Kryptonite", "ability": "Flight"},
              sheet_id=t.pc.pk)  # fmt: skip
    assert t.counter(t.pc, "plot_points") == 1
    assert t.state()["shut_down"][0]["ability"] == "Flight"


def test_test_and_giving_in(t, faces):
    """SMV-10: the Watchtower runs a test with the player's sheet dice; a side gives in."""
    faces.queue.extend([8, 5, 2, 2])
    event = t.perform(
        t.gm,
        "test",
        {
            "player": {"pool": CLARK[:2]},
            "opposition": {
                "pool": [
                    {"die": "d6", "trait": "Storm", "group": "situation"},
                    {"die": "d6", "trait": "Dark", "group": "situation"},
                ]
            },
        },  # fmt: skip
        sheet_id=t.pc.pk,
    )
    assert event.request["player"]["pool"][0]["die"] == "d8" and event.outcome["success"] is True
    t.perform(
        t.gm,
        "contest_start",
        {"sides": [{"sheet_id": t.pc.pk, "goal": "get in"}, {"name": "Guard", "goal": "keep out"}]},
    )
    given = t.perform(t.player, "contest_give_in", {}, sheet_id=t.pc.pk)
    assert given.outcome["winner"] == 1


def test_smv10_the_watchtowers_number_to_beat_scores_the_players_roll(t, faces):
    """SMV-10: strictly higher succeeds, a tie fails; only the Watchtower sets it."""
    t.perform(t.gm, "set_difficulty", {"difficulty": 9})
    faces.queue.extend([4, 5])
    justice = {"die": "d4", "trait": "Justice", "group": "values"}
    lana = {"die": "d4", "trait": "Lana", "group": "relationships"}
    event = t.perform(t.player, "roll", {"pool": [justice, lana]}, sheet_id=t.pc.pk)
    assert event.outcome["headline"] == "Result 9 vs 9 — failure: a tie fails"
    with pytest.raises(ActionError, match="Only the GM"):
        t.perform(t.player, "set_difficulty", {"difficulty": 1}, sheet_id=t.pc.pk)
