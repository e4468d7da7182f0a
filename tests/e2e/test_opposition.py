"""The GM's opposition is the number to beat, in three browsers (SER-5, SER-10, SMV-10,
CTX-1): the GM rolls it from the dashboard, every player's builder reads "To beat N",
a player rolls from the builder, and ANOTHER player's page reads the outcome on the
card's face. Behind the screen, the player's card stays sealed on every player's page
until the GM reveals the opposition; then it opens with its outcome."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_table_play import SEED_PRELUDE, _click, _roll

pytestmark = pytest.mark.e2e

SETUP = (
    SEED_PRELUDE
    + r"""
out = {}
for system in ("serenity", "smallville", "cortex_slots"):
    c = services.create_campaign(users["gm"], name=f"E2E opposition {system}", description="",
                                 system=system)
    for p in ("alice", "bob"):
        Membership.objects.create(campaign=c, user=users[p], role="player")
    sheets = {}
    for p, hero in (("alice", "Ace"), ("bob", "Bo")):
        s = create_sheet(c, name=hero, kind="pc", owner=users[p], counters={"plot_points": 2})
        sheets[p] = s.pk
        if system == "serenity":
            t(s, "stylins", "Fightin'", 12)
        elif system == "smallville":
            rate(s, "values", "Justice", die=10); t(s, "relationships", "Lana", 8)
        else:
            t(s, "attributes", "Agility", 8); t(s, "distinctions", "Ex-Marine", 8)
            t(s, "skills", "Shoot", 10)
    scene = services.create_scene(c, title="Standoff", description="")
    services.start_scene(c, scene.pk)
    out[system] = {"id": c.pk, "sheets": sheets}
print(json.dumps(out))
"""
)

POOLS = {
    "serenity": ["Fightin'"],
    "smallville": ["Justice", "Lana"],
    "cortex_slots": ["Agility", "Ex-Marine", "Shoot"],
}
# The faces are the server's own draw: a botch (Serenity Plus) or all ones (Smallville)
# reads "result 0", and it too is a failure against the number to beat.
OUTCOME = re.compile(
    r"(Result|Total|Botch, result|Fails outright, result) \d+ vs \d+ — "
    r"(extraordinary )?(success|failure)"
)


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.fixture(scope="module")
def pages(chromium, daphne_server):
    return {name: log_in(chromium, daphne_server, name) for name in ("gm", "alice", "bob")}


def _open(pages, server, table, system) -> None:
    for page in pages.values():
        page.goto(f"{server.url}/c/{table[system]['id']}/table/")
    for page in pages.values():
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")


def _gm_rolls_opposition(gm: Page, *, secret: bool = False) -> str:
    """The GM rolls a d8 and a d6 from the dashboard; returns the new card's seq."""
    form = gm.locator("form[action$='/table/gm/roll/']")
    rows = form.locator(".dice-row")
    rows.nth(0).locator("select[name=die]").select_option("d8")
    rows.nth(0).locator("input[name=die_name]").fill("Armed guards")
    rows.nth(1).locator("select[name=die]").select_option("d6")
    rows.nth(1).locator("input[name=die_name]").fill("Narrow gate")
    form.locator("[name=visibility]").select_option("gm" if secret else "public")
    before = gm.locator("#log > li[data-seq]").count()
    form.locator("button[type=submit]").click()
    expect(gm.locator("#log > li[data-seq]")).to_have_count(before + 1)
    card = gm.locator("#log > li[data-seq]").first
    expect(card).to_contain_text("Armed guards")
    return card.get_attribute("data-seq")


def _to_beat(page: Page, system: str) -> str:
    """The number to beat as the player's builder (Cortex Plus) or scene panel shows it."""
    if system == "cortex_slots":
        number = page.locator("#scene-panel .target-number")
    else:
        number = page.locator(".pool-builder .to-beat-number").first
    expect(number).to_have_text(re.compile(r"^\d+$"))
    return number.text_content()


@pytest.mark.parametrize("system", ["serenity", "smallville", "cortex_slots"])
def test_a_players_roll_against_the_gms_opposition_reads_its_outcome_on_another_page(
    pages, daphne_server, table, system
):
    """The GM's opposition roll is the number to beat (SER-5, SMV-10; CTX-1, the GM pool
    sets the difficulty): another player's page reads the outcome on the card's face."""
    _open(pages, daphne_server, table, system)
    _gm_rolls_opposition(pages["gm"])
    alice, bob = pages["alice"], pages["bob"]
    number = _to_beat(alice, system)
    assert _to_beat(bob, system) == number  # every player's builder shows it
    builder = f"#builder-{table[system]['sheets']['alice']}"
    for name in POOLS[system]:
        _click(alice, builder, name)
    seq = _roll(alice, builder)
    card = bob.locator(f"#event-{seq} .headline")
    expect(card).to_have_text(re.compile(rf"vs {number} — (extraordinary )?(success|failure)"))
    expect(card).to_have_text(OUTCOME)


def test_against_a_secret_opposition_the_card_opens_only_when_the_gm_reveals_it(
    pages, daphne_server, table
):
    system = "serenity"
    _open(pages, daphne_server, table, system)
    gm, alice, bob = pages["gm"], pages["alice"], pages["bob"]
    secret = _gm_rolls_opposition(gm, secret=True)
    builder = f"#builder-{table[system]['sheets']['alice']}"
    expect(alice.locator(f"{builder} .to-beat")).to_contain_text("set by the GM behind the screen")
    _click(alice, builder, "Fightin'")
    seq = _roll(alice, builder)
    for page in (alice, bob):
        card = page.locator(f"#event-{seq}")
        expect(card).to_contain_text("against what the GM keeps behind the screen")
        expect(card.locator(".sealed-card")).to_be_visible()
        expect(card).not_to_contain_text("success")
        expect(card).not_to_contain_text("failure")
    # The GM reads the outcome at once.
    expect(gm.locator(f"#event-{seq} .headline")).to_have_text(OUTCOME)
    gm.locator(f"#event-{secret} .gm-card-menu summary").click()
    gm.locator(f"#event-{secret} button", has_text="Reveal").click()
    for page in (alice, bob):
        expect(page.locator(f"#event-{seq} .headline")).to_have_text(OUTCOME)
        expect(page.locator(f"#event-{secret}")).to_contain_text("Armed guards")
