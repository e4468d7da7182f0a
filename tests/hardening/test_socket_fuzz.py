"""Fuzz the table socket (rollcall.asgi, docs/protocol.md) with hypothesis: any JSON,
every message type with wrong types in every field, htmx ws-send form posts, huge and
deeply nested values, unknown types, kinds and actions, ids and seqs of the other
campaign, forged roles and visibility, replayed, negative and huge seqs.

One socket per test stays open across all examples. For every message:
- the consumer never raises and nothing is logged at ERROR;
- the socket stays open and answers the next ping;
- a message answered with an error notice changed nothing anywhere;
- whatever a message did changed only its own campaign (never the other one), and an
  observer's messages change nothing at all;
- a player's or observer's socket never receives anything of a secret or blind event.

The number of messages sent is printed at the end of the run ("hardening figures").
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from rollcall.asgi import application
from table.live import broadcast
from table.models import TableEvent
from table.talk import consumers, messages
from table.writing import actions
from tests.table.sockets import HANG_GUARD

from .world import FIGHTIN, World, diff, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = int(os.environ.get("SOCKET_FUZZ_EXAMPLES", "300"))
DERANDOMIZE = os.environ.get("HARDENING_FUZZ_RANDOM") != "1"
PONG = 'data-code="pong"'
NOTICE = re.compile(r'<div id="table-notice"[^>]*data-kind="(\w+)"[^>]*data-code="(\w+)"')


# ---------------------------------------------------------------------- one socket


class Driver:
    """A socket to the real application, driven from a synchronous hypothesis test on an
    event loop of its own (hypothesis runs examples synchronously; the socket outlives
    them all)."""

    def __init__(self, world: World, role: str) -> None:
        self.world = world
        self.role = role
        self.loop = asyncio.new_event_loop()
        self.loop_errors: list[str] = []
        self.loop.set_exception_handler(
            lambda loop, context: self.loop_errors.append(str(context.get("message")))
        )
        self.sent = 0
        self.comm = self.run(self._open())
        self.state = self.run(sync_to_async(snapshot)())

    def run(self, coroutine):
        return self.loop.run_until_complete(coroutine)

    async def _open(self) -> WebsocketCommunicator:
        client = Client()
        await sync_to_async(client.force_login)(self.world.users[self.role])
        cookie = f"{django_settings.SESSION_COOKIE_NAME}={client.cookies['sessionid'].value}"
        headers = [(b"host", b"testserver"), (b"origin", b"http://testserver"),
                   (b"cookie", cookie.encode())]  # fmt: skip
        comm = WebsocketCommunicator(
            application, f"/ws/campaign/{self.world.ours.campaign.pk}/?last_seq=0", headers
        )
        connected, _ = await comm.connect()
        assert connected
        await self._settle(comm)
        return comm

    async def _next(self, comm, timeout: float = HANG_GUARD) -> dict:
        if comm.future.done():
            comm.future.result()  # the consumer raised: fail with its exception
        return await asyncio.wait_for(comm.output_queue.get(), timeout)

    async def _settle(self, comm) -> list[dict]:
        """Ping, wait for the pong (every earlier message has been read by then), then
        for the action queue and the hub to be idle; return everything the socket sent."""
        await comm.send_to(text_data='{"type": "ping"}')
        out = []
        while True:
            message = await self._next(comm)
            out.append(message)
            assert message["type"] == "websocket.send", f"the socket closed: {message}"
            if PONG in message.get("text", ""):
                break
        queue, hub = consumers.action_queue(), broadcast.hub()
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            if not (queue.running or queue.waiting or hub.draining or hub.outbox):
                break
            await asyncio.sleep(0.001)
        await asyncio.sleep(0)
        while not comm.output_queue.empty():
            out.append(comm.output_queue.get_nowait())
        return out

    async def _send(self, frames: list) -> list[dict]:
        for frame in frames:
            # send_input: the communicator's send_to refuses empty frames
            key = "bytes" if isinstance(frame, bytes) else "text"
            await self.comm.send_input({"type": "websocket.receive", key: frame})
        return await self._settle(self.comm)

    def send(self, frames: list) -> tuple[list[dict], list[str]]:
        """Send the frames; return what came back and the rows that changed."""
        self.sent += len(frames)
        out = self.run(self._send(frames))
        after = self.run(sync_to_async(snapshot)())
        changes = diff(self.state, after)
        self.state = after
        return out, changes

    async def _cancel_the_rest(self) -> None:
        """Tasks the socket left behind (a listener on the channel layer, timers)."""
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def close(self) -> None:
        try:
            self.run(self.comm.disconnect())
            self.run(self._cancel_the_rest())
            self.run(self.loop.shutdown_asyncgens())
        finally:
            self.loop.close()


# ---------------------------------------------------------------------- the world


def campaign_rows(campaign_id: int) -> dict[str, set]:
    """Every state row that belongs to a campaign, by model label."""
    from campaigns.models import Campaign, Invite, Membership, Scene
    from sheets.models import Counter, Sheet, Trait
    from table.models import SceneState, TableLog

    def pks(qs):
        return {str(pk) for pk in qs.values_list("pk", flat=True)}

    return {
        "campaigns.campaign": pks(Campaign.objects.filter(pk=campaign_id)),
        "campaigns.membership": pks(Membership.objects.filter(campaign_id=campaign_id)),
        "campaigns.invite": pks(Invite.objects.filter(campaign_id=campaign_id)),
        "campaigns.scene": pks(Scene.objects.filter(campaign_id=campaign_id)),
        "sheets.sheet": pks(Sheet.objects.filter(campaign_id=campaign_id)),
        "sheets.trait": pks(Trait.objects.filter(sheet__campaign_id=campaign_id)),
        "sheets.counter": pks(Counter.objects.filter(sheet__campaign_id=campaign_id)),
        "table.tablelog": pks(TableLog.objects.filter(campaign_id=campaign_id)),
        "table.tableevent": pks(TableEvent.objects.filter(campaign_id=campaign_id)),
        "table.scenestate": pks(SceneState.objects.filter(campaign_id=campaign_id)),
    }


def outside(changes: list[str], rows: dict[str, set]) -> list[str]:
    """The changes that are not rows of the campaign `rows` describes."""
    out = []
    for change in changes:
        label, _, rest = change.partition("#")
        if rest.split(" ")[0] not in rows.get(label, set()):
            out.append(change)
    return out


def hidden_from_players(campaign_id: int) -> list[tuple[int, int]]:
    """(seq, pk) of the events players may not see (secret, blind, not revealed)."""
    rows = TableEvent.objects.filter(campaign_id=campaign_id, revealed=False).exclude(
        visibility="public"
    )
    return list(rows.values_list("seq", "pk"))


@pytest.fixture
def fuzz_world(world, settings):
    """The hardening world, plus a blind roll in our campaign and no rate limit."""
    settings.TABLE_SOCKET_RATE = 10**9
    ours = world.ours
    ours.blind_event = actions.perform(
        ours.campaign, world.users["owner"], "roll", {"pool": [FIGHTIN]},
        sheet_id=ours.sheet.pk, visibility="blind",
    )  # fmt: skip
    return world


# ---------------------------------------------------------------------- strategies

FORGED = ["role", "audience", "user", "user_id", "actor", "membership", "membership_id",
          "is_gm", "gm", "campaign", "campaign_id", "visibility", "seq", "hash", "revealed",
          "voided", "kind", "target", "event", "HEADERS", "hx-swap-oob", "html"]  # fmt: skip
TYPES = ["act", "reveal", "void", "resume", "ping"]
UNKNOWN_TYPES = ["", "ACT", "Act", "act ", "pong", "close", "table.fanout", "websocket.close",
                 "control", "member", "session", "replay", "__proto__", "constructor"]  # fmt: skip
ACTIONS = sorted(
    {"roll", "test", "contest_start", "contest_roll", "contest_give_in", "contest_stress",
     "stress", "activate_complication", "benefit", "awareness_pool", "trouble", "shut_down",
     "gm_pool", "bank_move", "resplit", "buy_hitch", "spend_plot_point", "advance",
     "challenge", "give_critical", "damage", "heal", "chase", "lengthy_task"}
)  # fmt: skip
UNKNOWN_ACTIONS = ["", " ", "ROLL", "roll ", "scene_start", "scene_end", "reveal", "void",
                   "__init__", "__class__", "perform", "x" * 40, "x" * 41, "rôll", "roll\x00",
                   "../roll", "serenity.roll"]  # fmt: skip
VISIBILITIES = ["public", "gm", "blind", "players", "GM", "secret", "", " ", "all", None]
STRINGS = ["", " ", "0", "-1", "1e3", "0x10", "²", "٣", "1_000", " 7 ", "true", "null", "NaN",
           "{}", "[]", "{nope", '{"pool": []}', "d8", "d7", "d12+d12", "<script>alert(1)</script>",
           "\x00", "\u202e", "\ud800", "😀" * 8, "'; DROP TABLE table_tableevent; --"]  # fmt: skip
BIG = [0, -1, 1, 2**31, 2**31 - 1, 2**53, 2**53 + 1, 2**63, 2**64, 10**30, -(10**30)]


def huge_strings():
    return st.builds(
        lambda ch, n: ch * n,
        st.sampled_from(["x", "9", "é", "😀", "[", "{", "\x00"]),
        st.sampled_from([201, 4_000, 16_000, 16_385, 70_000]),
    )


def ids(world: World):
    """Real ids of both campaigns (sheets, events, seqs, contests, users, ...) and edges."""
    values = set(BIG)
    for c in (world.ours, world.theirs):
        for obj in (c.campaign, c.sheet, c.npc, c.trait, c.planned, c.active, c.membership,
                    c.secret_event, c.public_event, c.counter):  # fmt: skip
            values.add(obj.pk)
        values |= {c.secret_event.seq, c.public_event.seq, c.contest_id or 0}
    values |= {world.ours.blind_event.pk, world.ours.blind_event.seq}
    values |= {u.pk for u in world.users.values() if u is not None}
    real = sorted(values)
    return st.one_of(
        st.sampled_from(real),
        st.sampled_from(real).map(str),
        st.integers(min_value=-(2**70), max_value=2**70),
    )


def scalars(world: World):
    return st.one_of(
        ids(world),
        st.none(),
        st.booleans(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(STRINGS),
        st.text(max_size=30),
    )


def junk(world: World):
    """Any JSON value: scalars, huge strings, lists and objects of them."""
    base = scalars(world)
    return st.one_of(
        base,
        base,
        huge_strings(),
        st.lists(base, max_size=4),
        st.dictionaries(st.text(max_size=10), base, max_size=4),
    )


def requests_(world: World):
    """A rules request: near-valid ones with forged state and foreign ids, or junk."""
    ours, theirs = world.ours, world.theirs
    id_ = ids(world)
    table = st.fixed_dictionaries(
        {},
        optional={
            "contest": st.one_of(st.sampled_from([ours.contest_id, theirs.contest_id]), id_),
            "target": st.one_of(st.sampled_from([theirs.sheet.pk, ours.npc.pk]), id_),
            "roll": id_, "task": junk(world), "chase": junk(world), "from_seq": id_,
        },
    )  # fmt: skip
    pool = st.lists(
        st.fixed_dictionaries(
            {"die": st.sampled_from(["d4", "d6", "d8", "d10", "d12", "d20", "d1", "8", 8]),
             "trait": st.sampled_from(["Fightin'", "Finaglin'", "Plottin'", "Goons", ""]),
             "group": st.sampled_from(["stylins", "situation", "assets", "stress", "x"])},
        ),
        max_size=4,
    )  # fmt: skip
    near_valid = st.fixed_dictionaries(
        {"pool": st.one_of(pool, junk(world))},
        optional={
            "plot_points": st.one_of(st.sampled_from([0, 1, 2, 99, -1]), junk(world)),
            "gm": st.booleans(), "table": st.one_of(table, junk(world)),
            "sides": st.lists(st.fixed_dictionaries({"sheet_id": id_, "goal": st.text(max_size=5)}),
                              max_size=3),
            "type": st.sampled_from(["Injured", "Afraid", "x"]), "die": st.sampled_from(["d8", "d99"]),
            "operation": st.sampled_from(["add", "remove", "x"]), "first": junk(world),
        } | {name: junk(world) for name in FORGED[:8]},
    )  # fmt: skip
    return st.one_of(
        near_valid,
        near_valid.map(json.dumps),  # "request" may be a JSON string
        junk(world),
        st.sampled_from(["", "{", "[]", "null", '"x"', "{" * 3000]),
    )


def typed(world: World):
    """A message of a known (or nearly known) type; each field valid-ish, junk, or missing."""
    id_, j = ids(world), junk(world)
    fields = {
        "act": {"action": st.one_of(st.sampled_from(ACTIONS + UNKNOWN_ACTIONS), j),
                "request": requests_(world), "sheet_id": st.one_of(id_, j),
                "visibility": st.one_of(st.sampled_from(VISIBILITIES), j)},
        "reveal": {"event_id": st.one_of(id_, j), "seq": st.one_of(id_, j)},
        "void": {"event_id": st.one_of(id_, j), "seq": st.one_of(id_, j),
                 "reason": st.one_of(st.text(max_size=220), j)},
        "resume": {"last_seq": st.one_of(id_, st.sampled_from([-1, 0, 1, 3, 2**53]), j)},
        "ping": {},
    }  # fmt: skip

    @st.composite
    def build(draw):
        kind = draw(st.sampled_from(TYPES + ["unknown"]))
        spec = fields.get(kind, fields["act"])
        message: dict = {}
        if draw(st.integers(0, 9)) > 0:
            message["type"] = kind if kind != "unknown" else draw(st.sampled_from(UNKNOWN_TYPES))
        elif kind != "unknown" and draw(st.booleans()):
            message["type"] = draw(j)  # a wrong type for "type" itself
        for name, strategy in spec.items():
            if draw(st.integers(0, 4)) > 0:
                message[name] = draw(strategy)
        for name in draw(st.lists(st.sampled_from(FORGED), max_size=3)):
            message[name] = draw(st.one_of(st.sampled_from(["gm", "GM", "public"]), id_, j))
        return message

    return build()


def forms(world: World):
    """htmx ws-send: the form's values as strings, plus a HEADERS object."""
    text = st.one_of(scalars(world).map(lambda v: v if isinstance(v, str) else json.dumps(v)),
                     huge_strings(), requests_(world).map(
                         lambda v: v if isinstance(v, str) else json.dumps(v)))  # fmt: skip
    names = st.sampled_from(
        ["action", "sheet_id", "request", "visibility", "reason", "event_id", "seq", "last_seq",
         "type", "request.pool", "request.plot_points", "request.gm", "request.table",
         "request.type", "request.die", "table.contest", "table.target", "table.roll",
         "table.from_seq", "table.", "request.", "table.table", *FORGED]
    )  # fmt: skip
    headers = st.one_of(
        st.just({"HX-Request": "true", "HX-Trigger": "roll-form", "HX-Current-URL": "/"}),
        junk(world),
    )
    return st.builds(
        lambda values, h: {**values, "HEADERS": h},
        st.dictionaries(st.one_of(names, st.text(max_size=12)), text, max_size=7),
        headers,
    )


def raw_frames(world: World):
    """Frames that are not one JSON object: any JSON, broken JSON, binary, deep nesting."""
    any_json = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                     max_size=4),
        max_leaves=15,
    )  # fmt: skip
    return st.one_of(
        any_json.map(json.dumps),  # NaN and Infinity included: Python's json reads them
        st.text(max_size=60),
        st.binary(max_size=60),
        st.sampled_from(["", " ", "{", "}", "[1,", '{"type": "act"', "\x00", '"\\ud800"',
                         '{"type": "void", "seq": 1, "reason": "\\ud800"}',
                         '{"type": "ping"}{"type": "ping"}', '{"type":"act","type":"ping"}',
                         '{"__proto__": {"type": "act"}}']),
        st.builds(lambda ch, n: ch * n, st.sampled_from(["[", "{\"a\":", "[{\"b\":"]),
                  st.sampled_from([50, 900, 1_000, 3_000, 5_000])),
        st.builds(lambda n: "[" * n + "]" * n, st.sampled_from([500, 990, 1_500, 5_000])),
        st.builds(lambda n: '{"type": "act", "action": "roll", "request": '
                  + '{"a": ' * n + "1" + "}" * n + "}", st.sampled_from([100, 900, 990, 2_000])),
        huge_strings().map(lambda s: json.dumps({"type": "ping", "pad": s})),
    )  # fmt: skip


def valid_messages(world: World) -> list[dict]:
    """Messages some role may send as they are: starting points for mutation."""
    ours, theirs = world.ours, world.theirs
    goons = {"die": "d8", "trait": "Goons", "group": "situation"}
    return [
        {"type": "act", "action": "roll", "request": {"pool": [goons]}},
        {"type": "act", "action": "roll", "request": {"pool": [goons]}, "visibility": "gm"},
        {"type": "act", "action": "roll", "request": {"pool": [FIGHTIN]}, "sheet_id": ours.sheet.pk},
        {"type": "act", "action": "roll", "request": {"pool": [FIGHTIN], "plot_points": 1},
         "sheet_id": ours.sheet.pk, "visibility": "blind"},
        {"type": "act", "action": "stress", "request": {"type": "Injured", "die": "d6"},
         "sheet_id": ours.sheet.pk},
        {"type": "act", "action": "contest_give_in", "request": {"table": {"contest": ours.contest_id}},
         "sheet_id": ours.sheet.pk},
        {"type": "act", "action": "contest_roll", "request": {"pool": [FIGHTIN],
         "table": {"contest": theirs.contest_id}}, "sheet_id": ours.sheet.pk},
        {"type": "act", "action": "activate_complication",
         "request": {"complication": {"name": "Winged", "die": "d6"}}, "sheet_id": ours.sheet.pk},
        {"type": "act", "action": "roll", "request": {"pool": [FIGHTIN]}, "sheet_id": theirs.sheet.pk},
        {"type": "reveal", "event_id": ours.secret_event.pk},
        {"type": "reveal", "seq": ours.blind_event.seq},
        {"type": "reveal", "event_id": theirs.secret_event.pk},
        {"type": "void", "event_id": ours.public_event.pk, "reason": "misclick"},
        {"type": "void", "event_id": theirs.public_event.pk, "reason": "misclick"},
        {"type": "resume", "last_seq": 0},
        {"action": "roll", "sheet_id": str(ours.sheet.pk), "request": json.dumps({"pool": [FIGHTIN]}),
         "request.plot_points": "0", "HEADERS": {"HX-Request": "true"}},
    ]  # fmt: skip


def mutated(world: World):
    """A valid message with a field or two changed, dropped or added: the valid path with
    one bad value reaches deeper than junk alone."""
    j, id_ = junk(world), ids(world)

    @st.composite
    def build(draw):
        message = dict(draw(st.sampled_from(valid_messages(world))))
        names = sorted(message)
        for name in draw(st.lists(st.sampled_from(names), max_size=2)):
            message[name] = draw(st.one_of(id_, j))
        for name in draw(st.lists(st.sampled_from(names), max_size=1)):
            message.pop(name, None)
        for name in draw(st.lists(st.sampled_from(FORGED), max_size=2)):
            message[name] = draw(st.one_of(st.sampled_from(["gm", "public", True]), id_, j))
        request = message.get("request")
        if isinstance(request, dict) and draw(st.booleans()):
            request = dict(request)
            for name in draw(st.lists(st.sampled_from([*request, "table", "gm"]), max_size=2)):
                request[name] = draw(
                    st.one_of(
                        id_,
                        j,
                        st.fixed_dictionaries(
                            {},
                            optional={"contest": id_, "target": id_, "roll": id_, "from_seq": id_},
                        ),
                    )
                )
            message["request"] = request
        return message

    return build()


def frames(world: World):
    """One to three frames per example, from all of the above."""
    one = st.one_of(
        mutated(world).map(json.dumps),
        typed(world).map(json.dumps),
        typed(world).map(json.dumps),
        forms(world).map(json.dumps),
        raw_frames(world),
    )
    return st.lists(one, min_size=1, max_size=3)


# ---------------------------------------------------------------------- the invariants


def check(driver: Driver, frames_: list, out: list[dict], changes: list[str], errors: list) -> str:
    """Assert the invariants for one message; return what it came to."""
    world, role = driver.world, driver.role
    shown = [str(f)[:300] for f in frames_]
    assert not errors, f"{role}: logged {errors} for {shown}"
    assert not driver.loop_errors, f"{role}: event loop errors {driver.loop_errors} for {shown}"
    texts = [m.get("text", "") for m in out]
    assert all(m["type"] == "websocket.send" for m in out), f"{role}: {out} for {shown}"
    notices = [NOTICE.search(t) for t in texts]
    refused = [n for n in notices if n and n.group(1) == "error"]
    if changes:
        assert not refused, (
            f"{role}: refused ({[t[:200] for t in texts]}) yet changed {changes[:5]} for {shown}"
        )
        assert role != "observer", f"an observer changed {changes[:5]} with {shown}"
        ours = driver.run(sync_to_async(campaign_rows)(world.ours.campaign.pk))
        elsewhere = outside(changes, ours)
        assert not elsewhere, f"{role} changed rows outside its campaign: {elsewhere} ({shown})"
    if role != "gm":
        hidden = driver.run(sync_to_async(hidden_from_players)(world.ours.campaign.pk))
        for seq, pk in hidden:
            for text in texts:
                assert f'data-seq="{seq}"' not in text and f'id="event-{seq}"' not in text, (
                    f"{role} received hidden event #{seq}: {text[:300]} after {shown}"
                )
                assert f'data-event-id="{pk}"' not in text, f"{role} got event pk {pk}"
    return "changed state" if changes else "refused" if refused else "no change, no refusal"


def error_records(caplog, start: int) -> list[str]:
    return [
        f"{r.name}: {r.getMessage()[:200]}"
        for r in caplog.records[start:]
        if r.levelno >= logging.ERROR
    ]


def fuzz(driver: Driver, frames_: list, caplog, figures) -> None:
    """Each frame on its own, with the checks after each."""
    for frame in frames_:
        start = len(caplog.records)
        out, changes = driver.send([frame])
        figures["socket fuzz messages"] += 1
        outcome = check(driver, [frame], out, changes, error_records(caplog, start))
        figures[f"socket fuzz messages: {outcome}"] += 1


# ---------------------------------------------------------------------- the tests


@pytest.fixture(params=["gm", "owner", "observer"])
def driver(request, fuzz_world, caplog):
    caplog.set_level(logging.WARNING)
    driver = Driver(fuzz_world, request.param)
    yield driver
    driver.close()


def test_fuzz_the_table_socket(driver, caplog, figures):
    """Random frames on one socket per role, EXAMPLES examples of one to three frames;
    every invariant above after each frame."""

    @hypothesis_settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=DERANDOMIZE,
        print_blob=True,
        database=None,
    )
    @given(frames_=frames(driver.world))
    def examples(frames_):
        fuzz(driver, frames_, caplog, figures)

    before = driver.sent
    examples()
    sent = driver.sent - before
    assert sent >= EXAMPLES, f"only {sent} messages reached the socket"
    figures[f"socket fuzz messages ({driver.role}, random)"] += sent


def test_each_field_of_each_message_with_each_wrong_type(driver, caplog, figures):
    """Systematic: each field of each message type (and of an htmx form) set to each wrong
    type in turn, the rest valid."""
    w = driver.world
    ours, theirs = w.ours, w.theirs
    valid = {
        "act": {"type": "act", "action": "roll", "request": {"pool": [FIGHTIN]},
                "sheet_id": ours.sheet.pk, "visibility": "public"},
        "reveal": {"type": "reveal", "event_id": ours.secret_event.pk},
        "void": {"type": "void", "seq": ours.public_event.seq, "reason": "misclick"},
        "resume": {"type": "resume", "last_seq": 0},
        "ping": {"type": "ping"},
        "form": {"action": "roll", "sheet_id": str(ours.sheet.pk),
                 "request": json.dumps({"pool": [FIGHTIN]}), "visibility": "public",
                 "request.plot_points": "0",
                 "HEADERS": {"HX-Request": "true", "HX-Trigger": "roll-form"}},
    }  # fmt: skip
    wrong = [None, True, False, 0, -1, 1.5, 2**53 + 1, 2**64, -(10**30), "", "x", "-1", "1.0",
             "²", "x" * 17_000, [], [1], {}, {"a": 1}, [[[[[]]]]], "{", "NaN",
             theirs.sheet.pk, theirs.public_event.pk, theirs.secret_event.pk,
             theirs.contest_id, str(theirs.sheet.pk)]  # fmt: skip
    count = 0
    for message in valid.values():
        for field in [*message, "extra"]:
            for value in wrong:
                bad = {**message, field: value}
                fuzz(driver, [json.dumps(bad)], caplog, figures)
                count += 1
    # The socket read every one and is still there.
    assert count == sum(len(m) + 1 for m in valid.values()) * len(wrong)
    assert driver.sent >= count


def test_seqs_replayed_negative_huge_and_foreign(driver, caplog, figures):
    """resume, reveal and void with every kind of seq: nothing twice, nothing hidden,
    nothing of the other campaign."""
    w = driver.world
    head = driver.run(sync_to_async(TableEvent.objects.filter(campaign=w.ours.campaign).count)())
    foreign = [w.theirs.public_event.seq, w.theirs.secret_event.seq]
    seqs = [-(2**63), -1, 0, 1, head - 1, head, head + 1, 2**31, 2**53, 2**53 + 1, 2**64,
            *foreign, "0", "-0", "1e1", " 2 ", "²"]  # fmt: skip
    for seq in seqs:
        for message in (
            {"type": "resume", "last_seq": seq},
            {"type": "reveal", "seq": seq},
            {"type": "void", "seq": seq, "reason": "replayed"},
            {"last_seq": seq, "HEADERS": {}},
        ):
            fuzz(driver, [json.dumps(message)], caplog, figures)
    # Replaying from 0 twice sends nothing the socket already has.
    out, _ = driver.send([json.dumps({"type": "resume", "last_seq": 0})] * 2)
    seen = [s for m in out for s in re.findall(r'data-seq="(\d+)"', m.get("text", ""))]
    assert len(seen) == len(set(seen))


def test_deep_nesting_is_refused_not_raised(driver, caplog, figures):
    """JSON nested deeper than Python's recursion limit fits in a 16 KiB message."""
    for depth in (900, 1_000, 2_000, 8_000):
        for text in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth,
                     json.dumps({"type": "act", "action": "roll"})[:-1]
                     + ', "request": ' + '{"a":' * depth + "1" + "}" * (depth + 1)):  # fmt: skip
            if len(text.encode()) > django_settings.TABLE_MAX_MESSAGE_BYTES:
                text = text[: django_settings.TABLE_MAX_MESSAGE_BYTES]
            out, changes = driver.send([text])
            figures["socket fuzz messages"] += 1
            assert not changes
            assert any('data-kind="error"' in m.get("text", "") for m in out), (depth, out)
            assert not error_records(caplog, 0), error_records(caplog, 0)


# ---------------------------------------------------------------------- act and say

SPOILED_EXAMPLES = 60


def any_json(leaves: int = 10):
    """Any JSON value: nested objects and lists, unicode, long strings, huge numbers."""
    text = st.one_of(
        st.text(max_size=20),
        st.text(st.characters(categories=["Cs", "Cc", "Co", "Mn", "So"]), max_size=8),
        st.sampled_from(STRINGS),
    )
    scalar = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        text,
        huge_strings(),
    )
    return st.recursive(
        scalar,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
        max_leaves=leaves,
    )


def _not_an_id(value) -> bool:
    """What the socket never reads as a row's id (table.talk.messages.as_int refuses it)."""
    if value in (None, "") or (isinstance(value, int) and not isinstance(value, bool)):
        return False
    return not (isinstance(value, str) and messages.DIGITS.fullmatch(value.strip()))


# For each message, the fields whose wrong type alone has it refused, and what is wrong.
ACT_SPOILERS = {
    "action": lambda v: not isinstance(v, str),
    "request": lambda v: not isinstance(v, (dict, str)),
    "visibility": lambda v: bool(v) and not isinstance(v, str),
    "sheet_id": _not_an_id,
}
SAY_SPOILERS = {
    "text": lambda v: not isinstance(v, str),
    "mode": lambda v: not isinstance(v, str),
    "speak": lambda v: not isinstance(v, str),
    "sheet_id": _not_an_id,
}


def spoiled(world: World):
    """An act or a say with any JSON in its fields (and in the request's) and one field of
    a type it never takes, so each one is refused whatever else it holds."""
    j = any_json()
    id_ = ids(world)

    @st.composite
    def build(draw):
        kind = draw(st.sampled_from(["act", "say"]))
        message: dict = {"type": kind}
        if kind == "act":
            message["action"] = draw(st.one_of(st.sampled_from(ACTIONS), j))
            message["request"] = draw(
                st.one_of(
                    st.dictionaries(
                        st.sampled_from(["pool", "table", "plot_points", "type", "die", "gm"]),
                        j,
                        max_size=4,
                    ),
                    j,
                )
            )
            message.update(
                draw(
                    st.dictionaries(
                        st.sampled_from(["sheet_id", "visibility"]), j | id_, max_size=2
                    )
                )
            )
            spoilers = ACT_SPOILERS
        else:
            message.update(
                draw(
                    st.dictionaries(
                        st.sampled_from(["text", "mode", "speak", "sheet_id"]),
                        st.one_of(j, id_, st.sampled_from(["ic", "ooc", "whisper", "ic:1", "hi"])),
                        max_size=4,
                    )
                )
            )
            spoilers = SAY_SPOILERS
        field = draw(st.sampled_from(sorted(spoilers)))
        message[field] = draw(j.filter(spoilers[field]))
        return message

    return build()


def test_fuzz_act_and_say_with_any_json(driver, caplog, figures):
    """act and say messages with hypothesis' JSON in every field, each with one field of a
    wrong type: every one is answered with an error notice, nothing is logged as an error,
    the socket stays open, and nothing changes anywhere."""

    @hypothesis_settings(
        max_examples=SPOILED_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=DERANDOMIZE,
        print_blob=True,
        database=None,
    )
    @given(message=spoiled(driver.world))
    def examples(message):
        frame = json.dumps(message)
        start = len(caplog.records)
        out, changes = driver.send([frame])
        figures["socket fuzz messages (act and say, spoiled)"] += 1
        outcome = check(driver, [frame], out, changes, error_records(caplog, start))
        assert not changes, f"{driver.role}: {frame[:300]} changed {changes[:5]}"
        assert outcome == "refused", f"{driver.role}: {frame[:300]} was not refused"

    examples()


def said(world: World):
    """A say of the right types with any text: unicode, markup, long, a /roll of junk."""
    text = st.one_of(
        st.text(max_size=60),
        st.text(st.characters(categories=["Cs", "Cc", "Co", "Mn", "So", "Zl"]), max_size=20),
        huge_strings(),
        st.sampled_from(STRINGS),
        st.text(max_size=40).map(lambda t: "/roll " + t),
    )
    mode = st.one_of(
        st.sampled_from(["ic", "ooc", "whisper", "", "IC", "shout"]), st.text(max_size=8)
    )
    speak = st.one_of(
        st.sampled_from(["ooc", "whisper", "ic:", "ic:x"]),
        ids(world).map(lambda i: f"ic:{i}"),
        st.text(max_size=8),
    )
    return st.fixed_dictionaries(
        {"type": st.just("say"), "text": text},
        optional={"mode": mode, "speak": speak, "sheet_id": ids(world)},
    )


def test_fuzz_say_with_any_text(driver, caplog, figures):
    """Chat lines of every kind of text, mode and speaker: never an error logged, the
    socket stays open, nothing of another campaign or hidden from the sender is touched or
    sent (the invariants of `check`)."""

    @hypothesis_settings(
        max_examples=SPOILED_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=DERANDOMIZE,
        print_blob=True,
        database=None,
    )
    @given(message=said(driver.world))
    def examples(message):
        frame = json.dumps(message)
        start = len(caplog.records)
        out, changes = driver.send([frame])
        figures["socket fuzz messages (say)"] += 1
        check(driver, [frame], out, changes, error_records(caplog, start))

    examples()
