"""The pool in the open (table/pools/live_pool.py): the GM sees a player's pool while it is
built, with its odds, and may add the other side's dice to it; the other players see only
that a roll is being built; a blind roll's pool is the GM's only."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from sheets.models import Trait
from table.models import TableEvent
from table.pools import live_pool
from table.writing import actions as table_actions

from .sockets import HANG_GUARD, caught_up, messages, open_socket

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def build(t, user, sheet, *names, visibility="public"):
    ids = [str(t.trait(sheet, "stylins", n).pk) for n in names if n != "Pistol"]
    ids += [str(t.trait(sheet, "assets", n).pk) for n in names if n == "Pistol"]
    url = reverse("table_pool", args=[t.campaign.pk, sheet.pk])
    data = {"trait": ids, "clicked": ids[-1] if ids else "", "visibility": visibility}
    return client_for(user).post(url, data, HTTP_HX_REQUEST="true")


def add(user, t, sheet, key, op="add"):
    url = reverse("table_live_pool", args=[t.campaign.pk, sheet.pk])
    return client_for(user).post(url, {"op": op, "die": key}, HTTP_HX_REQUEST="true")


def roll(t, user, sheet, *names, **extra):
    ids = [str(t.trait(sheet, "stylins", n).pk) for n in names]
    url = reverse("table_pool_roll", args=[t.campaign.pk, sheet.pk])
    data = {"trait": ids, "visibility": "public", **extra}
    return client_for(user).post(url, data, HTTP_HX_REQUEST="true")


def niska_winged(t) -> str:
    return f"{t.npc.pk}:complications:Winged"


async def received(comm, wanted: str) -> list[str]:
    """Messages until one holds `wanted` (HANG_GUARD seconds of silence fails)."""
    got: list[str] = []
    while not any(wanted in m for m in got):
        assert not await comm.receive_nothing(timeout=HANG_GUARD), got
        got.append(await comm.receive_from())
    return got


@pytest.mark.django_db(transaction=True)
async def test_gm_sees_the_pool_live_with_its_odds_and_others_only_that_it_is_built(table_for):
    t = await sync_to_async(table_for)("serenity")
    gm, _, _ = await open_socket(t.gm, t.campaign)
    other, _, _ = await open_socket(t.other, t.campaign)
    try:
        await caught_up(gm)
        await caught_up(other)
        await sync_to_async(build)(t, t.player, t.pc, "Fightin'", "Pistol")
        got = "".join(await received(gm, f'id="live-pool-{t.pc.pk}"'))
        assert "Mal</strong>: d10 Fightin&#x27;, d12 Pistol" in got
        assert "Average result" in got  # the odds sentence (no number to beat yet)
        assert niska_winged(t) in got  # the GM's picker
        seen = "".join(await received(other, f'id="live-pool-{t.pc.pk}"'))
        assert "Mal is building a roll" in seen
        assert "Fightin" not in seen and "d12" not in seen and "Average" not in seen
    finally:
        await gm.disconnect()
        await other.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_blind_pool_reaches_nobody_but_the_gms(table_for):
    t = await sync_to_async(table_for)("serenity")
    gm, _, _ = await open_socket(t.gm, t.campaign)
    other, _, _ = await open_socket(t.other, t.campaign)
    try:
        await caught_up(gm)
        await caught_up(other)
        await sync_to_async(build)(t, t.player, t.pc, "Fightin'", visibility="blind")
        got = "".join(await received(gm, f'id="live-pool-{t.pc.pk}"'))
        assert "d10 Fightin" in got and "blind" in got
        seen = "".join(await messages(other, quiet=0.3))
        assert "building a roll" not in seen and "Fightin" not in seen
    finally:
        await gm.disconnect()
        await other.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_other_players_receive_nothing_at_all_while_a_blind_pool_is_built(table_for):
    """Not even an empty slot per tick: its count and timing would tell them that Mal is
    building a blind roll, and roughly how big. Messages reach a socket in the order
    they were sent, so the first thing Zoe's receives after Mal's blind picks is the
    public pool he builds next: nothing came before it."""
    t = await sync_to_async(table_for)("serenity")
    gm, _, _ = await open_socket(t.gm, t.campaign)
    other, _, _ = await open_socket(t.other, t.campaign)
    try:
        await caught_up(gm)
        await caught_up(other)
        for picks in (["Fightin'"], ["Fightin'", "Movin'"], ["Movin'"], []):
            await sync_to_async(build)(t, t.player, t.pc, *picks, visibility="blind")
        await sync_to_async(build)(t, t.player, t.pc, "Finaglin'", visibility="blind")
        await sync_to_async(build)(t, t.player, t.pc, "Finaglin'")
        seen = await received(other, "Mal is building a roll")
        assert len(seen) == 1, seen  # the public pool's slot, and nothing before it
        # The GM saw each blind change as it happened, the emptied builder too.
        gm_seen = await received(gm, "d6 Finaglin&#x27; — ")
        assert len(gm_seen) == 5 and all("blind" in m for i, m in enumerate(gm_seen) if i != 3)
        assert "d10 Fightin" in gm_seen[0] and "is-live" not in gm_seen[3]
        # Back to blind: the players' slot empties once, then again nothing.
        await sync_to_async(build)(t, t.player, t.pc, "Finaglin'", visibility="blind")
        await sync_to_async(build)(t, t.player, t.pc, "Fightin'", visibility="blind")
        await sync_to_async(build)(t, t.other, t.other_pc, "Fightin'")  # Zoe's own, a marker
        seen = await received(other, f'id="live-pool-{t.other_pc.pk}"')
        assert len(seen) == 2 and "building a roll" not in seen[0], seen
    finally:
        await gm.disconnect()
        await other.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_gms_die_arrives_in_the_rollers_builder_only(table_for):
    t = await sync_to_async(table_for)("serenity")
    mine, _, _ = await open_socket(t.player, t.campaign)
    other, _, _ = await open_socket(t.other, t.campaign)
    try:
        await caught_up(mine)
        await caught_up(other)
        await sync_to_async(build)(t, t.player, t.pc, "Fightin'")
        # A builder's own change sends it nothing to re-render for (it would loop).
        assert "gm-additions" not in "".join(await messages(mine, quiet=0.3))
        await sync_to_async(add)(t.gm, t, t.pc, niska_winged(t))
        got = "".join(await received(mine, "The GM adds to this roll"))
        assert "The GM adds to this roll" in got and "d6 Winged" in got
        seen = "".join(await messages(other, quiet=0.3))
        assert "Winged" not in seen and "gm-additions" not in seen
    finally:
        await mine.disconnect()
        await other.disconnect()


def test_the_roll_includes_the_gms_die_and_clears_the_pool(table_for):
    t = table_for("serenity")
    t.start_scene()
    build(t, t.player, t.pc, "Fightin'")
    answer = add(t.gm, t, t.pc, niska_winged(t))
    assert "d6 Winged" in answer.content.decode()
    builder = build(t, t.player, t.pc, "Fightin'").content.decode()
    assert "The GM adds to this roll" in builder and "d6 Winged" in builder
    roll(t, t.player, t.pc, "Fightin'")
    event = TableEvent.objects.filter(campaign=t.campaign, actor=t.player).latest("seq")
    pool = event.request["pool"]
    assert {"group": "complications", "trait": "Winged", "sheet": t.npc.pk}.items() <= (
        pool[-1].items()
    )
    assert len(event.outcome["dice"]) == 2
    page = client_for(t.player).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "Winged" in page  # on the card
    assert live_pool.current(t.campaign.pk, t.pc.pk) is None  # cleared by the roll
    roll(t, t.player, t.pc, "Fightin'")
    again = TableEvent.objects.filter(campaign=t.campaign, actor=t.player).latest("seq")
    assert len(again.request["pool"]) == 1  # the GM's die was for one roll


def test_a_player_cannot_add_to_a_pool_nor_take_the_gms_die_out(table_for):
    t = table_for("serenity")
    t.start_scene()
    build(t, t.other, t.other_pc, "Fightin'")
    assert add(t.player, t, t.other_pc, niska_winged(t)).status_code == 403
    assert add(t.player, t, t.pc, niska_winged(t)).status_code == 403
    build(t, t.player, t.pc, "Fightin'")
    add(t.gm, t, t.pc, niska_winged(t))
    assert add(t.player, t, t.pc, niska_winged(t), op="remove").status_code == 403
    # A crafted roll naming other fields, or a pool without it, still gets the GM's die.
    roll(t, t.player, t.pc, "Fightin'", pool="[]", gm_additions="", table_asset="")
    event = TableEvent.objects.filter(campaign=t.campaign, actor=t.player).latest("seq")
    assert any(e.get("trait") == "Winged" for e in event.request["pool"])


def test_a_die_not_offered_is_refused_and_a_hidden_holders_never_offered(table_for):
    t = table_for("serenity")
    t.npc.hidden = True
    t.npc.save()
    build(t, t.player, t.pc, "Fightin'")
    keys = [o["key"] for o in live_pool.options_for(t.campaign, t.pc)]
    assert niska_winged(t) not in keys and f"{t.other_pc.pk}:complications:Winged" in keys
    answer = add(t.gm, t, t.pc, niska_winged(t)).content.decode()
    assert "not on the table" in answer
    assert live_pool.additions_of(t.campaign.pk, t.pc.pk) == []


def test_a_stale_pool_in_progress_expires(table_for, monkeypatch):
    t = table_for("serenity")
    build(t, t.player, t.pc, "Fightin'")
    add(t.gm, t, t.pc, niska_winged(t))
    assert live_pool.current(t.campaign.pk, t.pc.pk) is not None
    later = live_pool.now() + live_pool.TTL + 1
    monkeypatch.setattr(live_pool, "now", lambda: later)
    assert live_pool.current(t.campaign.pk, t.pc.pk) is None
    page = client_for(t.gm).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "d10 Fightin" not in page
    assert add(t.gm, t, t.pc, niska_winged(t)).content.decode().count("not building") == 1
    assert not TableEvent.objects.filter(campaign=t.campaign, kind="roll").exists()


def test_the_page_shows_pools_in_progress_as_the_gate_allows(table_for):
    t = table_for("serenity")
    build(t, t.player, t.pc, "Fightin'")
    url = reverse("table", args=[t.campaign.pk])
    gm_page = client_for(t.gm).get(url).content.decode()
    assert "d10 Fightin" in gm_page and "Add to Mal" in gm_page
    other_page = client_for(t.other).get(url).content.decode()
    assert "Mal is building a roll" in other_page and "d10 Fightin" not in other_page
    build(t, t.player, t.pc, "Fightin'", visibility="blind")
    other_page = client_for(t.other).get(url).content.decode()
    assert "Mal is building a roll" not in other_page


def test_a_d10_game_offers_the_gm_the_difficulty_not_dice(table_for):
    t = table_for("personae")
    t.start_scene()
    swordplay = t.trait(t.pc, "skills", "Swordplay")
    url = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    data = {"trait": [str(swordplay.pk)], "clicked": str(swordplay.pk), "goal": "win"}
    client_for(t.player).post(url, data, HTTP_HX_REQUEST="true")
    record = live_pool.current(t.campaign.pk, t.pc.pk)
    assert record is not None and "3 Swordplay" in record["dice"]
    card = live_pool.card_html(t.campaign, t.pc.pk, record, gm=True)
    assert "Set the difficulty" in card and 'name="die"' not in card
    assert live_pool.options_for(t.campaign, t.pc) == []


def test_the_builder_keeps_who_sees_the_roll_across_its_re_renders(table_for):
    """A player who chose a blind roll keeps that choice while they go on picking."""
    t = table_for("serenity")
    html = build(t, t.player, t.pc, "Fightin'", visibility="blind").content.decode()
    assert '<option value="blind" selected>' in html
    html = build(t, t.player, t.pc, "Fightin'").content.decode()
    assert '<option value="blind" selected>' not in html
    gm_html = build(t, t.gm, t.npc, visibility="gm").content.decode()
    assert '<option value="gm" selected>' in gm_html


def test_smv4_smv5_the_watchtower_adds_an_opponents_stress_or_limit(table_for):
    t = table_for("smallville")
    t.start_scene()
    Trait.objects.create(sheet=t.npc, group="limits", name="Kryptonite", die=8, position=0)
    stress = t.trait(t.other_pc, "stress", "Angry")
    stress.die = 6
    stress.save()
    justice = t.trait(t.pc, "values", "Justice")
    url = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    data = {"trait": [str(justice.pk)], "clicked": str(justice.pk)}
    client_for(t.player).post(url, data, HTTP_HX_REQUEST="true")
    offered = {o["key"]: o["die"] for o in live_pool.options_for(t.campaign, t.pc)}
    limit = f"{t.npc.pk}:limits:Kryptonite"
    assert offered == {limit: "d8", f"{t.other_pc.pk}:stress:Angry": "d6"}
    add(t.gm, t, t.pc, limit)
    lana = t.trait(t.pc, "relationships", "Lana")
    roll_url = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    picked = {"trait": [str(justice.pk), str(lana.pk)], "visibility": "public"}
    client_for(t.player).post(roll_url, picked, HTTP_HX_REQUEST="true")
    event = TableEvent.objects.filter(campaign=t.campaign, actor=t.player).latest("seq")
    limit_dice = [d for d in event.outcome["dice"] if d.get("trait") == "Kryptonite"]
    assert len(limit_dice) == 3 and {d["die"] for d in limit_dice} == {"d8"}  # SMV-5


def test_ctx1_the_gm_rolls_the_difficulty_from_a_pool_in_progress(table_for):
    t = table_for("cortex_slots")
    t.start_scene()
    picks = [str(t.trait(t.pc, g, n).pk) for g, n in
             (("attributes", "Agility"), ("distinctions", "Ex-Marine"), ("skills", "Shoot"))]  # fmt: skip
    url = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    client_for(t.player).post(url, {"trait": picks, "clicked": picks[-1]}, HTTP_HX_REQUEST="true")
    record = live_pool.current(t.campaign.pk, t.pc.pk)
    card = live_pool.card_html(t.campaign, t.pc.pk, record, gm=True)
    assert "Roll the difficulty" in card and 'name="die"' in card
    assert "Roll the difficulty" not in live_pool.card_html(t.campaign, t.pc.pk, record, gm=False)
    gm_roll = reverse("table_gm_roll", args=[t.campaign.pk])
    form = {"die": ["d8", "d6"], "die_name": ["Guards", "Alarm"], "visibility": "public"}
    client_for(t.gm).post(gm_roll, form, HTTP_HX_REQUEST="true")
    difficulty = t.state()["difficulty"]["value"]
    builder = client_for(t.player).post(url, {"trait": picks}, HTTP_HX_REQUEST="true")
    assert f'placeholder="{difficulty}"' in builder.content.decode()  # the odds are against it
    roll_url = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    client_for(t.player).post(roll_url, {"trait": picks}, HTTP_HX_REQUEST="true")
    event = TableEvent.objects.filter(campaign=t.campaign, actor=t.player).latest("seq")
    assert event.outcome["difficulty"] == difficulty


def test_per1_the_gm_grants_bonus_dice_to_a_challenge_in_progress(table_for):
    t = table_for("personae")
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 9})
    swordplay = t.trait(t.pc, "skills", "Swordplay")
    url = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    data = {"trait": [str(swordplay.pk)], "clicked": str(swordplay.pk), "goal": "win"}
    client_for(t.player).post(url, data, HTTP_HX_REQUEST="true")
    record = live_pool.current(t.campaign.pk, t.pc.pk)
    card = live_pool.card_html(t.campaign, t.pc.pk, record, gm=True)
    assert "Grant bonus dice" in card and f'name="sheet" value="{t.pc.pk}"' in card
    grant = reverse("table_act", args=[t.campaign.pk, "grant_bonus_dice"])
    form = {"sheet": t.pc.pk, "grant_bonus_dice-dice": "2", "grant_bonus_dice-visibility": "public"}
    client_for(t.gm).post(grant, form, HTTP_HX_REQUEST="true")
    builder = client_for(t.player).post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert "Bonus dice from the GM: <strong>2</strong>" in builder
    roll_url = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    client_for(t.player).post(roll_url, data, HTTP_HX_REQUEST="true")
    event = TableEvent.objects.filter(campaign=t.campaign, actor=t.player).latest("seq")
    assert event.request["actor"]["bonus_dice"] == 2


def test_a_pool_rolled_before_is_one_tap_away_and_reads_its_dice_again(table_for):
    """The recent pools (table/pools/recent.py): Again names traits, the sheet gives dice."""
    t = table_for("serenity")
    t.start_scene()
    url = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    assert "Again:" not in client_for(t.player).get(url).content.decode()
    roll(t, t.player, t.pc, "Fightin'")
    fresh = client_for(t.player).get(url).content.decode()
    assert "Again:" in fresh and ">Fightin&#x27;</button>" in fresh
    fightin = t.trait(t.pc, "stylins", "Fightin'")
    fightin.die = 12
    fightin.save()
    again = client_for(t.player).post(url, {"again": "0"}, HTTP_HX_REQUEST="true")
    assert f'value="{fightin.pk}" checked' in again.content.decode()
    assert live_pool.current(t.campaign.pk, t.pc.pk)["dice"] == ["d12 Fightin'"]
    # Nobody else uses or sees Mal's recent pools.
    assert client_for(t.other).post(url, {"again": "0"}, HTTP_HX_REQUEST="true").status_code == 403
    other_url = reverse("table_pool", args=[t.campaign.pk, t.other_pc.pk])
    assert "Again:" not in client_for(t.other).get(other_url).content.decode()


def again_labels(html: str) -> list[str]:
    """The Again buttons of a builder, newest first."""
    return re.findall(r"""hx-vals='\{"again": "\d+"\}'[^>]*>([^<]*)</button>""", html)


def test_again_offers_a_pool_only_to_those_who_may_see_its_roll(table_for):
    """A secret roll the GM makes through Mal's builder is the GMs' to roll again: Mal's
    builder neither shows it nor takes it by its place in the list, and it pushes none
    of his own out. His blind roll is his and the GMs'. A reveal opens it to the table."""
    t = table_for("serenity")
    t.start_scene()
    url = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    roll(t, t.player, t.pc, "Fightin'")
    for name in ("Fightin'", "Movin'", "Finaglin'"):
        roll(t, t.gm, t.pc, name, visibility="gm")
    secret = TableEvent.objects.filter(campaign=t.campaign, actor=t.gm).latest("seq")
    mine = client_for(t.player).get(url).content.decode()
    assert again_labels(mine) == ["Fightin&#x27;"]
    taken = client_for(t.player).post(url, {"again": "1"}, HTTP_HX_REQUEST="true")
    movin = t.trait(t.pc, "stylins", "Movin'")
    assert f'value="{movin.pk}" checked' not in taken.content.decode()
    gms = client_for(t.gm).get(url).content.decode()
    assert again_labels(gms) == ["Finaglin&#x27;", "Movin&#x27;", "Fightin&#x27;"]

    roll(t, t.player, t.pc, "Movin'", visibility="blind")
    mine = client_for(t.player).get(url).content.decode()
    assert again_labels(mine) == ["Movin&#x27;", "Fightin&#x27;"]
    assert again_labels(client_for(t.gm).get(url).content.decode())[0] == "Movin&#x27;"

    table_actions.reveal(t.campaign, t.gm, secret.pk)
    mine = client_for(t.player).get(url).content.decode()
    assert again_labels(mine) == ["Movin&#x27;", "Finaglin&#x27;", "Fightin&#x27;"]
