"""CTX-4, CTX-7 from the card (issue #27, 5): a player buys a hitch of the GM's roll in
two taps ("Buy the GM's hitch…", then the hitch for one of their characters), for one
plot point. The GM's own card offers no such move; a player's roll's hitches are not
the players' to buy; a hidden GM roll is refused exactly as a missing one."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from table.models import TableEvent
from table.reading.rendering import card_html, clear_cache

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _move(client, t, data):
    return client.post(reverse("table_move", args=[t.campaign.pk, "buy_hitch"]), data, **HX)


def _pick(client, t, seq):
    url = reverse("table_move_pick", args=[t.campaign.pk, "buy_hitch"])
    return client.get(url, {"seq": seq}, **HX)


def _notice(response) -> str:
    found = re.search(r'id="table-notice"[^>]*>(.*?)</div>', response.content.decode())
    assert found, response.content
    return html.unescape(found.group(1))


def _bought():
    return TableEvent.objects.filter(action="buy_hitch")


@pytest.fixture
def ctx(table_for, faces):
    t = table_for("cortex_slots")
    t.start_scene()
    for sheet in (t.pc, t.other_pc):
        sheet.counters.filter(key="plot_points").update(value=2)
    faces.queue.extend([1, 6, 4])
    t.gm_roll = t.perform(t.gm, "gm_pool", {"pool": ["d8", "d6", "d6"]})
    clear_cache()
    return t


def test_a_player_buys_the_gms_hitch_in_two_taps(ctx, client_for):
    players = card_html(ctx.gm_roll, "players")
    assert re.search(r'data-moves-against="[^"]*" data-players-only hidden', players)
    assert "Buy the GM's hitch" in html.unescape(players)
    # The GMs' copy of a card read alike is the players' own: the move is marked as a
    # player's, which static/js/comfort.js never shows on a GM's page.
    gm = html.unescape(card_html(ctx.gm_roll, "gm"))
    assert "Buy the GM's hitch" not in gm or "data-players-only hidden" in gm
    mal = client_for(ctx.player)
    picked = html.unescape(_pick(mal, ctx, ctx.gm_roll.seq).content.decode())
    assert "Mal" in picked and "Zoe" not in picked
    assert re.findall(r'hx-swap="none">([^<]+)<', picked) == ["Buy d8 d8 (1 plot point)"]
    said = _notice(_move(mal, ctx, {"sheet": ctx.pc.pk, "seq": ctx.gm_roll.seq, "index": 0}))
    assert "hitch" in said.lower()
    assert ctx.counter(ctx.pc, "plot_points") == 1
    assert _bought().get().character_id == ctx.pc.pk
    assert [h["use"] for h in ctx.state()["held_hitches"]] == ["opportunity"]


def test_nobody_buys_with_another_players_character(ctx, client_for):
    response = _move(client_for(ctx.other), ctx,
                     {"sheet": ctx.pc.pk, "seq": ctx.gm_roll.seq, "index": 0})  # fmt: skip
    assert 'data-kind="error"' in response.content.decode()
    assert ctx.counter(ctx.pc, "plot_points") == 2
    assert not _bought().exists()


def test_a_players_hitch_is_not_the_players_to_buy(ctx, client_for, faces):
    faces.queue.extend([1, 5, 5, 5])
    pool = [{"die": "d4", "trait": n, "group": g} for n, g in
            (("Agility", "attributes"), ("Ex-Marine", "distinctions"),
             ("Shoot", "skills"), ("Sniper Rifle", "assets"))]  # fmt: skip
    roll = ctx.perform(ctx.player, "roll", {"pool": pool}, sheet_id=ctx.pc.pk)
    zoe = client_for(ctx.other)
    assert "Buy" not in _pick(zoe, ctx, roll.seq).content.decode()
    response = _move(zoe, ctx, {"sheet": ctx.other_pc.pk, "seq": roll.seq, "index": 0})
    assert 'data-kind="error"' in response.content.decode()
    assert not _bought().exists()


def test_a_hidden_gm_roll_is_refused_as_a_missing_one(ctx, client_for, faces):
    faces.queue.extend([1, 6, 4])
    secret = ctx.perform(ctx.gm, "gm_pool", {"pool": ["d8", "d6", "d6"]}, visibility="gm")
    mal = client_for(ctx.player)
    said = [
        _notice(_move(mal, ctx, {"sheet": ctx.pc.pk, "seq": seq, "index": 0}))
        for seq in (secret.seq, secret.seq + 50)
    ]
    assert said[0] == said[1]
    assert [_pick(mal, ctx, s).status_code for s in (secret.seq, secret.seq + 50)] == [404, 404]
    assert ctx.counter(ctx.pc, "plot_points") == 2
    assert not _bought().exists()
