"""A roll behind the GM's screen, in three browsers: the players see a sealed card with
its commitment; the GM reveals it; the card opens on every page and its check passes
(SHA-256 of the committed text against the commitment the page saw on the sealed card,
and the dice shown are the committed ones); a face tampered with on the page makes the
check fail, and so does a forged reveal that carries a commitment of its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership

U = get_user_model()
users = {name: U.objects.get(username=name) for name in ("gm", "alice", "bob")}
c = services.create_campaign(users["gm"], name="E2E sealed", description="", system="serenity")
for p in ("alice", "bob"):
    Membership.objects.create(campaign=c, user=users[p], role="player")
scene = services.create_scene(c, title="Behind the screen", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk}))
"""


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)["id"]


@pytest.fixture(scope="module")
def pages(chromium, daphne_server):
    return {name: log_in(chromium, daphne_server, name) for name in ("gm", "alice", "bob")}


# A reveal forged whole: other dice, and the SHA-256 of its own committed text as its
# commitment. Consistent in itself, so only the commitment this page saw before the
# reveal can catch it.
FORGE = """async (card) => {
  const details = card.querySelector(".seal-check");
  const committed = JSON.parse(details.dataset.committed);
  const die = committed.outcome.dice[0];
  die.face = Number(die.face) % 4 + 1;
  if (typeof committed.faces[0] === "number") { committed.faces[0] = die.face; }
  committed.salt = "0".repeat(32);
  const text = JSON.stringify(committed);
  const digest = Array.from(new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))
  )).map((b) => b.toString(16).padStart(2, "0")).join("");
  details.dataset.committed = text;
  details.dataset.commitment = digest;
  details.querySelector("code.hash").textContent = digest;
  card.querySelector(":scope > ul.dice .face-value").textContent = String(die.face);
}"""


def newest_card(page: Page):
    return page.locator("#log > li[data-seq]").first


def test_a_secret_roll_is_sealed_then_opens_and_checks_everywhere(pages, daphne_server, campaign):
    for page in pages.values():
        page.goto(f"{daphne_server.url}/c/{campaign}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    gm = pages["gm"]
    form = gm.locator("form[action$='/table/gm/roll/']")
    rows = form.locator(".dice-row")
    rows.nth(0).locator("select[name=die]").select_option("d12")
    rows.nth(0).locator("input[name=die_name]").fill("Hidden sniper")
    rows.nth(1).locator("select[name=die]").select_option("d10")
    rows.nth(1).locator("input[name=die_name]").fill("Crossfire")
    form.locator("[name=visibility]").select_option("gm")
    form.locator("button[type=submit]").click()
    expect(newest_card(gm)).to_contain_text("Hidden sniper")
    seq = newest_card(gm).get_attribute("data-seq")

    for name in ("alice", "bob"):
        card = pages[name].locator(f"#event-{seq}")
        expect(card).to_contain_text("The GM rolled behind the screen")
        expect(card.locator("code.hash")).to_have_text(
            gm.locator(f"#event-{seq} .seal-check").get_attribute("data-commitment")
        )
        assert "Hidden sniper" not in pages[name].content()

    gm.locator(f"#event-{seq} .gm-card-menu summary").click()
    gm.locator(f"#event-{seq} button", has_text="Reveal").click()
    for page in pages.values():
        card = page.locator(f"#event-{seq}")
        # The reveal has reached this page (the GM's card showed the roll all along).
        expect(card.locator("article")).to_have_class(re.compile(r"(^|\s)revealed(\s|$)"))
        expect(card).to_contain_text("Hidden sniper")
        card.locator(".seal-check summary").click()
        card.locator("[data-check-seal]").click()
        expect(card.locator(".seal-result")).to_have_attribute("data-ok", "true")
        expect(card.locator(".seal-result")).to_contain_text("Checked")
        # The players' pages held the reveal to the sealed card they showed; the GM's
        # never showed it sealed, and says so.
        earlier = "false" if page is gm else "true"
        expect(card.locator(".seal-result")).to_have_attribute("data-earlier", earlier)

    # A face changed on the page no longer matches what was committed.
    alice = pages["alice"].locator(f"#event-{seq}")
    alice.locator(".face-value").first.evaluate(
        "el => { el.textContent = String((Number(el.textContent) % 12) + 1); }"
    )
    alice.locator("[data-check-seal]").click()
    expect(alice.locator(".seal-result")).to_have_attribute("data-ok", "false")
    expect(alice.locator(".seal-result")).to_contain_text("not the committed ones")
    # And so does committed text changed on the page.
    bob = pages["bob"].locator(f"#event-{seq}")
    bob.locator(".seal-check").evaluate(
        "el => { el.dataset.committed = el.dataset.committed.replace('\"faces\":[', '\"faces\":[1,'); }"
    )
    bob.locator("[data-check-seal]").click()
    expect(bob.locator(".seal-result")).to_contain_text("does not hash to the commitment")

    # A reveal forged whole fails against the commitment this page saw on the sealed
    # card, which it keeps for the tab's life, across a reload after the reveal.
    pages["alice"].reload()
    expect(pages["alice"].locator("#socket-status")).to_have_attribute("data-state", "live")
    alice.locator(".seal-check summary").click()
    alice.locator("[data-check-seal]").click()
    expect(alice.locator(".seal-result")).to_have_attribute("data-ok", "true")
    expect(alice.locator(".seal-result")).to_have_attribute("data-earlier", "true")
    alice.locator("article").first.evaluate(FORGE)
    alice.locator("[data-check-seal]").click()
    expect(alice.locator(".seal-result")).to_have_attribute("data-ok", "false")
    expect(alice.locator(".seal-result")).to_contain_text("not the one its sealed card showed")
