"""One lock order (campaigns/locking.py) on PostgreSQL: 1,000 mixed scene starts and
ends, rolls, plot point spends and gifts and GM sheet edits from several threads on
separate connections. No deadlock or "database unreachable" reaches a user, nothing
that was accepted is lost, and the log verifies."""

from __future__ import annotations

import random
import threading
from collections import Counter as Tally

import pytest
from django.db import DatabaseError, connection

from campaigns import services
from campaigns.locking import Busy
from sheets import services as sheets
from sheets.models import Counter
from table.models import TableEvent
from table.reading.export import verify
from table.writing.actions import ActionError, perform

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

OPERATIONS = 1_000
THREADS = 6
FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}


def test_a_thousand_mixed_operations_meet_no_deadlock(table_for):
    assert connection.vendor == "postgresql"
    t = table_for("serenity")
    scenes = [
        services.create_scene(t.campaign, title=f"Scene {n}", description="") for n in range(60)
    ]
    Counter.objects.filter(sheet__campaign=t.campaign, key="plot_points").update(value=5)
    todo = list(range(OPERATIONS))
    lock = threading.Lock()
    outcomes: Tally = Tally()
    failures: list[str] = []
    logged = []  # events the operations said they wrote

    def scene_cycle(rng):
        running = t.campaign.active_scene  # read once: other threads start and end scenes
        if rng.random() < 0.5 and running is not None:
            services.end_scene(t.campaign, running.pk, t.gm)
        else:
            services.start_scene(t.campaign, rng.choice(scenes).pk, t.gm)
        return None

    def player_roll(rng):
        return perform(t.campaign, t.player, "roll",
                       {"pool": [FIGHTIN], "plot_points": rng.choice([0, 0, 1])},
                       sheet_id=t.pc.pk)  # fmt: skip

    def gm_roll(rng):
        return perform(t.campaign, t.gm, "roll", {"pool": [GOONS]},
                       visibility=rng.choice(["public", "gm"]))  # fmt: skip

    def gift(rng):
        return perform(t.campaign, t.gm, "give_points", {"amount": rng.choice([1, -1])},
                       sheet_id=rng.choice([t.pc, t.other_pc]).pk)  # fmt: skip

    def sheet_edit(rng):
        sheet = rng.choice([t.pc, t.other_pc])
        counter = Counter.objects.get(sheet=sheet, key="plot_points")
        sheets.save_counter(sheet, "plot_points", rng.randint(0, 6), counter.version,
                            editor=sheets.Editor(t.gm, True))  # fmt: skip
        return None

    kinds = [scene_cycle, player_roll, player_roll, gm_roll, gift, sheet_edit]

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    todo.pop()
                job = rng.choice(kinds)
                try:
                    event = job(rng)
                    with lock:
                        outcomes[job.__name__, "ok"] += 1
                        if event is not None:
                            logged.append(event.seq)
                except (ActionError, services.CampaignError, sheets.Conflict,
                        sheets.SheetError) as refusal:  # fmt: skip
                    with lock:
                        outcomes[job.__name__, "refused"] += 1
                    if isinstance(refusal, ActionError) and "busy" in str(refusal):
                        failures.append(f"{job.__name__}: {refusal}")
                except (Busy, DatabaseError) as error:
                    failures.append(f"{job.__name__}: {type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not failures, failures[:5]
    assert sum(outcomes.values()) == OPERATIONS
    seqs = set(TableEvent.objects.filter(campaign=t.campaign).values_list("seq", flat=True))
    assert set(logged) <= seqs and len(set(logged)) == len(logged)
    assert verify(t.campaign).ok
    assert Counter.objects.filter(sheet__campaign=t.campaign, key="plot_points",
                                  value__lt=0).count() == 0  # fmt: skip
    print(f"lock order: {dict(outcomes)}")  # noqa: T201
