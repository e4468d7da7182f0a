"""Two people spend a character's last plot point at the same instant, 200 times over,
on PostgreSQL with a connection each: every round exactly one roll is made and spends
it, the other is refused, the balance never goes below zero, and the log holds one
event per round with an intact hash chain."""

from __future__ import annotations

import random
import sys
import threading
import time

import pytest
from django.db import connection

from campaigns import services
from campaigns.models import Membership, Role
from sheets.models import Counter, Sheet, Trait
from table.models import TableEvent
from table.reading.export import verify
from table.writing import actions as table_actions
from table.writing.actions import ActionError, perform

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROUNDS = 200
POOL = {
    "pool": [
        {"die": "d10", "trait": "Fightin'", "group": "stylins"},
        {"die": "d8", "trait": "Loyalty", "group": "values"},
        {"die": "d12", "trait": "Pistol", "group": "assets"},
    ],
    "plot_points": 1,
}


class NoOnes(random.Random):
    """Every die shows its highest face, so a bought third die always costs the point."""

    def randint(self, a: int, b: int) -> int:
        return b


def test_the_last_plot_point_is_spent_once_in_each_of_200_races(make_user, monkeypatch):
    assert connection.vendor == "postgresql"
    monkeypatch.setattr(table_actions, "RNG", NoOnes())
    gm, player = make_user("gina", "Gina"), make_user("pete", "Pete")
    campaign = services.create_campaign(gm, name="Races", description="", system="serenity")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    sheet = Sheet.objects.create(campaign=campaign, owner=player, name="Mal")
    Trait.objects.create(sheet=sheet, group="stylins", name="Fightin'", die=10, position=0)
    Trait.objects.create(sheet=sheet, group="values", name="Loyalty", die=8, position=0)
    Trait.objects.create(sheet=sheet, group="assets", name="Pistol", die=12, position=0)
    points = Counter.objects.create(sheet=sheet, key="plot_points", value=1)

    # The main thread resets the balance, then all three meet at `go`; both rollers
    # roll at once and meet the main thread again at `done`.
    go, done = threading.Barrier(3, timeout=60), threading.Barrier(3, timeout=60)
    results: dict[str, list] = {"gm": [], "player": []}

    def roller(name: str, user) -> None:
        try:
            for _ in range(ROUNDS):
                go.wait()
                try:
                    outcome = perform(campaign, user, "roll", POOL, sheet_id=sheet.pk)
                except Exception as error:  # noqa: BLE001 - collected for the assertions
                    outcome = error
                results[name].append(outcome)
                done.wait()
        finally:
            connection.close()

    threads = [
        threading.Thread(target=roller, args=("gm", gm)),
        threading.Thread(target=roller, args=("player", player)),
    ]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    problems = []
    balances = []
    try:
        for number in range(ROUNDS):
            Counter.objects.filter(pk=points.pk).update(value=1)
            go.wait()
            done.wait()
            outcomes = [results["gm"][number], results["player"][number]]
            made = [o for o in outcomes if isinstance(o, TableEvent)]
            refused = [o for o in outcomes if isinstance(o, ActionError)]
            balance = Counter.objects.get(pk=points.pk).value
            balances.append(balance)
            if len(made) != 1 or len(refused) != 1 or balance != 0:
                problems.append((number, outcomes, balance))
    finally:
        go.abort()
        done.abort()
        for thread in threads:
            thread.join(30)
    elapsed = time.monotonic() - started

    assert problems == []
    assert min(balances) == 0
    events = list(TableEvent.objects.filter(campaign=campaign).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, ROUNDS + 1))
    assert all(e.outcome["plot_points_spent"] == 1 for e in events)
    assert verify(campaign).ok
    wins = {name: sum(isinstance(o, TableEvent) for o in got) for name, got in results.items()}
    sys.stderr.write(
        f"\nLast plot point: {ROUNDS} races, {len(events)} events, wins {wins}, "
        f"lowest balance {min(balances)}, {elapsed:.1f}s\n"
    )
