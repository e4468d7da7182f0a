"""Issue #15 as an attacker plays it: a player who wants to peek behind the GM's screen,
through the real socket and pages. Each test failed on the table as it was before the
visibility gate (table/log/visibility.py)."""

from __future__ import annotations

import html

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from table.models import TableEvent
from tests.table.sockets import caught_up, messages, open_socket, send

pytestmark = pytest.mark.django_db(transaction=True)

CTX_POOL = [
    {"die": "d4", "trait": "Agility", "group": "attributes"},
    {"die": "d4", "trait": "Ex-Marine", "group": "distinctions"},
    {"die": "d4", "trait": "Shoot", "group": "skills"},
]


@pytest.fixture
def ctx(table_for):
    table = table_for("cortex_slots")
    table.scene = table.start_scene()
    return table


def state_rows(t) -> tuple:
    """Everything an action could change at this table, to compare before and after."""
    from sheets.models import Counter, Trait
    from table.models import SceneState

    return (
        TableEvent.objects.filter(campaign=t.campaign).count(),
        sorted(Counter.objects.filter(sheet__campaign=t.campaign).values_list("pk", "value")),
        sorted(Trait.objects.filter(sheet__campaign=t.campaign).values_list("pk", "die", "flags")),
        [s.data for s in SceneState.objects.filter(campaign=t.campaign)],
    )


async def attempt(t, user, payload) -> str:
    """Send one act as `user` over a fresh socket; the notice text it got back."""
    comm, connected, _ = await open_socket(user, t.campaign, last_seq=None)
    assert connected
    await messages(comm)  # the connection's own hello, if any
    await send(comm, payload)
    received = "".join(await messages(comm, 1))
    await comm.disconnect()
    return html.unescape(received)


def gm_secret_pool(t, faces, dice):
    """The GM rolls a difficulty pool behind the screen (CTX-1)."""
    faces.queue.extend(dice)
    return t.perform(
        t.gm, "gm_pool", {"pool": ["d12", "d10", "d8"], "roller_kind": "boss"}, visibility="gm"
    )


# ---------------------------------------------------------------------- point 1


async def test_buy_hitch_pointing_at_a_secret_gm_roll_is_refused_as_if_it_did_not_exist(ctx, faces):
    """CTX-4: a player names the seq of the GM's secret pool (which holds a hitch) to buy
    it: the refusal is the one for a seq that does not exist; nothing is logged or spent,
    and no card describes the secret roll."""
    secret = await sync_to_async(gm_secret_pool)(ctx, faces, [1, 7, 5])
    before = await sync_to_async(state_rows)(ctx)
    buy = {"buyer": "players", "index": 0}
    hidden = await attempt(ctx, ctx.player, {
        "type": "act", "action": "buy_hitch", "sheet_id": ctx.pc.pk,
        "request": {**buy, "table": {"roll": secret.seq}},
    })  # fmt: skip
    missing = await attempt(ctx, ctx.player, {
        "type": "act", "action": "buy_hitch", "sheet_id": ctx.pc.pk,
        "request": {**buy, "table": {"roll": 999}},
    })  # fmt: skip
    assert "not one of this scene's recent rolls" in hidden
    assert hidden.replace("999", "") == missing.replace("999", "") or hidden == missing
    assert "d12" not in hidden and "hitch" not in hidden.split("data-kind")[-1].lower()
    assert await sync_to_async(state_rows)(ctx) == before
    # Without a seq, the GM's secret roll is not "the latest roll" either.
    default = await attempt(ctx, ctx.player, {
        "type": "act", "action": "buy_hitch", "sheet_id": ctx.pc.pk, "request": buy,
    })  # fmt: skip
    assert "There is no roll in this scene to do that with." in default
    assert await sync_to_async(state_rows)(ctx) == before


# ---------------------------------------------------------------------- point 2


@pytest.mark.parametrize("action", ["resplit", "bank_move"])
async def test_a_player_cannot_read_or_publish_their_own_blind_roll(ctx, faces, action):
    """CTX-2, CTX-3 on a blind roll: it is the GM's until revealed, the roller included."""
    faces.queue.extend([6, 2, 8])
    blind = await sync_to_async(ctx.perform)(
        ctx.player, "roll", {"pool": CTX_POOL}, sheet_id=ctx.pc.pk, visibility="blind"
    )
    before = await sync_to_async(state_rows)(ctx)
    request = (
        {"split": {"total": [0, 1], "effect": 2}}
        if action == "resplit"
        else {"index": 2, "to": "total"}
    )
    named = await attempt(ctx, ctx.player, {
        "type": "act", "action": action, "sheet_id": ctx.pc.pk,
        "request": {**request, "table": {"roll": blind.seq}},
    })  # fmt: skip
    missing = await attempt(ctx, ctx.player, {
        "type": "act", "action": action, "sheet_id": ctx.pc.pk,
        "request": {**request, "table": {"roll": blind.seq + 50}},
    })  # fmt: skip
    default = await attempt(ctx, ctx.player, {
        "type": "act", "action": action, "sheet_id": ctx.pc.pk, "request": request,
    })  # fmt: skip
    assert named == missing and "not one of this scene's recent rolls" in named
    assert "There is no roll in this scene to do that with." in default
    for text in (named, default):
        for die in blind.outcome["dice"]:
            assert f"{die['trait']} {die['die']}" not in text
    assert await sync_to_async(state_rows)(ctx) == before


# ---------------------------------------------------------------------- point 3


async def test_a_secret_difficulty_stays_off_the_players_own_public_card(ctx, faces, client_for):
    """CTX-1, CTX-2: the GM sets the difficulty behind the screen; the player's public
    roll is shown to players unscored, and scored on the GM's card only."""
    secret = await sync_to_async(gm_secret_pool)(ctx, faces, [11, 9, 3])
    difficulty = secret.outcome["result"]
    assert difficulty == 20
    gm, _, _ = await open_socket(ctx.gm, ctx.campaign, last_seq=None)
    other, _, _ = await open_socket(ctx.other, ctx.campaign, last_seq=None)
    await caught_up(gm)
    await caught_up(other)
    faces.queue.extend([6, 2, 8])
    mine = await attempt(ctx, ctx.player, {
        "type": "act", "action": "roll", "sheet_id": ctx.pc.pk, "request": {"pool": CTX_POOL},
    })  # fmt: skip
    seen = "".join(await messages(other, 1))
    gm_seen = "".join(await messages(gm, 1))
    await gm.disconnect()
    await other.disconnect()
    rolled = await sync_to_async(TableEvent.objects.get)(campaign=ctx.campaign, action="roll")
    assert rolled.request["difficulty"] is None and rolled.outcome.get("success") is None
    for text in (mine, seen):
        assert f"vs {difficulty}" not in text and "Behind the screen" not in text
        assert "success" not in text.lower() and "failure" not in text.lower()
    assert f"is {difficulty}" in gm_seen and "Behind the screen" in gm_seen
    panel = await sync_to_async(
        lambda: client_for(ctx.player).get(reverse("table_scene", args=[ctx.campaign.pk]))
    )()
    panel = panel.content.decode()
    assert "set by the GM behind the screen" in panel and f"<dd>{difficulty}" not in panel


# ---------------------------------------------------------------------- point 4


def test_secret_complications_and_scene_assets_stay_out_of_players_panels_and_builders(
    table_for, client_for, faces
):
    """SER-3 and CTX-7 behind the screen: a complication the GM activates in secret and
    a scene Asset the GM creates in secret are in the GM's panel and in no player's
    panel or pool builder; once revealed they are everyone's."""
    ser = table_for("serenity")
    ser.start_scene()
    activated = ser.perform(
        ser.gm, "activate_complication", {"complication": "Marked by Niska"},
        sheet_id=ser.other_pc.pk, visibility="gm",
    )  # fmt: skip
    ctx = table_for("cortex_slots")
    ctx.start_scene()
    created = ctx.perform(
        ctx.gm, "spend_plot_point", {"kind": "scene_asset", "asset": "Sniper Nest Above"},
        sheet_id=ctx.npc.pk, visibility="gm",
    )  # fmt: skip

    def pages(t, user) -> str:
        client = client_for(user)
        panel = client.get(reverse("table_scene", args=[t.campaign.pk]))
        page = client.get(reverse("table", args=[t.campaign.pk]))
        return panel.content.decode() + page.content.decode()

    assert "Marked by Niska" in pages(ser, ser.gm)
    assert "Sniper Nest Above" in pages(ctx, ctx.gm)
    for user in ("player", "other", "observer"):
        assert "Marked by Niska" not in pages(ser, getattr(ser, user))
        assert "Sniper Nest Above" not in pages(ctx, getattr(ctx, user))
    ser.perform(ser.gm, "give_points", {"amount": 1}, sheet_id=ser.pc.pk)  # a public event
    assert "Marked by Niska" not in pages(ser, ser.player)
    from table.writing.actions import reveal

    reveal(ser.campaign, ser.gm, activated.pk)
    reveal(ctx.campaign, ctx.gm, created.pk)
    assert "Marked by Niska" in pages(ser, ser.player)
    assert "Sniper Nest Above" in pages(ctx, ctx.player)


def test_a_player_cannot_roll_or_step_up_a_secret_scene_asset(table_for, faces):
    """CTX-7: naming a secret scene Asset gets the refusal a made-up name gets."""
    from table.writing.actions import ActionError

    t = table_for("cortex_slots")
    t.start_scene()
    t.perform(
        t.gm, "spend_plot_point", {"kind": "scene_asset", "asset": "Sniper Nest Above"},
        sheet_id=t.npc.pk, visibility="gm",
    )  # fmt: skip
    before = state_rows(t)

    def refusal(action, request) -> str:
        with pytest.raises(ActionError) as caught:
            t.perform(t.player, action, request, sheet_id=t.pc.pk)
        return str(caught.value)

    for hidden, missing in (("Sniper Nest Above", "Sniper Nest Below"), ("SNIPER NEST ABOVE", "X")):

        def step_up(name):
            return refusal("spend_plot_point", {"kind": "step_up_asset", "asset": name})

        def roll_with(name):
            pool = [*CTX_POOL, {"die": "d12", "trait": name, "group": "assets"}]
            return refusal("roll", {"pool": pool})

        for ask in (step_up, roll_with):
            assert ask(hidden).replace(hidden, "NAME") == ask(missing).replace(missing, "NAME")
    assert state_rows(t) == before
