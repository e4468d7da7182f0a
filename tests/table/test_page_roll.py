"""Rolling through the page: the log, the GM's controls, contests, refusals."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.urls import reverse

from sheets.models import Counter, Trait
from table.models import TableEvent
from table.pages.action_menu import more_actions
from table.writing import actions
from tests.table.page_fixtures import build_sheet, fresh_cards, ids, table  # noqa: F401

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    monkeypatch.setattr(actions, "RNG", random.Random(7))


def _roll(client, campaign, sheet, traits, **extra):
    url = reverse("table_pool_roll", args=[campaign.pk, sheet.pk])
    return client.post(url, {"trait": ids(*traits), **extra}, **HX)


def test_a_roll_shows_up_in_another_members_log(
    table,  # noqa: F811
    client_for,
    player,
    observer,
    django_capture_on_commit_callbacks,
):
    campaign, sheet, t = table
    with django_capture_on_commit_callbacks(execute=True):
        response = _roll(
            client_for(player), campaign, sheet, [t["fightin"], t["veteran"], t["pistol"]]
        )
    assert "Rolled:" in response.content.decode()
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    page = client_for(observer).get(reverse("table", args=[campaign.pk])).content.decode()
    assert f'id="event-{event.seq}"' in page
    assert event.headline in page
    text = html.unescape(page)
    for die in event.outcome["dice"]:
        assert die["trait"] in text


def test_a_refused_roll_says_why_and_changes_nothing(table, client_for, player):  # noqa: F811
    campaign, sheet, t = table
    before = TableEvent.objects.count()
    response = _roll(client_for(player), campaign, sheet, [t["fightin"]], plot_points="9")
    html = response.content.decode()
    assert response.status_code == 200
    assert "plot point" in html and "⚠" in html
    assert TableEvent.objects.count() == before
    assert Counter.objects.get(sheet=sheet, key="plot_points").value == 3


def test_blind_rolls_reach_players_only_when_revealed(table, client_for, gm, player):  # noqa: F811
    campaign, sheet, t = table
    _roll(client_for(player), campaign, sheet, [t["fightin"]], visibility="blind")
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    page = lambda who: client_for(who).get(reverse("table", args=[campaign.pk])).content.decode()  # noqa: E731
    sealed = page(player)
    assert f'id="event-{event.seq}"' in sealed and "rolled blind, for the GM" in sealed
    assert event.headline not in sealed and event.seal["commitment"] in sealed
    assert "Blind" in page(gm) and "Reveal" in page(gm)
    client_for(gm).post(reverse("table_reveal", args=[campaign.pk, event.pk]), **HX)
    opened = page(player)
    assert event.headline in opened and event.seal["salt"] in opened


def test_the_roller_of_a_blind_roll_is_not_told_its_result(table, client_for, player):  # noqa: F811
    """A blind roll is the GM's until revealed, its roller's answer included: the pool
    builder's answer says it went to the GM and holds nothing of the roll."""
    campaign, sheet, t = table
    response = _roll(client_for(player), campaign, sheet, [t["fightin"]], visibility="blind")
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    html = response.content.decode()
    assert "went to the GM" in html and event.headline not in html
    assert event.outcome["explanation"] not in html


def test_the_gm_voids_and_activates_a_complication(table, client_for, gm, player):  # noqa: F811
    campaign, sheet, t = table
    _roll(client_for(player), campaign, sheet, [t["fightin"]])
    event = TableEvent.objects.get(campaign=campaign, action="roll")
    gm_client = client_for(gm)
    response = gm_client.post(
        reverse("table_quick", args=[campaign.pk, "activate_complication"]),
        {"sheet": sheet.pk, "complication": "Jammed"},
        **HX,
    )
    assert "✓" in response.content.decode()
    assert Counter.objects.get(sheet=sheet, key="plot_points").value == 4
    no_reason = gm_client.post(reverse("table_void", args=[campaign.pk, event.pk]), {}, **HX)
    assert "reason" in no_reason.content.decode()
    gm_client.post(
        reverse("table_void", args=[campaign.pk, event.pk]), {"reason": "wrong pool"}, **HX
    )
    event.refresh_from_db()
    assert event.voided


def test_a_serenity_contest_to_the_end_with_stress(table, client_for, gm, player):  # noqa: F811
    campaign, sheet, t = table
    gm_client, pl = client_for(gm), client_for(player)
    response = gm_client.post(
        reverse("table_gm_contest", args=[campaign.pk]),
        {
            "a_sheet": sheet.pk,
            "a_goal": "keep the cargo",
            "b_name": "Thugs",
            "b_goal": "take Mal",
            "first": "1",
        },
        **HX,
    )
    assert "✓" in response.content.decode(), response.content.decode()
    gm_client.post(
        reverse("table_gm_roll", args=[campaign.pk]),
        {"dice": "d6 Thugs", "visibility": "public"},
        **HX,
    )
    # the GM roll above is a plain roll; the GM side's move is picked on its form
    move = gm_client.post(
        reverse("table_act", args=[campaign.pk, "contest_roll"]),
        {"contest_roll-pool-die": "d4", "contest_roll-pool-die_name": "Thugs"},
        **HX,
    )
    assert "✓" in move.content.decode(), move.content.decode()
    for _ in range(6):
        state = actions.scene_state(campaign)["state"]
        record = next(iter(state["contests"].values()))
        contest = record["contest"]
        if contest["status"] != "open":
            break
        if contest["turn"] == 0:
            _roll(
                pl, campaign, sheet, [t["fightin"], t["veteran"], t["pistol"]], goal="out the door"
            )
        else:
            gm_client.post(
                reverse("table_act", args=[campaign.pk, "contest_roll"]),
                {"contest_roll-pool-die": "d4", "contest_roll-pool-die_name": "Thugs"},
                **HX,
            )
    assert contest["status"] in ("stress_pending", "over", "given_in")
    if contest["status"] == "stress_pending":
        winner_is_player = contest["winner"] == 0
        chooser = pl if winner_is_player else gm_client
        panel = chooser.get(reverse("table_scene", args=[campaign.pk])).content.decode()
        assert "Inflict stress" in panel
        data = {"op": "stress", "contest": record["id"], "type": "Injured"}
        if contest.get("extraordinary"):
            data["benefit"] = "step_up_stress"
        response = chooser.post(reverse("table_contest", args=[campaign.pk]), data, **HX)
        assert "✓" in response.content.decode(), response.content.decode()
        if not winner_is_player:
            assert Trait.objects.get(sheet=sheet, group="stress", name="Injured").die is not None
        state = actions.scene_state(campaign)["state"]
        assert next(iter(state["contests"].values()))["contest"]["status"] == "over"


def test_older_rolls_load_on_demand(table, client_for, player, observer):  # noqa: F811
    campaign, sheet, t = table
    for _ in range(23):
        actions.perform(
            campaign,
            player,
            "roll",
            {"pool": [{"die": "d10", "trait": "Fightin'", "group": "stylins"}]},
            sheet_id=sheet.pk,
        )
    page = client_for(observer).get(reverse("table", args=[campaign.pk])).content.decode()
    assert page.count('class="table-event') == 20
    assert "Load older rolls" in page
    oldest = TableEvent.objects.filter(campaign=campaign).order_by("-seq")[19].seq
    older = client_for(observer).get(
        reverse("table_events", args=[campaign.pk]), {"before": oldest}, **HX
    )
    html = older.content.decode()
    assert html.count('class="table-event') == oldest - 1
    assert '<ol hx-swap-oob="beforeend:#log">' in html
    assert "Load older rolls" not in html


def test_every_action_is_offered_without_json_and_reports_errors(table, client_for, gm):  # noqa: F811
    """Each action is a form of real fields under "More actions", or is named there as
    played from its own control; nothing on the page asks for JSON."""
    campaign, _, _ = table
    page = client_for(gm).get(reverse("table", args=[campaign.pk])).content.decode()
    offered, elsewhere = more_actions(campaign.game)
    assert offered or elsewhere
    for action in offered:
        assert f'id="action-{action.name}"' in page
    listed = html.unescape(
        re.search(r'<ul class="muted small actions-elsewhere">(.*?)</ul>', page, re.S).group(1)
    )
    for action, where in elsewhere:
        assert f'id="action-{action.name}"' not in page and f"{action.title}: on {where}" in listed
    assert "<textarea" not in page and "JSON. " not in page
    bad = client_for(gm).post(
        reverse("table_act", args=[campaign.pk, "stress"]), {"stress-die": "d6"}, **HX
    )
    assert "⚠" in bad.content.decode()
