"""The common moves of a game one or two taps from a roll card (issue #27, 5): the card
offers them to the character's player and the GMs, and the move's endpoint
(table/pages/moves.py) refuses everyone else, whatever they send: another player's roll
is not theirs to spend on, and a roll hidden from them is refused exactly as a roll
that does not exist. Contests (SER-6, SMV-10): the side whose turn it is gets its
"Roll back" and "Give in" in the contest box, and nobody else does."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from table.models import TableEvent
from table.reading.rendering import card_html, clear_cache

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
CTX_POOL = [
    {"die": "d4", "trait": "Agility", "group": "attributes"},
    {"die": "d4", "trait": "Ex-Marine", "group": "distinctions"},
    {"die": "d4", "trait": "Shoot", "group": "skills"},
    {"die": "d4", "trait": "Sniper Rifle", "group": "assets"},
]
ACTOR = {"skill_name": "Swordplay", "skill": 3, "attribute": 4}


def _move(client, t, action, data):
    url = reverse("table_move", args=[t.campaign.pk, action])
    return client.post(url, data, **HX)


def _notice(response) -> str:
    found = re.search(r'id="table-notice"[^>]*>(.*?)</div>', response.content.decode())
    assert found, response.content
    return html.unescape(found.group(1))


@pytest.fixture
def ctx(table_for, faces):
    t = table_for("cortex_slots")
    t.start_scene()
    t.pc.counters.filter(key="plot_points").update(value=2)
    t.other_pc.counters.filter(key="plot_points").update(value=2)
    faces.queue.extend([6, 2, 8, 7])
    t.roll = t.perform(t.player, "roll", {"pool": CTX_POOL}, sheet_id=t.pc.pk)
    t.banked = next(i for i, d in enumerate(t.roll.outcome["dice"]) if d["role"] == "bank")
    clear_cache()
    return t


def test_a_banked_die_joins_the_total_in_two_taps_from_the_own_card(ctx, client_for):
    """CTX-3: the card offers the Bank's dice to the roller (hidden in the card until the
    page finds the viewer plays the character or is a GM: the GMs' copy is the players'
    own with the GM's tools added); the tap on a die moves it for one plot point."""
    players = card_html(ctx.roll, "players")
    gm = card_html(ctx.roll, "gm")
    moves = re.compile(rf'class="card-moves"[^>]*data-moves-for="{ctx.pc.pk}"( hidden)?')
    assert moves.search(players).group(1) == " hidden"
    assert moves.search(gm).group(1) == " hidden"
    assert "Spend a plot point: a die from the Bank" in players and "Add to the total" in players
    assert "CTX-3" not in re.sub(r'title="[^"]*"', "", players.split("card-moves", 1)[1])

    response = _move(
        client_for(ctx.player),
        ctx,
        "bank_move",
        {"sheet": ctx.pc.pk, "seq": ctx.roll.seq, "index": ctx.banked, "to": "total"},
    )
    assert "Bank move" in _notice(response)
    assert ctx.counter(ctx.pc, "plot_points") == 1
    assert ctx.state()["rolls"][str(ctx.roll.seq)]["dice"][ctx.banked]["role"] == "total"


def test_another_players_roll_is_not_theirs_to_spend_on(ctx, client_for):
    """CTX-3: the other player, naming the roll and either character, changes nothing."""
    client = client_for(ctx.other)
    for sheet in (ctx.other_pc.pk, ctx.pc.pk):
        response = _move(
            client,
            ctx,
            "bank_move",
            {"sheet": sheet, "seq": ctx.roll.seq, "index": ctx.banked, "to": "total"},
        )
        assert 'data-kind="error"' in response.content.decode()
    assert ctx.counter(ctx.pc, "plot_points") == 2
    assert ctx.counter(ctx.other_pc, "plot_points") == 2
    assert ctx.state()["rolls"][str(ctx.roll.seq)]["dice"][ctx.banked]["role"] == "bank"
    assert TableEvent.objects.filter(campaign=ctx.campaign, action="bank_move").count() == 0


def test_a_hidden_roll_is_refused_as_a_missing_one(ctx, client_for, faces):
    """CTX-3: a move on the GM's secret roll reads exactly as one on a roll that is not there."""
    faces.queue.extend([6, 2, 8, 7])
    secret = ctx.perform(ctx.gm, "roll", {"pool": CTX_POOL}, sheet_id=ctx.other_pc.pk,
                         visibility="gm")  # fmt: skip
    client = client_for(ctx.other)
    said = [
        _notice(_move(client, ctx, "bank_move",
                      {"sheet": ctx.other_pc.pk, "seq": seq, "index": 3, "to": "total"}))
        for seq in (secret.seq, secret.seq + 50)
    ]  # fmt: skip
    assert said[0] == said[1] and "not one of this scene" in said[0]
    assert ctx.counter(ctx.other_pc, "plot_points") == 2


def test_outsiders_and_observers_get_no_move(ctx, client_for, outsider, observer):
    data = {"sheet": ctx.pc.pk, "seq": ctx.roll.seq, "index": ctx.banked, "to": "total"}
    assert _move(client_for(outsider), ctx, "bank_move", data).status_code == 404
    assert _move(client_for(observer), ctx, "bank_move", data).status_code in (403, 404)
    assert _move(client_for(ctx.player), ctx, "roll", data).status_code == 404
    assert ctx.counter(ctx.pc, "plot_points") == 2


@pytest.fixture
def per(table_for, faces):
    t = table_for("personae")
    t.start_scene()
    t.pc.counters.filter(key="criticals").update(value=1)
    t.perform(t.gm, "set_difficulty", {"difficulty": 50})
    faces.queue.extend([3, 2, 2])
    t.roll = t.perform(t.player, "challenge", {"actor": ACTOR, "goal": "Climb"}, sheet_id=t.pc.pk)
    clear_cache()
    return t


def test_a_failed_challenge_is_steered_and_ended_from_its_card(per, client_for):
    """PER-6, PER-9: one tap spends the critical for a glancing success; one tap says the
    challenge is over."""
    assert per.roll.outcome["result"] == "failure"
    card = card_html(per.roll, "players")
    assert "Spend a critical: a glancing success instead" in card
    assert "The challenge is over" in card
    client = client_for(per.player)
    steered = _move(client, per, "spend_critical", {"sheet": per.pc.pk})
    assert "Glancing success" in _notice(steered)
    assert per.counter(per.pc, "criticals") == 0
    over = _move(client, per, "extend_challenge",
                 {"sheet": per.pc.pk, "goal": "Climb", "extended": "no"})  # fmt: skip
    assert "Challenge over" in _notice(over)
    on = _move(client, per, "extend_challenge",
               {"sheet": per.pc.pk, "goal": "Climb", "extended": "yes", "next_goal": "Reach"})  # fmt: skip
    assert "Challenge extended" in _notice(on)


def test_another_player_cannot_spend_a_critical_for_the_card_s_character(per, client_for):
    """PER-6: the other player naming Mal is refused; Mal's bank is untouched."""
    response = _move(client_for(per.other), per, "spend_critical", {"sheet": per.pc.pk})
    assert 'data-kind="error"' in response.content.decode()
    assert per.counter(per.pc, "criticals") == 1
    assert not TableEvent.objects.filter(campaign=per.campaign, action="spend_critical").exists()


POOLS = {"serenity": ("Fightin'", "Pistol"), "smallville": ("Justice", "Lana")}


@pytest.mark.parametrize("system", ["serenity", "smallville"])
def test_only_the_side_whose_turn_it_is_gets_roll_back_and_give_in(
    table_for, faces, client_for, observer, system
):
    """SER-6, SMV-10: after Mal's roll it is Zoe's turn: Zoe's panel offers "Roll back"
    with the pool she rolled last, which one tap rolls as the contest's roll, and "Give
    in"; Mal's and an observer's panels show whose turn it is, without the buttons."""
    t = table_for(system)
    t.start_scene()
    zoe, mal = client_for(t.other), client_for(t.player)
    names = POOLS[system]
    theirs = list(t.other_pc.traits.filter(name__in=names).values_list("pk", flat=True))
    mine = list(t.pc.traits.filter(name__in=names).values_list("pk", flat=True))
    zoe_roll = reverse("table_pool_roll", args=[t.campaign.pk, t.other_pc.pk])
    faces.queue.extend([5] * 6)
    assert zoe.post(zoe_roll, {"trait": theirs}, **HX).status_code == 200  # remembered
    sides = [{"sheet_id": t.pc.pk, "goal": "Win"}, {"sheet_id": t.other_pc.pk, "goal": "Stop"}]
    t.perform(t.gm, "contest_start", {"sides": sides, "first": 0})
    faces.queue.extend([2] * 6)
    mal_roll = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    assert mal.post(mal_roll, {"trait": mine}, **HX).status_code == 200
    panel = reverse("table_scene", args=[t.campaign.pk])
    page = reverse("table", args=[t.campaign.pk])
    for client, shown in ((zoe, True), (mal, False), (client_for(observer), False)):
        for url in (page, panel):
            text = client.get(url).content.decode()
            assert ("contest-moves" in text) is shown, url
            assert "’s turn" in text
    text = zoe.get(panel).content.decode()
    assert re.search(r"Roll back: [^<]+</button>", text) and "Give in" in text
    # Mal sending Zoe's roll back is refused: her builder is not his.
    assert mal.post(zoe_roll, {"again": "0"}, **HX).status_code in (403, 404)
    faces.queue.extend([6] * 6)
    assert zoe.post(zoe_roll, {"again": "0"}, **HX).status_code == 200
    rolls = TableEvent.objects.filter(campaign=t.campaign, action="contest_roll").order_by("seq")
    assert [e.character_id for e in rolls] == [t.pc.pk, t.other_pc.pk]
    assert len(rolls[1].request["pool"]) >= 2
