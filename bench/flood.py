"""Flood benchmark: one user opens 150 sockets at a table and sends rolls as fast as each
socket is allowed, while three other players roll at a normal pace.

Run from the repository root (not in CI):

    .venv/bin/python bench/flood.py [--json] [--runs 3] [--flood 60] [--sockets 150]
    .venv/bin/python bench/flood.py --no-user-limits   # the per-user limits switched off

Each run builds a fresh embedded database (SQLite, in a temporary directory) with one
Serenity campaign: a GM, the flooder and three players, each player with a character,
and starts ONE daphne process with production settings and the table's default limits
(the embedded default: in-memory channel layer, in-process cache). Then:

- normal play: the three players each roll from their character every 2 s (random
  phase), over their own socket; the GM's socket and theirs watch. A roll's delay runs
  from sending it to its card (found by the roll's goal) reaching the sockets of the
  GM and the two other players: the last of them;
- after a warm-up (--warmup, 10 s) the server's resident memory is sampled: "idle";
- the flood (--flood, 60 s): the flooder opens --sockets sockets at once, each from
  seq 0, and each, as soon as it is open, sends TABLE_SOCKET_RATE rolls back to back,
  then one every TABLE_SOCKET_WINDOW / TABLE_SOCKET_RATE seconds (the pace its own limit
  allows), until it is closed or the flood ends (with --retry S, a socket refused or
  closed is opened again S seconds later, for as long as the flood lasts);
  the server's memory is sampled every 0.2 s: "peak";
- normal play goes on for a few seconds more, then every socket closes.

Figures: the other players' p50/p99/max during the flood (and before it, for
comparison); the flooder's rolls sent, accepted (events in the log), refused ("Slow
down": by one socket's limit, or by the user's budget at the table) and unanswered
(sent on a socket the server was closing); the flooder's sockets still open at the end
and those closed with 4429; memory idle, peak and at the end. Targets (issue 16): the
other players' p99 <= 100 ms and the peak within 20 % of idle. With --runs N the run is
repeated on a fresh server and the median of each figure is reported beside each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import LoadSocket  # noqa: E402
from bench.scratch import SETTINGS_ENV  # noqa: E402
from bench.soak import rss_bytes  # noqa: E402
from rollcall.localserver import free_port, start_daphne, wait_for_port  # noqa: E402

PLAYERS = 3
PLAYER_INTERVAL = 2.0  # seconds between one player's rolls
MARK = re.compile(rb"Mark p(\d+) r(\d+)")
NOTICE = re.compile(rb'data-code="(\w+)"[^>]*>([^<]*)<')
FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
SOCKET_RATE, SOCKET_WINDOW = 20, 10  # the defaults (rollcall/settings.py)


# --------------------------------------------------------------------------- setup


def build_database(path: Path) -> dict:
    """One Serenity campaign: a GM, the flooder and three players with a character each,
    and a logged-in session per user."""
    os.environ["SQLITE_PATH"] = str(path)
    os.environ.update(SETTINGS_ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from accounts.models import User
    from campaigns.models import Campaign, Membership, Role
    from sheets.models import Sheet, Trait

    call_command("migrate", verbosity=0)
    campaign = Campaign.objects.create(name="Flood", system="serenity")
    gm = User.objects.create_user("flood-gm", password="bench-password-1")
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    users, sheets = [], []
    for name in ["flooder", *(f"player{i}" for i in range(PLAYERS))]:
        user = User.objects.create_user(name, password="bench-password-1")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        sheet = Sheet.objects.create(campaign=campaign, owner=user, name=name.title(), kind="pc")
        Trait.objects.create(sheet=sheet, group="stylins", name="Fightin'", die=10, position=0)
        users.append(user)
        sheets.append(sheet.pk)
    cookies = []
    for user in [gm, *users]:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    connection.close()
    return {"campaign": campaign.pk, "cookies": cookies, "sheets": sheets}


def flooder_events() -> int:
    """The flooder's rolls in the log (the bench process's Django points at the run's
    database)."""
    from django.db import connection

    from table.models import TableEvent

    try:
        return TableEvent.objects.filter(actor__username="flooder").count()
    finally:
        connection.close()


def start_server(db: Path, port: int, log: Path, limits: bool):
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        **SETTINGS_ENV,
        "SQLITE_PATH": str(db),
        "LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "rollcall.settings",
    }
    for name in ("TABLE_SOCKET_RATE", "TABLE_SOCKET_WINDOW", "TABLE_SOCKETS_PER_USER",
                 "TABLE_USER_RATE", "TABLE_USER_WINDOW", "TABLE_SOCKET_OPENS"):  # fmt: skip
        env.pop(name, None)  # the defaults
    if not limits:
        env.update(
            {"TABLE_SOCKETS_PER_USER": "0", "TABLE_USER_RATE": "0", "TABLE_SOCKET_OPENS": "0"}
        )
    return start_daphne(port, env, str(log), str(ROOT))


# --------------------------------------------------------------------------- clients


class FloodSocket(LoadSocket):
    """A LoadSocket that hands every message to `on_message` and keeps its close code."""

    def __init__(self, protocol, request, on_message) -> None:
        super().__init__(protocol, request)
        self.on_message = on_message

    def _record(self, message: bytes, now: float) -> None:
        self.on_message(message, now)

    @property
    def close_code(self) -> int | None:
        frame = self.protocol.close_rcvd
        return None if frame is None else int(frame.code)


async def open_socket(url: str, cookie: str, origin: str, on_message) -> FloodSocket | None:
    """A FloodSocket, open, or None when the server did not take it."""
    from websockets.client import ClientProtocol
    from websockets.typing import Origin
    from websockets.uri import parse_uri

    uri = parse_uri(url)
    protocol = ClientProtocol(uri, origin=Origin(origin), max_size=None)
    request = protocol.connect()
    request.headers["Cookie"] = cookie
    ws = FloodSocket(protocol, request, on_message)
    loop = asyncio.get_running_loop()
    try:
        await loop.create_connection(lambda: ws, uri.host, uri.port)
        await asyncio.wait_for(ws.opened, 30)
    except Exception:  # noqa: BLE001 - refused (403), reset, timed out: not open
        if ws.transport is not None:
            ws.transport.abort()
        return None
    return ws


def roll(sheet: int, goal: str = "") -> str:
    request = {"pool": [FIGHTIN], **({"goal": goal} if goal else {})}
    return json.dumps({"type": "act", "action": "roll", "sheet_id": sheet, "request": request})


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)


# --------------------------------------------------------------------------- one run


async def flood_run(port: int, pid: int, data: dict, args) -> dict:
    origin = f"http://127.0.0.1:{port}"
    url = f"ws://127.0.0.1:{port}/ws/campaign/{data['campaign']}/?last_seq=0"
    gm_cookie, flooder_cookie, *player_cookies = data["cookies"]
    player_sheets = data["sheets"][1:]

    # Normal play: who saw which player's roll when.
    sent: dict[tuple[int, int], float] = {}
    seen: dict[tuple[int, int], dict[int, float]] = {}  # (player, roll) -> watcher -> time

    def watcher(index: int):
        def on_message(message: bytes, now: float) -> None:
            for player, number in MARK.findall(message):
                seen.setdefault((int(player), int(number)), {}).setdefault(index, now)

        return on_message

    watchers = []  # index 0: the GM; 1..3: the players
    for index, cookie in enumerate([gm_cookie, *player_cookies]):
        ws = await open_socket(url, cookie, origin, watcher(index))
        if ws is None:
            raise SystemExit("a player could not connect")
        watchers.append(ws)

    stop_play = asyncio.Event()

    async def player(number: int) -> None:
        ws, sheet = watchers[number + 1], player_sheets[number]
        await asyncio.sleep(random.random() * PLAYER_INTERVAL)
        count = 0
        begin = time.perf_counter()
        while not stop_play.is_set():
            sent[(number, count)] = time.perf_counter()
            await ws.send(roll(sheet, f"Mark p{number} r{count}"))
            count += 1
            delay = begin + count * PLAYER_INTERVAL - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)

    players = [asyncio.create_task(player(n)) for n in range(PLAYERS)]

    samples: list[tuple[float, int]] = []

    async def sampler(every: float) -> None:
        while True:
            rss = rss_bytes(pid)
            if rss:
                samples.append((time.perf_counter(), rss))
            await asyncio.sleep(every)

    sampling = asyncio.create_task(sampler(0.2))
    await asyncio.sleep(args.warmup)
    idle_from = time.perf_counter() - min(5.0, args.warmup / 2)
    idle = [rss for at, rss in samples if at >= idle_from]

    # The flood.
    flood_start = time.perf_counter()
    flood_end = flood_start + args.flood
    flooder = {"sent": 0, "socket_limit": 0, "budget": 0, "refused_other": 0, "notices": 0,
               "refused_sockets": 0}  # fmt: skip
    sockets: list[FloodSocket] = []

    def on_flooder_message(message: bytes, now: float) -> None:
        for code, text in NOTICE.findall(message):
            flooder["notices"] += 1
            if code == b"rate_limited":
                flooder["budget" if b"actions every" in text else "socket_limit"] += 1
            elif code in (b"refused", b"malformed", b"too_large"):
                flooder["refused_other"] += 1

    flood_roll = roll(data["sheets"][0])

    async def flood_socket() -> None:
        while time.perf_counter() < flood_end:
            ws = await open_socket(url, flooder_cookie, origin, on_flooder_message)
            if ws is None:
                flooder["refused_sockets"] += 1
            else:
                sockets.append(ws)
                await use(ws)
            if not args.retry:
                return
            await asyncio.sleep(args.retry)

    async def use(ws: FloodSocket) -> None:
        """Its whole allowance at once, then as fast as the allowance comes back."""
        burst, pause = SOCKET_RATE, SOCKET_WINDOW / SOCKET_RATE
        while time.perf_counter() < flood_end:
            for _ in range(burst):
                if ws.closed.done() or ws.protocol.close_rcvd is not None:
                    return
                await ws.send(flood_roll)
                flooder["sent"] += 1
            burst = 1
            await asyncio.sleep(pause)

    attempts = [asyncio.create_task(flood_socket()) for _ in range(args.sockets)]
    remaining = flood_end - time.perf_counter()
    if remaining > 0:
        await asyncio.sleep(remaining)
    await asyncio.gather(*attempts)
    during = [rss for at, rss in samples if flood_start <= at <= time.perf_counter()]
    open_at_end = sum(1 for ws in sockets if not ws.closed.done())
    closed_4429 = sum(1 for ws in sockets if ws.close_code == 4429)

    # A few more seconds of normal play, then stop and let the last cards arrive.
    await asyncio.sleep(args.after)
    stop_play.set()
    for task in players:
        task.cancel()
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline and any(len(seen.get(k, {})) < PLAYERS for k in sent):
        await asyncio.sleep(0.1)
    sampling.cancel()
    end_rss = rss_bytes(pid) or 0
    for ws in [*watchers, *sockets]:
        if not ws.closed.done():
            await ws.close()

    def delays(start: float, end: float) -> list[tuple[float, float]]:
        """(delay, when it was sent, in seconds after the flood began) of each roll."""
        out = []
        for (player_number, number), at in sent.items():
            if not start <= at < end:
                continue
            others = {0, 1, 2, 3} - {player_number + 1}
            times = seen.get((player_number, number), {})
            if others <= times.keys():
                out.append((max(times[w] for w in others) - at, at - flood_start))
            else:
                out.append((float("inf"), at - flood_start))  # never arrived: the worst
        return out

    before_timed, during_timed = delays(0, flood_start), delays(flood_start, flood_end)
    before, during_flood = [d for d, _ in before_timed], [d for d, _ in during_timed]
    worst = max(during_timed, default=(None, None))
    accepted = await asyncio.to_thread(flooder_events)
    mib = lambda b: round(b / 2**20, 1)  # noqa: E731
    idle_mib = mib(statistics.median(idle)) if idle else None
    peak_mib = mib(max(during)) if during else None
    return {
        "others_rolls_during_flood": len(during_flood),
        "others_p50_ms": pct(during_flood, 0.50),
        "others_p95_ms": pct(during_flood, 0.95),
        "others_p99_ms": pct(during_flood, 0.99),
        "others_max_ms": pct(during_flood, 1.0),
        "others_worst_sent_at_s": None if worst[1] is None else round(worst[1], 2),
        "others_lost": sum(1 for d in during_flood + before if d == float("inf")),
        "others_before_p50_ms": pct(before, 0.50),
        "others_before_p99_ms": pct(before, 0.99),
        "flooder_sockets_opened": len(sockets),
        "flooder_sockets_refused": flooder["refused_sockets"],
        "flooder_sockets_open_at_end": open_at_end,
        "flooder_sockets_closed_4429": closed_4429,
        "flooder_rolls_sent": flooder["sent"],
        "flooder_rolls_accepted": accepted,
        "flooder_refused_socket_limit": flooder["socket_limit"],
        "flooder_refused_user_budget": flooder["budget"],
        "flooder_refused_other": flooder["refused_other"],
        "flooder_unanswered": flooder["sent"]
        - accepted
        - flooder["socket_limit"]
        - flooder["budget"]
        - flooder["refused_other"],
        "rss_idle_mib": idle_mib,
        "rss_peak_mib": peak_mib,
        "rss_end_mib": mib(end_rss),
        "rss_growth_pct": round(100 * (peak_mib - idle_mib) / idle_mib, 1)
        if idle_mib and peak_mib
        else None,
    }


def one_run(args, workdir: Path, number: int) -> dict:
    # The same path each run (this process's Django keeps the first one it was given),
    # a fresh database in it.
    db = workdir / "flood.sqlite3"
    for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        leftover.unlink(missing_ok=True)
    data = build_database(db)
    port = free_port()
    server = start_server(db, port, workdir / f"daphne-{number}.log", not args.no_user_limits)
    try:
        wait_for_port(port, server, timeout=30)
        return asyncio.run(flood_run(port, server.pid, data, args))
    finally:
        server.terminate()
        server.wait(10)


def median_of(runs: list[dict]) -> dict:
    out = {}
    for key in runs[0]:
        values = [r[key] for r in runs if r[key] is not None]
        out[key] = statistics.median(values) if values else None
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a fresh server")
    parser.add_argument("--sockets", type=int, default=150, help="the flooder's sockets")
    parser.add_argument("--flood", type=float, default=60.0, help="seconds of flood")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of play before")
    parser.add_argument("--after", type=float, default=3.0, help="seconds of play after")
    parser.add_argument(
        "--retry",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="the flooder opens each refused or closed socket again after this long "
        "(default: never)",
    )
    parser.add_argument(
        "--no-user-limits",
        action="store_true",
        help="TABLE_SOCKETS_PER_USER=0 and TABLE_USER_RATE=0 (per-socket limits only)",
    )
    args = parser.parse_args()
    os.environ.pop("DATABASE_URL", None)  # the embedded default, whatever the shell has
    os.environ.pop("REDIS_URL", None)
    workdir = Path(tempfile.mkdtemp(prefix="rollcall-flood-"))
    runs = []
    for number in range(args.runs):
        runs.append(one_run(args, workdir, number))
        if args.runs > 1 and not args.json:
            print(f"run {number + 1}: {json.dumps(runs[-1])}", file=sys.stderr, flush=True)
    median = median_of(runs)
    targets = {
        "others_p99_ms<=100": (median["others_p99_ms"] or 1e9) <= 100,
        "rss_peak_within_20pct_of_idle": (median["rss_growth_pct"] or 1e9) <= 20,
    }
    figures = {
        "server": "daphne, SQLite + in-memory layer, 1 process",
        "user_limits": not args.no_user_limits,
        "flooder_sockets": args.sockets,
        "flooder_retry_s": args.retry or None,
        "flood_s": args.flood,
        "players": PLAYERS,
        "player_interval_s": PLAYER_INTERVAL,
        "median" if args.runs > 1 else "result": median,
        "targets": targets,
        **({"runs": runs} if args.runs > 1 else {}),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    m = median
    label = f"median of {args.runs} runs" if args.runs > 1 else "one run"
    print(f"{figures['server']}, {label}; user limits {'on' if figures['user_limits'] else 'off'}; "
          f"{args.sockets} flooder sockets for {args.flood:.0f} s, {PLAYERS} players rolling "
          f"every {PLAYER_INTERVAL:g} s")  # fmt: skip
    print(f"  other players during the flood: p50 {m['others_p50_ms']} ms  p95 "
          f"{m['others_p95_ms']} ms  p99 "
          f"{m['others_p99_ms']} ms  max {m['others_max_ms']} ms (sent "
          f"{m['others_worst_sent_at_s']} s into the flood)  "
          f"({m['others_rolls_during_flood']} rolls; before it: p50 "
          f"{m['others_before_p50_ms']} ms, p99 {m['others_before_p99_ms']} ms; "
          f"lost {m['others_lost']})")  # fmt: skip
    print(f"  flooder: sockets opened {m['flooder_sockets_opened']} (refused at the handshake "
          f"{m['flooder_sockets_refused']}), open at the end "
          f"{m['flooder_sockets_open_at_end']}, closed 4429 {m['flooder_sockets_closed_4429']}; "
          f"rolls sent {m['flooder_rolls_sent']}, accepted {m['flooder_rolls_accepted']}, "
          f"refused by a socket's limit {m['flooder_refused_socket_limit']}, by the user's "
          f"budget {m['flooder_refused_user_budget']}, unanswered {m['flooder_unanswered']}")  # fmt: skip
    print(f"  server memory: idle {m['rss_idle_mib']} MiB, peak during the flood "
          f"{m['rss_peak_mib']} MiB ({m['rss_growth_pct']:+} %), end {m['rss_end_mib']} MiB")  # fmt: skip
    print(
        "  targets: " + ", ".join(f"{k} {'met' if ok else 'MISSED'}" for k, ok in targets.items())
    )


if __name__ == "__main__":
    main()
