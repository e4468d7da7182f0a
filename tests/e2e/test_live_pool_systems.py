"""The pool in the open in each of the five systems, the player on a phone and the GM on
a laptop, then the other way round: while Alice builds her typical roll, the GM's page
shows it live and the GM adds what the game lets the GM add before a roll — the other
side's complication (SER-1), the opponent's Limit (SMV-5), the GM pool that sets the
difficulty (CTX-1), the difficulty and bonus dice (PER-1), the difficulty (UNI-4). Alice
sees it arrive in her builder, rolls, and the logged roll includes it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_play_surface import LAPTOP, PHONE, SYSTEMS, TYPICAL
from .test_table_play import SEED_PRELUDE, SELECTED, _click, _fill, _roll, _trait

pytestmark = pytest.mark.e2e

SETUP = (
    SEED_PRELUDE
    + r"""
gm, alice = users["gm"], users["alice"]

out = {}
for system in ("serenity", "cortex_slots", "smallville", "personae", "unisystem"):
    for size in ("phone", "laptop"):
        c = services.create_campaign(gm, name=f"Open pool {system} {size}", description="", system=system)
        Membership.objects.create(campaign=c, user=alice, role="player")
        counters = {"plot_points": 2, "drama_points": 2, "potential_threshold": 3}
        s = create_sheet(c, name="Ace", kind="pc", owner=alice, counters=counters)
        npc = create_sheet(c, name="Thugs", kind="npc", counters=counters)
        if system == "serenity":
            f = t(s, "stylins", "Fightin'", 12); t(s, "refinements", "Brawler", 10, parent=f)
            t(npc, "complications", "Winged", 6)
        elif system == "cortex_slots":
            t(s, "attributes", "Agility", 8); t(s, "distinctions", "Ex-Marine", 8)
            t(s, "skills", "Shoot", 10)
        elif system == "smallville":
            rate(s, "values", "Justice", die=10); t(s, "relationships", "Lana", 8)
            t(npc, "limits", "Kryptonite", 8)
        elif system == "personae":
            m = t(s, "attributes", "Might", rating=4); t(s, "skills", "Swordplay", rating=3, link=m)
        elif system == "unisystem":
            rate(s, "attributes", "Dexterity", rating=4); t(s, "skills", "Gun Fu", rating=3)
        scene = services.create_scene(c, title="The docks", description="")
        services.start_scene(c, scene.pk)
        out[f"{system}-{size}"] = {"id": c.pk, "sheet": s.pk}
print(json.dumps(out))
"""
)

LOGGED = r"""
import json, sys
import django
django.setup()
from table.models import TableEvent
event = TableEvent.objects.filter(campaign_id=int(sys.argv[1]), character_id=int(sys.argv[2])).latest("seq")
print(json.dumps({"request": event.request, "outcome": event.outcome}))
"""


@pytest.fixture(scope="module")
def campaigns(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.fixture(scope="module")
def logged_in(chromium, daphne_server):
    """Alice and the GM, each on a phone and on a laptop, logged in once."""
    sizes = {"phone": PHONE, "laptop": LAPTOP}
    pages = {
        (who, size): log_in(chromium, daphne_server, who, viewport=viewport)
        for who in ("alice", "gm")
        for size, viewport in sizes.items()
    }
    yield pages
    for page in pages.values():
        page.context.close()


def _open(page: Page, url: str, tab: str | None) -> None:
    page.goto(url)
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    if tab and page.locator(".surface-tabs").is_visible():
        page.get_by_role("tab", name=tab).click()


def _gm_adds(gm: Page, slot: str, system: str) -> None:
    """What the GM adds to Ace's roll from the pool in progress, with real controls."""
    if system in ("serenity", "smallville"):
        label = {"serenity": "d6 Winged (Thugs)", "smallville": "d8 Kryptonite (Thugs)"}[system]
        gm.locator(f"{slot} select[name=die]").select_option(label=label)
        gm.locator(f"{slot} .live-pool-add button").click()
        expect(gm.locator(f"{slot} .live-pool-additions")).to_contain_text(label.split(" (")[0])
    elif system == "cortex_slots":
        form = gm.locator(f"{slot} form.live-pool-difficulty")
        row = form.locator(".dice-row").first
        row.locator("select[name=die]").select_option("d8")
        row.locator("input[name=die_name]").fill("Guards")
        with gm.expect_response(lambda r: r.url.endswith("/table/gm/roll/")):
            form.get_by_role("button", name="Roll the difficulty").click()
    else:
        form = gm.locator(f"{slot} form.live-pool-difficulty")
        if system == "personae":
            form.locator("[name='set_difficulty-difficulty']").fill("9")
        else:
            form.locator("[name='set_difficulty-difficulty']").select_option("easy")
        with gm.expect_response(lambda r: "/table/act/set_difficulty/" in r.url):
            form.get_by_role("button", name="Set the difficulty").click()
        if system == "personae":
            grant = gm.locator(f"{slot} form.live-pool-grant")
            grant.locator("[name='grant_bonus_dice-dice']").fill("2")
            with gm.expect_response(lambda r: "/table/act/grant_bonus_dice/" in r.url):
                grant.get_by_role("button", name="Grant bonus dice").click()


def _alice_sees_it(alice: Page, builder: str, system: str) -> None:
    seen = {
        "serenity": (".gm-additions", "d6 Winged"),
        "smallville": (".gm-additions", "d8 Kryptonite"),
        "personae": (".bonus-dice", "2"),
        "unisystem": (".from-table.difficulty", "Easy"),
    }
    if system == "cortex_slots":  # the GM pool's result is the number her odds are against
        target = alice.locator(f"{builder} [name=target]")
        expect(target).to_have_attribute("placeholder", re.compile(r"^\d+$"))
    else:
        where, text = seen[system]
        expect(alice.locator(f"{builder} {where}")).to_contain_text(text)


def _the_roll_includes_it(logged: dict, system: str) -> None:
    request, outcome = logged["request"], logged["outcome"]
    if system == "serenity":
        assert any(e.get("trait") == "Winged" for e in request["pool"]), request
    elif system == "smallville":
        limit = [d for d in outcome["dice"] if d.get("trait") == "Kryptonite"]
        assert len(limit) == 3, outcome["dice"]  # SMV-5: three dice of the Limit's size
    elif system == "cortex_slots":
        assert isinstance(outcome.get("difficulty"), int), outcome
    elif system == "personae":
        assert request["actor"]["bonus_dice"] == 2 and request["difficulty"] == 9, request
    else:
        assert request.get("difficulty_modifier") is not None or "difficulty" in request, request


@pytest.mark.parametrize("player_on", ("phone", "laptop"))
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_gm_adds_to_a_pool_in_progress_and_the_roll_takes_it(
    daphne_server, campaigns, logged_in, system, player_on
):
    """The GM adds to a player's pool in progress: the other side's complication (SER-1),
    the opponent's Limit (SMV-5), the difficulty pool (CTX-1), difficulty and bonus dice
    (PER-1), the difficulty (UNI-4); the logged roll takes it."""
    seeded = campaigns[f"{system}-{player_on}"]
    url = f"{daphne_server.url}/c/{seeded['id']}/table/"
    alice = logged_in["alice", player_on]
    gm = logged_in["gm", "laptop" if player_on == "phone" else "phone"]
    _open(gm, url, "The table")
    _open(alice, url, None)
    builder, slot = f"#builder-{seeded['sheet']}", f"#live-pool-{seeded['sheet']}"

    for name in TYPICAL[system]:
        if not SELECTED.search(_trait(alice, builder, name).get_attribute("class") or ""):
            _click(alice, builder, name)
    if system == "personae":
        _fill(alice, builder, "goal", "Disarm the duelist")
    expect(gm.locator(slot)).to_contain_text("Ace:")
    expect(gm.locator(slot)).to_contain_text(TYPICAL[system][-1])

    _gm_adds(gm, slot, system)
    _alice_sees_it(alice, builder, system)
    seq = _roll(alice, builder)
    expect(gm.locator(f"#event-{seq}")).to_be_attached()
    logged = daphne_server.seed(LOGGED, str(seeded["id"]), str(seeded["sheet"]))
    _the_roll_includes_it(logged, system)
