"""The database connection drops while rolls are in flight: through a TCP proxy between
daphne and PostgreSQL, cut at COMMIT (before it reaches the server, or after the
server committed but before the answer comes back), cut mid-transaction, and killed
from the server's side (pg_terminate_backend).

Every roll either happened completely (event, plot point spent, card to everyone,
no error) or not at all (no event, no point spent, and the player is told it was
not made and to try again); and once the database answers again, rolls work
without restarting anything."""

from __future__ import annotations

import asyncio
import re
import sys
import threading
import time

import pytest

from rollcall.localserver import free_port

from .harness import (
    HANG_GUARD,
    Socket,
    exactly_once_in_order,
    logged_markers,
    marker,
    roll,
    settled,
    until,
)

pytestmark = pytest.mark.services

COMMIT = b"Q\x00\x00\x00\x0bCOMMIT\x00"  # the simple-protocol Query message psycopg sends
FAULTS = ["lose_commit_reply", "drop_commit", "cut", "terminate"] * 2
ROLLS_AFTER = 3  # per socket, once the faults are over: every one must work


class Link:
    """One client connection through the proxy and its server connection."""

    def __init__(self, client: asyncio.StreamWriter, server: asyncio.StreamWriter) -> None:
        self.client = client
        self.server = server
        self.swallow = False  # drop the server's next answer and cut

    def cut(self) -> None:
        self.client.transport.abort()
        self.server.transport.abort()


class Proxy:
    """A TCP proxy to PostgreSQL in a thread of its own that cuts connections on cue."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.port = free_port()
        self.links: set[Link] = set()
        self.armed: str | None = None
        self.fired: list[str] = []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(HANG_GUARD)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._accept, "127.0.0.1", self.port)
        )
        ready.set()
        self.loop.run_forever()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        link = Link(writer, up_writer)
        self.links.add(link)
        pumps = [
            asyncio.ensure_future(self._outbound(link, reader)),
            asyncio.ensure_future(self._inbound(link, up_reader)),
        ]
        try:
            # Either side closing closes both, as a server that hangs up does.
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.links.discard(link)
            link.cut()
            for pump in pumps:
                pump.cancel()

    async def _outbound(self, link: Link, reader: asyncio.StreamReader) -> None:
        while data := await reader.read(65536):
            if COMMIT in data and self.armed in ("drop_commit", "lose_commit_reply"):
                mode, self.armed = self.armed, None
                self.fired.append(mode)
                if mode == "drop_commit":
                    link.cut()
                    return
                link.swallow = True
            link.server.write(data)
            await link.server.drain()

    async def _inbound(self, link: Link, reader: asyncio.StreamReader) -> None:
        while data := await reader.read(65536):
            if link.swallow:  # the server committed; the client never hears so
                link.cut()
                return
            link.client.write(data)
            await link.client.drain()

    def arm(self, mode: str) -> None:
        """Cut at the next COMMIT, or ("cut") every connection now."""
        if mode == "cut":
            self.loop.call_soon_threadsafe(self._cut_all)
        else:
            self.armed = mode

    def _cut_all(self) -> None:
        for link in list(self.links):
            link.cut()
        self.fired.append("cut")

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    async def _shut(self) -> None:
        """Stop listening, cut every link and end every connection's task, so none is
        left pending when the loop stops (a pool may be reconnecting right then)."""
        self.server.close()
        self._cut_all()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def terminate_backends(cluster) -> int:
    """pg_terminate_backend on every other connection to the private database: daphne's."""
    rows = cluster.db.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND backend_type = 'client backend'"
    )
    return len(rows)


def errors(socket: Socket) -> int:
    return sum(1 for n in socket.notices if n[0] == "error")


async def answered(socket: Socket, name: str, seen_errors: int) -> str:
    """Wait for the roll's card or an error notice: "made" or "not made"."""
    await until(
        lambda: socket.has_card(name) or errors(socket) > seen_errors,
        HANG_GUARD,
        lambda: f"{socket.label} heard nothing about {name}",
    )
    return "made" if socket.has_card(name) else "not made"


async def inject(cluster, proxy: Proxy, fault: str) -> int:
    """One fault; returns how many backends it terminated."""
    if fault == "terminate":
        proxy.fired.append(fault)
        return terminate_backends(cluster)
    fired = len(proxy.fired)
    proxy.arm(fault)
    await until(lambda: len(proxy.fired) > fired, HANG_GUARD, lambda: f"{fault} never fired")
    return 0


async def rolls_go_on(cluster, events: int) -> None:
    """Between faults: wait until the log holds `events` events."""
    await until(
        lambda: len(cluster.log_seqs()) >= events,
        HANG_GUARD,
        lambda: f"the log stopped at {len(cluster.log_seqs())} events\n{cluster.logs()}",
    )


async def scene(cluster, proxy: Proxy) -> dict:
    port = cluster.port("a")
    watcher = Socket(cluster, "gm", "gm@a")
    players = [Socket(cluster, f"p{n}", f"p{n}@a") for n in range(3)]
    for socket in [watcher, *players]:
        await socket.open(port, last_seq=0)
        await socket.live()

    outcomes: dict[str, tuple[str, Socket]] = {}  # marker -> ("made" | "not made", socket)
    faults_over = asyncio.Event()
    recovered: list[str] = []  # outcomes of the rolls sent after the last fault

    async def play(socket: Socket) -> None:
        """One roll at a time, each spending a plot point, until ROLLS_AFTER more have
        been sent after the faults are over."""
        number, after = 0, 0
        while after < ROLLS_AFTER:
            number += 1
            name = marker(socket, number)
            seen, late = errors(socket), faults_over.is_set()
            assert await socket.send(roll(cluster.sheets[socket.user], name, plot_points=1))
            outcome = await answered(socket, name, seen)
            outcomes[name] = (outcome, socket)
            if late:
                after += 1
                recovered.append(outcome)
            await asyncio.sleep(0.02)

    playing = [asyncio.create_task(play(s)) for s in players]
    terminated = 0
    for fault in FAULTS:
        logged = len(cluster.log_seqs())
        terminated += await inject(cluster, proxy, fault)
        await rolls_go_on(cluster, logged + 3)
    faults_over.set()
    await asyncio.wait_for(asyncio.gather(*playing), HANG_GUARD)

    everyone = [watcher, *players]
    log = await settled(cluster, everyone)
    for socket in everyone:
        await socket.live()
        await socket.close()
    return {
        "outcomes": outcomes,
        "everyone": everyone,
        "log": log,
        "terminated": terminated,
        "fired": list(proxy.fired),
        "recovered": recovered,
    }


def test_a_roll_cut_off_from_the_database_happens_completely_or_not_at_all(cluster):
    proxy = Proxy(cluster.db.host, cluster.db.port)
    try:
        cluster.start("a", database_url=cluster.db.url_via(proxy.port))
        started = time.monotonic()
        result = asyncio.run(scene(cluster, proxy))
    finally:
        proxy.close()
    outcomes, everyone, log = result["outcomes"], result["everyone"], result["log"]
    assert exactly_once_in_order(everyone, log) == []
    markers = logged_markers(cluster)
    made = [m for m, (how, _) in outcomes.items() if how == "made"]
    not_made = [m for m, (how, _) in outcomes.items() if how == "not made"]
    # Made: logged once, and every socket shows it; not made: not logged at all.
    assert all(len(markers.get(m, ())) == 1 for m in made), made
    assert not any(m in markers for m in not_made), [m for m in not_made if m in markers]
    assert sorted(markers) == sorted(made), "a logged roll nobody was told about"
    for name in made:
        assert all(s.has_card(name) for s in everyone), name
    # Every error a player got says the roll was not made and to try again; a roll
    # whose COMMIT answer was lost but did commit is confirmed with its number.
    errors = [n for s in everyone for n in s.notices if n[0] == "error"]
    assert len(errors) == len(not_made)
    assert all("not made" in text and "try again" in text for _, _, text in errors), errors
    confirmed = [(s, n[2]) for s in everyone for n in s.notices if "was made (#" in n[2]]
    owner = {seqs[0]: outcomes[m][1] for m, seqs in markers.items()}
    for socket, text in confirmed:  # "Your roll was made (#12)." names the sender's roll
        assert owner[int(re.search(r"#(\d+)", text).group(1))] is socket, text
    # Plot points: each sheet spent exactly what its logged rolls say they spent.
    spent = dict(
        cluster.db.query(
            "SELECT sheet_id, 1000 - value FROM sheets_counter WHERE key = 'plot_points'"
        )
    )
    by_sheet = {sheet: 0 for sheet in spent}
    for sheet_id, points in cluster.db.query(
        "SELECT character_id, (outcome->>'plot_points_spent')::int FROM table_tableevent "
        "WHERE campaign_id = %s",
        [cluster.campaign],
    ):
        by_sheet[sheet_id] += points
    assert spent == by_sheet
    assert sum(spent.values()) > 0
    assert sorted(result["fired"]) == sorted(FAULTS)
    # Once the database answers again, rolls work without restarting anything.
    assert result["recovered"] == ["made"] * ROLLS_AFTER * 3
    assert confirmed, "no COMMIT answer was lost after the server committed"
    sys.stderr.write(
        f"\nDatabase drop: {len(FAULTS)} faults ({', '.join(result['fired'])}), "
        f"{result['terminated']} backends terminated, {len(outcomes)} rolls: {len(made)} made "
        f"({len(confirmed)} confirmed after a lost COMMIT answer), {len(not_made)} not made "
        f"and told so; {len(log)} events x {len(everyone)} sockets checked, half states 0, "
        f"{time.monotonic() - started:.1f}s\n"
    )
