"""The pool in the open, in three browsers: Alice builds a pool and the GM's page shows
it live with its odds (keeping what the GM was picking when it changes); Bob's shows only that Alice is building a roll; the GM adds a
complication from the table, which arrives in Alice's builder without taking her focus;
her roll includes it, and the card shows it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in, wait_until

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets.models import Trait
from sheets.services import create_sheet

U = get_user_model()
users = {name: U.objects.get(username=name) for name in ("gm", "alice", "bob")}
c = services.create_campaign(users["gm"], name="E2E pool in the open", description="", system="serenity")
for p in ("alice", "bob"):
    Membership.objects.create(campaign=c, user=users[p], role="player")
s = create_sheet(c, name="Ace", kind="pc", owner=users["alice"], counters={"plot_points": 2})
Trait.objects.create(sheet=s, group="stylins", name="Fightin'", die=10)
Trait.objects.create(sheet=s, group="values", name="Loyalty", die=8)
n = create_sheet(c, name="Niska", kind="npc", owner=None, counters={"plot_points": 0})
Trait.objects.create(sheet=n, group="complications", name="Broke", die=8, position=0)
Trait.objects.create(sheet=n, group="complications", name="Winged", die=6, position=1)
scene = services.create_scene(c, title="The skyplex", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk, "sheet": s.pk}))
"""


def test_the_gm_sees_the_pool_built_and_adds_a_die_the_roll_takes(chromium, daphne_server):
    seeded = daphne_server.seed(SETUP)
    table = f"{daphne_server.url}/c/{seeded['id']}/table/"
    pages = {name: log_in(chromium, daphne_server, name) for name in ("gm", "alice", "bob")}
    for page in pages.values():
        page.goto(table)
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    alice, gm, bob = pages["alice"], pages["gm"], pages["bob"]
    builder = f"#builder-{seeded['sheet']}"
    slot = f"#live-pool-{seeded['sheet']}"

    expect(gm.locator(".live-pools-empty")).to_be_visible()  # says why the area is empty
    alice.locator(f"{builder} label.trait-choice", has_text="Fightin'").click()
    expect(gm.locator(slot)).to_contain_text("Ace: d10 Fightin'")
    expect(gm.locator(".live-pools-empty")).to_be_hidden()
    expect(gm.locator(slot)).to_contain_text("Average result")
    expect(bob.locator(slot)).to_contain_text("Ace is building a roll")
    expect(bob.locator(slot)).not_to_contain_text("d10")

    # The GM's pick survives the card being re-sent by the player's next click.
    gm.locator(f"{slot} select[name=die]").select_option(label="d6 Winged (Niska)")
    alice.locator(f"{builder} label.trait-choice", has_text="Loyalty").click()
    expect(gm.locator(slot)).to_contain_text("d8 Loyalty")
    expect(gm.locator(f"{slot} select[name=die] option:checked")).to_have_text("d6 Winged (Niska)")

    alice.locator(f"{builder} [name=target]").click()
    gm.locator(f"{slot} .live-pool-add button").click()
    expect(gm.locator(f"{slot} .live-pool-additions")).to_contain_text("d6 Winged")
    expect(alice.locator(f"{builder} .gm-additions")).to_contain_text("d6 Winged")
    expect(alice.locator(f"{builder} .odds-title, {builder} figure")).to_contain_text("Winged")
    wait_until(alice, "() => document.activeElement && document.activeElement.name === 'target'")
    expect(bob.locator("#live-pools")).not_to_contain_text("Winged")

    alice.locator(f"{builder} .pool-roll button[type=submit]").click()
    for page in (alice, gm, bob):
        expect(page.locator("#log > li[data-seq]").first).to_contain_text("Winged")
    expect(gm.locator(slot)).not_to_contain_text("Fightin'")
    expect(bob.locator(slot)).not_to_contain_text("building a roll")
    # Settled: the builder does not keep re-posting itself, and no pool comes back.
    posts: list[str] = []
    alice.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    alice.wait_for_timeout(1500)
    assert posts == []
    expect(gm.locator(slot)).not_to_contain_text("Fightin'")
    for page in pages.values():
        page.context.close()
