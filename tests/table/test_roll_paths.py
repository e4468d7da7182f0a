"""One roll, whichever way it is asked for (table/pools/rolls.py): the pool builder's Roll
button, chat's `/roll` from the chat form and `/roll` over the socket make the same
request from the same picks, in every game: the same pool, the dice the GM added to the
roll while it was built, the same cost charged; and each of them clears the pool in the
open and keeps the pool among the character's recent ones."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from sheets.models import Counter, Trait
from table.models import Kind, TableEvent
from table.pools import live_pool
from table.pools import recent as recent_pools
from table.pools.builder import build, builder_inputs
from table.pools.scene import scene_state
from table.reading.rendering import clear_cache
from table.talk import chat
from table.writing import actions as table_actions

from .sockets import HANG_GUARD, open_socket, send, seqs
from .test_chat import refusal

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HTTP_HX_REQUEST": "true"}

# Per game: the /roll line, the traits it names (as clicked, in order), and the dice the
# GM adds to the roll while it is built: (holder, group, trait, die) to set up first.
GAMES = {
    "serenity": (
        "/roll fightin’ + War Veteran, loyalty",
        ["Fightin'", "War Veteran", "Loyalty"],
        [("npc", "complications", "Winged", None), ("other_pc", "stress", "Angry", 6)],
    ),
    "smallville": (
        "/roll Justice + lana",
        ["Justice", "Lana"],
        # SMV-4: the first of the opponent's stress dice is free, the second costs a plot
        # point; SMV-5: a Limit adds three dice of its size.
        [
            ("other_pc", "stress", "Angry", 6),
            ("other_pc", "stress", "Afraid", 8),
            ("npc", "limits", "Kryptonite", 8),
        ],
    ),
    "cortex_slots": ("/roll Agility + Shoot + ex-marine", ["Agility", "Shoot", "Ex-Marine"], []),
    "personae": ("/roll Swordplay: disarm the guard", ["Swordplay"], []),
    "unisystem": ("/roll Dexterity + Acrobatics", ["Dexterity", "Acrobatics"], []),
}
FACES = [3] * 30  # every die fits a 3: the same faces for each path, the same outcome


@pytest.fixture(autouse=True)
def fresh_cards():
    clear_cache()
    yield
    clear_cache()


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def builder_fields(t, names: list[str], **extra) -> dict:
    """The builder's fields after clicking the named traits one after another."""
    membership = t.campaign.memberships.get(user=t.player)
    inputs = builder_inputs(t.campaign, t.pc, scene_state(t.campaign, membership))
    by_name = {trait.name: trait.pk for trait in inputs.traits}
    data: dict = {"trait": [], **extra}
    for name in names:
        clicked = by_name[name]
        if clicked in data["trait"]:
            continue
        data = {**data, "trait": [*data["trait"], clicked], "clicked": clicked}
        data["trait"] = list(build(t.campaign, t.pc, data, inputs, gm=False).selected)
    return {k: [str(i) for i in v] if k == "trait" else v for k, v in data.items()}


def set_up(t, system: str):
    t.start_scene()
    if system == "personae":  # PER-1: the GM gives the number to beat
        t.perform(t.gm, "set_difficulty", {"difficulty": 9})
    _, _, added = GAMES[system]
    keys = []
    for holder_name, group, trait, die in added:
        holder = getattr(t, holder_name)
        found = Trait.objects.filter(sheet=holder, group=group, name=trait).first()
        if found is None:
            found = Trait.objects.create(sheet=holder, group=group, name=trait, position=9)
        if die is not None:
            found.die = die
            found.save()
        keys.append(f"{holder.pk}:{group}:{trait}")
    return keys


def build_in_the_open(t, fields: dict, keys: list[str]) -> None:
    """The player builds the pool in their builder; the GM adds the dice to it."""
    url = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    clicked = fields["trait"][-1]
    client_for(t.player).post(url, {**fields, "clicked": clicked}, **HX)
    gm = client_for(t.gm)
    for key in keys:
        gm.post(
            reverse("table_live_pool", args=[t.campaign.pk, t.pc.pk]),
            {"op": "add", "die": key},
            **HX,
        )
    assert [a["key"] for a in live_pool.current(t.campaign.pk, t.pc.pk)["additions"]] == keys


def by_the_builder(t, fields: dict, line: str) -> None:
    url = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    answer = client_for(t.player).post(url, {**fields, "visibility": "public"}, **HX)
    assert "Rolled:" in answer.content.decode()


def by_the_chat_form(t, fields: dict, line: str) -> None:
    url = reverse("table_say", args=[t.campaign.pk])
    answer = client_for(t.player).post(url, {"speak": f"ic:{t.pc.pk}", "text": line}, **HX)
    assert "Sent." in answer.content.decode()


def over_the_socket(t, fields: dict, line: str) -> None:
    message = {"type": "say", "speak": f"ic:{t.pc.pk}", "text": line}
    head = TableEvent.objects.filter(campaign=t.campaign).order_by("-seq").first().seq

    async def exchange() -> list[str]:
        comm, connected, _ = await open_socket(t.player, t.campaign, last_seq=head)
        assert connected
        await send(comm, message)
        got: list[str] = []
        # Until the roll's card comes back, or a refusal: whichever, it comes.
        while not any(seq > head for seq in seqs(got)) and not refusal(got):
            got.append(await comm.receive_from(timeout=HANG_GUARD))
        await comm.disconnect()
        return got

    got = async_to_sync(exchange)()
    assert refusal(got) == ""


PATHS = [by_the_builder, by_the_chat_form, over_the_socket]


@pytest.mark.parametrize("system", sorted(GAMES))
def test_the_builder_chat_and_the_socket_make_the_same_roll(table_for, faces, monkeypatch, system):
    t = table_for(system)
    line, names, _ = GAMES[system]
    keys = set_up(t, system)
    goal = {"goal": line.partition(":")[2].strip()} if ":" in line else {}
    fields = builder_fields(t, names, **goal)
    sent: list[tuple[str, dict]] = []
    pools: list = []
    perform_in, remember = table_actions.perform_in, recent_pools.remember

    def performing(campaign_id, user, action, request, **kwargs):
        sent.append((action, request))
        return perform_in(campaign_id, user, action, request, **kwargs)

    def remembering(campaign_id, sheet_id, pool, event):
        pools.append(pool)
        return remember(campaign_id, sheet_id, pool, event)

    monkeypatch.setattr(table_actions, "perform_in", performing)
    monkeypatch.setattr(recent_pools, "remember", remembering)
    counters = {c.key: c.value for c in Counter.objects.filter(sheet=t.pc)}
    rolls = []
    for path in PATHS:
        Counter.objects.filter(sheet=t.pc).delete()
        Counter.objects.bulk_create(
            Counter(sheet=t.pc, key=k, value=v + (3 if k == "plot_points" else 0))
            for k, v in counters.items()
        )
        before = {c.key: c.value for c in Counter.objects.filter(sheet=t.pc)}
        build_in_the_open(t, fields, keys)
        faces.queue[:] = FACES
        path(t, fields, line)
        event = TableEvent.objects.filter(kind=Kind.ACTION, actor=t.player).latest("seq")
        after = {c.key: c.value for c in Counter.objects.filter(sheet=t.pc)}
        charged = {k: before[k] - after.get(k, 0) for k in before if before[k] != after.get(k)}
        rolls.append(
            {
                "action": event.action,
                "request": event.request,
                "headline": event.headline,
                "charged": charged,
            }
        )
        assert live_pool.current(t.campaign.pk, t.pc.pk) is None, path.__name__
        recent = recent_pools.recall(
            t.campaign.pk, t.pc.pk, t.campaign.memberships.get(user=t.player)
        )
        assert recent and recent[0]["seq"] == event.seq, path.__name__
    assert len(sent) == len(PATHS) and len(pools) == len(PATHS)
    assert sent[1:] == sent[:1] * 2, "the same request from every path"
    assert [(p.cost, p.cost_lines) for p in pools[1:]] == [(pools[0].cost, pools[0].cost_lines)] * 2
    assert rolls[1:] == rolls[:1] * 2
    pool = sent[0][1].get("pool")
    if keys:  # the GM's dice are in the roll's request, named with their holder
        added = {(e.get("sheet"), e.get("trait")) for e in pool if e.get("sheet")}
        assert added == {(int(k.split(":")[0]), k.split(":")[2]) for k in keys}
    if system == "smallville":  # SMV-4: the second of the opponent's stress dice costs 1
        assert rolls[0]["charged"] == {"plot_points": 1}


def test_roll_from_the_chat_line_takes_the_dice_the_gm_added(table_for, faces):
    """A player builds Fightin' in the builder, the GM adds Niska's Winged complication
    to it (SER-1), and the player rolls with `/roll Fightin'` from the chat line: the
    roll takes the GM's die, as the Roll button would, and the pool leaves the open."""
    t = table_for("serenity")
    t.start_scene()
    fields = builder_fields(t, ["Fightin'"])
    build_in_the_open(t, fields, [f"{t.npc.pk}:complications:Winged"])
    faces.queue[:] = FACES
    event = chat.say(t.campaign.pk, t.player, "ooc", "/roll Fightin'")
    assert {"die": "d6", "trait": "Winged", "group": "complications", "sheet": t.npc.pk} in (
        event.request["pool"]
    )
    assert any(d.get("trait") == "Winged" for d in event.outcome["dice"])
    assert live_pool.current(t.campaign.pk, t.pc.pk) is None
    page = client_for(t.player).get(reverse("table_pool", args=[t.campaign.pk, t.pc.pk]))
    assert "Again:" in page.content.decode()
