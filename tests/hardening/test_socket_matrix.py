"""Who may do what over the table socket, as a table: every kind of socket message ×
every role, through rollcall.asgi.

Roles: gm; owner (the player whose character is Mal); other (a second player, whose
character is Zoe); observer; outsider (signed in, not a member, runs a campaign of
their own); anonymous. Outsiders and anonymous visitors never get a working socket:
accepted, then closed with 4403 / 4401, and whatever they send afterwards is ignored.

A cell is OK (the action ran: exactly one new event in this campaign and nothing
changed anywhere else), a refusal's words (an error notice to the sender and nothing
changed anywhere), SEES / HIDDEN (a replay carries the event's card, or only its sealed
card: its seq and commitment, nothing of what it holds), or a close
code. Scenes start and end through the campaign's pages (tests/hardening/expectations.py,
table_gm_scene), not the socket: the socket has no such action, for anyone.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async

from campaigns import services
from table.live import broadcast
from table.models import TableEvent
from table.talk import consumers
from table.writing import actions
from tests.table.conftest import Table, make_sheet
from tests.table.sockets import HANG_GUARD, open_socket

from .world import diff, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

ROLES = ("gm", "owner", "other", "observer", "outsider", "anonymous")
MEMBERS = ROLES[:4]
OK, SEES, HIDDEN = "OK", "SEES", "HIDDEN"
NOT_LOGGED_IN, NOT_A_MEMBER = consumers.CLOSE_NOT_LOGGED_IN, consumers.CLOSE_NOT_A_MEMBER
OBSERVER = "Observers can watch but not act"
NOT_YOURS = "You can only act for your own characters"
NO_SUCH_SHEET = "No such character in this campaign"
NO_SUCH_EVENT = "No such event in this campaign's log"

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}
PONG = 'data-code="pong"'
NOTICE = re.compile(r'<div id="table-notice"[^>]*data-kind="(\w+)"[^>]*>(.*?)</div>', re.S)


def cells(gm, owner, other, observer) -> dict[str, object]:
    """A row's expectations; outsiders and anonymous visitors are closed at connect."""
    return dict(gm=gm, owner=owner, other=other, observer=observer,
                outsider=NOT_A_MEMBER, anonymous=NOT_LOGGED_IN)  # fmt: skip


def players(ok, refusal) -> dict[str, object]:
    """The GM gets `ok`, both players `refusal`; observers may not act at all."""
    return cells(ok, refusal, refusal, OBSERVER)


def gm_only(ok, refusal) -> dict[str, object]:
    """reveal and void: everyone but the GM gets `refusal`, observers too."""
    return cells(ok, refusal, refusal, refusal)


@dataclass
class World:
    tables: dict[str, Table]  # by system
    foreign: SimpleNamespace  # the outsider's own campaign: campaign, pc, public, secret, contest
    users: dict[str, object]
    last_event: object = None  # what the last resume row's replay is about


@dataclass(frozen=True)
class Row:
    name: str
    make: Callable[[World], dict]  # sets up what the message needs; returns the message
    want: dict[str, object]
    system: str = "serenity"
    seq: Callable[[World], int] | None = None  # resume rows: the event the replay is about


# ---------------------------------------------------------------------- messages


def act(action, request, sheet=None, visibility="public"):
    return {"type": "act", "action": action, "request": request, "sheet_id": sheet,
            "visibility": visibility}  # fmt: skip


def serenity(w: World) -> Table:
    return w.tables["serenity"]


def new_contest(w: World, sides, first=0) -> int:
    t = serenity(w)
    event = t.perform(t.gm, "contest_start", {"sides": sides, "first": first})
    return event.params["contest"]


def contest_gm_turn(w: World) -> dict:
    t = serenity(w)
    number = new_contest(w, [{"sheet_id": t.npc.pk, "goal": "take the cargo"},
                             {"sheet_id": t.pc.pk, "goal": "keep it"}])  # fmt: skip
    return act("contest_roll", {"pool": [GOONS], "table": {"contest": number}})


def contest_mals_turn(w: World) -> dict:
    t = serenity(w)
    number = new_contest(w, [{"sheet_id": t.pc.pk, "goal": "keep the cargo"},
                             {"sheet_id": t.npc.pk, "goal": "take it"}])  # fmt: skip
    return act("contest_roll", {"pool": [FIGHTIN], "table": {"contest": number}}, t.pc.pk)


def in_the_open(t) -> None:
    """SER-5: a player's roll is read against the scene's opposition; after a secret GM
    roll elsewhere in the matrix, that would seal it until the reveal. The GM sets a
    number in the open first, so each row shows only what it names."""
    t.perform(t.gm, "set_difficulty", {"difficulty": 7})


def blind_roll(w: World):
    t = serenity(w)
    in_the_open(t)
    return t.perform(t.player, "roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk, visibility="blind")


def secret_roll(w: World):
    t = serenity(w)
    return t.perform(t.gm, "roll", {"pool": [GOONS]}, visibility="gm")


def public_roll(w: World):
    t = serenity(w)
    in_the_open(t)
    return t.perform(t.player, "roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk)


def remember(w: World, event) -> int:
    w.last_event = event
    return event.seq


def resume_before(make_event):
    """A page that saw every public event so far reloads after `make_event` and resumes."""

    def make(w: World) -> dict:
        from table.models import TableLog

        seen = TableLog.objects.get(campaign=serenity(w).campaign).last_public_seq
        remember(w, make_event(w))
        return {"type": "resume", "last_seq": seen}

    return make


def reveal_event(w: World):
    """A blind roll, revealed: the reveal event."""
    t = serenity(w)
    return actions.reveal(t.campaign, t.gm, blind_roll(w).pk)


def revealed(w: World):
    """A blind roll, revealed: the original event."""
    reveal = reveal_event(w)
    return reveal.target


# ---------------------------------------------------------------------- the table

ROWS: list[Row] = [
    # --- rolls: whose character --------------------------------------------------------
    Row("roll on Mal (the owner's character)",
        lambda w: act("roll", {"pool": [FIGHTIN]}, serenity(w).pc.pk),
        cells(OK, OK, NOT_YOURS, OBSERVER)),
    Row("roll on Zoe (the other player's character)",
        lambda w: act("roll", {"pool": [FIGHTIN]}, serenity(w).other_pc.pk),
        cells(OK, NOT_YOURS, OK, OBSERVER)),
    Row("roll for a GM character",
        lambda w: act("roll", {"pool": [GOONS]}, serenity(w).npc.pk),
        players(OK, NOT_YOURS)),
    Row("roll with no character (the GM's pool)",
        lambda w: act("roll", {"pool": [GOONS]}),
        players(OK, "Choose the character this is for")),
    Row("roll on a hidden GM character",
        lambda w: act("roll", {"pool": [GOONS]}, make_sheet(
            serenity(w).campaign, None, "Shadow", kind="npc", hidden=True).pk),
        players(OK, NO_SUCH_SHEET)),
    Row("roll on another campaign's character",
        lambda w: act("roll", {"pool": [FIGHTIN]}, w.foreign.pc.pk),
        players(NO_SUCH_SHEET, NO_SUCH_SHEET)),
    Row("roll with table.target set to another campaign's character",
        lambda w: act("roll", {"pool": [FIGHTIN], "table": {"target": w.foreign.pc.pk}},
                      serenity(w).pc.pk),
        cells(OK, OK, NOT_YOURS, OBSERVER)),
    # --- visibility ------------------------------------------------------------------
    Row("secret roll (visibility gm)",
        lambda w: act("roll", {"pool": [FIGHTIN]}, serenity(w).pc.pk, "gm"),
        players(OK, "Only the GM can roll in secret")),
    Row("blind roll on Mal",
        lambda w: act("roll", {"pool": [FIGHTIN]}, serenity(w).pc.pk, "blind"),
        cells(OK, OK, NOT_YOURS, OBSERVER)),
    Row("forged visibility",
        lambda w: act("roll", {"pool": [FIGHTIN]}, serenity(w).pc.pk, "players"),
        players("Visibility must be public", "Visibility must be public")),
    Row("forged role and audience fields",
        lambda w: {**act("roll", {"pool": [GOONS], "gm": True}), "role": "gm",
                   "audience": "gm", "is_gm": True, "user": serenity(w).gm.pk},
        players(OK, "Choose the character this is for")),
    # --- GM-only actions -------------------------------------------------------------
    Row("test against the GM (serenity test)",
        lambda w: act("test", {"player": {"pool": [FIGHTIN]}, "opposition": {"pool": [GOONS]}},
                      serenity(w).pc.pk),
        players(OK, "Only the GM can")),
    Row("activate a complication",
        lambda w: act("activate_complication", {"complication": "Winged"}, serenity(w).pc.pk),
        players(OK, "Only the GM can")),
    Row("difficulty pool (cortex_slots gm_pool)",
        lambda w: act("gm_pool", {"pool": [{"die": "d8", "trait": "Doom", "group": "difficulty"}]}),
        players(OK, "Only the GM can"), system="cortex_slots"),
    Row("add to the Trouble Pool (smallville)",
        lambda w: act("trouble", {"operation": "add", "ones": 1}, w.tables["smallville"].pc.pk),
        players(OK, "Only the GM can add to the Trouble Pool"), system="smallville"),
    # --- contests --------------------------------------------------------------------
    Row("start a contest for Mal",
        lambda w: act("contest_start", {"sides": [
            {"sheet_id": serenity(w).pc.pk, "goal": "keep the cargo"},
            {"sheet_id": serenity(w).npc.pk, "goal": "take it"}]}, serenity(w).pc.pk),
        cells(OK, OK, NOT_YOURS, OBSERVER)),
    Row("start a contest between two GM characters",
        lambda w: act("contest_start", {"sides": [
            {"name": "Niska", "goal": "take the cargo"},
            {"name": "Patience", "goal": "keep it"}]}),
        players(OK, "Start a contest for your own character")),
    Row("contest roll on the GM side's turn", contest_gm_turn,
        players(OK, "Only the GM can act for")),
    Row("contest roll on Mal's turn", contest_mals_turn,
        cells(OK, OK, NOT_YOURS, OBSERVER)),
    Row("contest roll naming a contest this scene does not have",
        lambda w: act("contest_roll", {"pool": [FIGHTIN], "table": {"contest": 9999}},
                      serenity(w).pc.pk),
        players("There is no contest #9999", "There is no contest #9999")),
    # --- scenes: not a socket action ---------------------------------------------------
    Row("start a scene over the socket", lambda w: act("scene_start", {"scene": 1}),
        players("has no action called", "has no action called")),
    Row("end a scene over the socket", lambda w: act("scene_end", {}),
        players("has no action called", "has no action called")),
    # --- reveal ------------------------------------------------------------------------
    Row("reveal a blind roll", lambda w: {"type": "reveal", "event_id": blind_roll(w).pk},
        gm_only(OK, "Only the GM can reveal a roll")),
    Row("reveal a secret GM roll by seq", lambda w: {"type": "reveal", "seq": secret_roll(w).seq},
        gm_only(OK, "Only the GM can reveal a roll")),
    Row("reveal another campaign's secret roll",
        lambda w: {"type": "reveal", "event_id": w.foreign.secret.pk},
        gm_only(NO_SUCH_EVENT, "Only the GM can reveal a roll")),
    # --- void --------------------------------------------------------------------------
    Row("void a public roll",
        lambda w: {"type": "void", "event_id": public_roll(w).pk, "reason": "misclick"},
        gm_only(OK, "Only the GM can void an event")),
    Row("void a secret roll by seq",
        lambda w: {"type": "void", "seq": secret_roll(w).seq, "reason": "misclick"},
        gm_only(OK, "Only the GM can void an event")),
    Row("void another campaign's roll",
        lambda w: {"type": "void", "event_id": w.foreign.public.pk, "reason": "misclick"},
        gm_only(NO_SUCH_EVENT, "Only the GM can void an event")),
    Row("void a seq past the log's head",
        lambda w: {"type": "void", "seq": 2**40, "reason": "misclick"},
        gm_only(NO_SUCH_EVENT, "Only the GM can void an event")),
    # --- resume (replay) ---------------------------------------------------------------
    Row("resume over a public roll", resume_before(public_roll), cells(SEES, SEES, SEES, SEES)),
    Row("resume over a secret GM roll", resume_before(secret_roll),
        cells(SEES, HIDDEN, HIDDEN, HIDDEN)),
    Row("resume over a blind roll (the roller too)", resume_before(blind_roll),
        cells(SEES, HIDDEN, HIDDEN, HIDDEN)),
    Row("resume over a revealed blind roll: the original opens for everyone",
        resume_before(revealed), cells(SEES, SEES, SEES, SEES)),
    Row("resume over the reveal itself: public", resume_before(reveal_event),
        cells(SEES, SEES, SEES, SEES)),
]  # fmt: skip


# ---------------------------------------------------------------------- running a cell


@sync_to_async
def build(make_user) -> World:
    users = {
        "gm": make_user("gina", "Gina"),
        "owner": make_user("pete", "Pete"),
        "other": make_user("zed", "Zed"),
        "observer": make_user("olive", "Olive"),
        "outsider": make_user("oscar", "Oscar"),
        "anonymous": None,
    }
    args = (users["gm"], users["owner"], users["observer"], users["outsider"], users["other"])
    tables = {}
    for system in ("serenity", "smallville", "cortex_slots"):
        tables[system] = t = Table(system, *args)
        t.start_scene()
    oscar = users["outsider"]
    foreign = services.create_campaign(oscar, name="Elsewhere", description="", system="serenity")
    scene = services.create_scene(foreign, title="The train job", description="")
    services.start_scene(foreign, scene.pk, oscar)
    badger = make_sheet(foreign, oscar, "Badger")
    patience = make_sheet(foreign, None, "Patience", kind="npc")
    sides = [{"sheet_id": badger.pk, "goal": "a"}, {"sheet_id": patience.pk, "goal": "b"}]
    world = World(
        tables=tables,
        users=users,
        foreign=SimpleNamespace(
            campaign=foreign,
            pc=badger,
            public=actions.perform(foreign, oscar, "roll", {"pool": [GOONS]}),
            secret=actions.perform(foreign, oscar, "roll", {"pool": [GOONS]}, visibility="gm"),
            contest=actions.perform(foreign, oscar, "contest_start", {"sides": sides}).params[
                "contest"
            ],
        ),
    )
    return world


async def settle(comm) -> list[str]:
    """Ping, wait for the pong (the socket has read everything sent before), then for
    the action queue and the hub to go idle; everything the socket sent meanwhile."""
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    out = []
    while True:
        message = await asyncio.wait_for(comm.output_queue.get(), HANG_GUARD)
        assert message["type"] == "websocket.send", message
        if PONG in message["text"]:
            break
        out.append(message["text"])
    queue, hub = consumers.action_queue(), broadcast.hub()
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        if not (queue.running or queue.waiting or hub.draining or hub.outbox):
            break
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.01)
    while not comm.output_queue.empty():
        out.append(comm.output_queue.get_nowait()["text"])
    return out


async def drain(comm) -> None:
    while not comm.output_queue.empty():
        comm.output_queue.get_nowait()


def event_seqs(campaign_id: int) -> set[int]:
    return set(TableEvent.objects.filter(campaign_id=campaign_id).values_list("seq", flat=True))


def mentions(text: str, seq: int) -> bool:
    """The text carries the event's own card (not its sealed card)."""
    return _card_of(text, seq) is not None and "sealed-card" not in _card_of(text, seq)


def _card_of(text: str, seq: int) -> str | None:
    start = text.find(f'id="event-{seq}"')
    if start < 0:
        return None
    end = text.find("</li>", start)
    return text[start:end]


async def run_cell(world: World, row: Row, role: str, sockets: dict) -> str | None:
    """None when the cell holds, else what happened instead."""
    table = world.tables[row.system]
    message = await sync_to_async(row.make)(world)
    want = row.want[role]
    resume = message.get("type") == "resume"
    if resume and role in MEMBERS:
        # A page that just loaded: a fresh socket waiting for its "resume".
        comm, connected, _ = await open_socket(world.users[role], table.campaign, last_seq=None)
        assert connected
    else:
        comm = sockets[(row.system, role)]
        await drain(comm)
    before = await sync_to_async(snapshot)()
    seqs_before = await sync_to_async(event_seqs)(table.campaign.pk)
    await comm.send_to(text_data=json.dumps(message))
    if role in MEMBERS:
        out = await settle(comm)
    else:
        await asyncio.sleep(0.05)
        out = []
        while not comm.output_queue.empty():
            out.append(comm.output_queue.get_nowait())
    after = await sync_to_async(snapshot)()
    changes = diff(before, after)
    new = sorted((await sync_to_async(event_seqs)(table.campaign.pk)) - seqs_before)
    if resume and role in MEMBERS:
        await comm.disconnect()
    errors = [html.unescape(m.group(2)) for m in NOTICE.finditer("".join(map(str, out)))
              if m.group(1) == "error"]  # fmt: skip

    if want in (NOT_LOGGED_IN, NOT_A_MEMBER):
        if out or changes:
            return f"a closed socket answered {out[:2]} or changed {changes[:3]}"
        return None
    if want == OK:
        if errors:
            return f"refused: {errors}"
        if len(new) != 1:
            return f"expected one new event, got {new} (changes {changes[:4]})"
        rows = await sync_to_async(campaign_rows)(table.campaign.pk)
        elsewhere = [c for c in changes if c.split(" ")[0] not in rows]
        return f"changed rows of other campaigns: {elsewhere}" if elsewhere else None
    if want in (SEES, HIDDEN):
        seq = world.last_event.seq
        seen = any(mentions(text, seq) for text in out)
        sealed = any(_card_of(text, seq) is not None for text in out)
        if want == HIDDEN and not sealed:
            return f"the replay skipped #{seq}: players get a sealed card for every seq"
        if changes or errors:
            return f"a resume changed {changes[:3]} or was refused: {errors}"
        if seen != (want == SEES):
            return f"{'did not see' if want == SEES else 'saw'} event #{seq}: {out[:3]}"
        return None
    # a refusal
    if changes:
        return f"refused ({errors}) but changed {changes[:4]}"
    if not any(str(want) in e for e in errors):
        return f"expected a refusal saying {want!r}, got {errors or out[:2]}"
    return None


def campaign_rows(campaign_id: int) -> set[str]:
    """label#pk of every state row that belongs to the campaign."""
    from campaigns.models import Campaign, Invite, Membership, Scene
    from sheets.models import Counter, Sheet, Trait
    from table.models import SceneState, TableLog

    rows = set()
    for label, qs in (
        ("campaigns.campaign", Campaign.objects.filter(pk=campaign_id)),
        ("campaigns.membership", Membership.objects.filter(campaign_id=campaign_id)),
        ("campaigns.invite", Invite.objects.filter(campaign_id=campaign_id)),
        ("campaigns.scene", Scene.objects.filter(campaign_id=campaign_id)),
        ("sheets.sheet", Sheet.objects.filter(campaign_id=campaign_id)),
        ("sheets.trait", Trait.objects.filter(sheet__campaign_id=campaign_id)),
        ("sheets.counter", Counter.objects.filter(sheet__campaign_id=campaign_id)),
        ("table.tablelog", TableLog.objects.filter(campaign_id=campaign_id)),
        ("table.tableevent", TableEvent.objects.filter(campaign_id=campaign_id)),
        ("table.scenestate", SceneState.objects.filter(campaign_id=campaign_id)),
    ):
        rows |= {f"{label}#{pk}" for pk in qs.values_list("pk", flat=True)}
    return rows


# ---------------------------------------------------------------------- the tests


def test_the_table_keeps_the_rules():
    """Every row names every role; outsiders and anonymous visitors are closed at connect;
    an observer is never allowed to act; only GMs reveal and void."""
    for row in ROWS:
        assert set(row.want) == set(ROLES), row.name
        assert row.want["outsider"] == NOT_A_MEMBER and row.want["anonymous"] == NOT_LOGGED_IN
        assert row.want["observer"] != OK, row.name
        if row.name.startswith(("reveal", "void")):
            assert all(row.want[r] != OK for r in ("owner", "other", "observer")), row.name


async def test_every_socket_message_for_every_role(make_user, settings, figures):
    settings.TABLE_SOCKET_RATE = 10**6
    world = await build(make_user)
    sockets = {}
    for system, table in world.tables.items():
        for role in ROLES:
            comm, connected, _ = await open_socket(world.users[role], table.campaign)
            assert connected, (system, role)  # accepted first; refused ones are closed next
            if role in MEMBERS:
                await settle(comm)
            else:
                closed = await asyncio.wait_for(comm.output_queue.get(), HANG_GUARD)
                want = NOT_A_MEMBER if role == "outsider" else NOT_LOGGED_IN
                assert closed == {"type": "websocket.close", "code": want}, (system, role, closed)
            sockets[(system, role)] = comm
    problems = []
    for row in ROWS:
        for role in ROLES:
            problem = await run_cell(world, row, role, sockets)
            figures["socket matrix cells"] += 1
            if problem:
                problems.append(f"{row.name} as {role} (want {row.want[role]}): {problem}")
    for comm in sockets.values():
        await comm.disconnect()
    assert not problems, "\n" + "\n".join(problems)
