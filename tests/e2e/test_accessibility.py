"""Every page, for a visitor, a player and the GM, in the light and the dark theme, at a
phone's size (390 × 844) and a laptop's (1366 × 900): axe-core finds no serious or
critical violation (issue #27, 9). The table is checked with a card in its log, the
Display settings open and the shortcuts' help open too; test_accessibility_games.py
checks every game's table with a voided, a sealed and a revealed card."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .axe import describe, install_axe, serious_violations
from .conftest import log_in, open_page

pytestmark = [pytest.mark.e2e, pytest.mark.axe]

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
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
c = services.create_campaign(gm, name="Axe Serenity", description="", system="serenity")
Membership.objects.create(campaign=c, user=alice, role="player")
s = create_sheet(c, name="Ace", kind="pc", owner=alice, counters={"plot_points": 2})
f = Trait.objects.create(sheet=s, group="stylins", name="Fightin'", die=12)
Trait.objects.create(sheet=s, group="refinements", name="Brawler", die=10, parent=f)
Trait.objects.create(sheet=s, group="assets", name="Pistol", die=8)
npc = create_sheet(c, name="Hidden boss", kind="npc", counters={"plot_points": 2})
npc.hidden = True
npc.save()
Trait.objects.create(sheet=npc, group="stylins", name="Fightin'", die=8)
scene = services.create_scene(c, title="Axe scene", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk, "sheet": s.pk, "npc": npc.pk}))
"""

SIZES = {"phone": (390, 844), "laptop": (1366, 900)}
VISITOR_PAGES = (
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/rules/",
    "/rules/serenity/",
    "/rules/serenity/start/?back=/campaigns/",
)
PLAYER_PAGES = (
    "/",
    "/campaigns/",
    "/c/{id}/",
    "/c/{id}/sheets/",
    "/c/{id}/sheets/{sheet}/",
    "/c/{id}/sheets/{sheet}/guide/1/",
    "/c/{id}/sheets/new/",
    "/c/{id}/table/",
    "/accounts/profile/",
)
GM_PAGES = (
    "/c/{id}/",
    "/c/{id}/edit/",
    "/c/{id}/members/",
    "/c/{id}/scenes/",
    "/c/{id}/sheets/",
    "/c/{id}/sheets/new/",
    "/c/{id}/sheets/{npc}/",
    "/c/{id}/integrations/",
    "/c/{id}/api-tokens/",
    "/campaigns/new/",
    "/c/{id}/table/",
)


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)


def _check(page, server, paths, campaign, label, found) -> None:
    for path in paths:
        url = server.url + path.format(**campaign)
        answer = page.goto(url)
        assert answer is not None and answer.status == 200, f"{url}: {answer and answer.status}"
        if path.endswith("/table/"):
            expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
        violations = serious_violations(page)
        if violations:
            found[f"{label} {path}"] = violations


def _roll_once(page, campaign) -> None:
    builder = f"#builder-{campaign['sheet']}"
    for name in ("Fightin'", "Brawler"):
        label = page.locator(f"{builder} label.trait-choice", has_text=name).first
        with page.expect_response(lambda r: r.request.method == "POST" and "/pool/" in r.url):
            label.click()
    button = page.locator(f"{builder} .pool-roll button[type=submit]")
    expect(button).to_be_enabled()
    cards = page.locator("#log > li[data-seq]")
    before = cards.count()
    button.click()
    expect(cards).to_have_count(before + 1)  # on a phone, on the Log tab


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation_on_any_page(chromium, daphne_server, campaign, scheme, size):
    found: dict[str, list[dict]] = {}
    viewport = SIZES[size]

    visitor = open_page(chromium, f"visitor-{scheme}", viewport)
    install_axe(visitor)
    visitor.emulate_media(color_scheme=scheme)
    _check(visitor, daphne_server, VISITOR_PAGES, campaign, "visitor", found)
    visitor.context.close()

    alice = log_in(chromium, daphne_server, "alice", viewport)
    install_axe(alice)
    alice.emulate_media(color_scheme=scheme)
    alice.goto(f"{daphne_server.url}/c/{campaign['id']}/table/")
    expect(alice.locator("html")).to_have_attribute("data-theme", scheme)
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    _roll_once(alice, campaign)
    _check(alice, daphne_server, PLAYER_PAGES, campaign, "player", found)

    # The table with the Display settings and the shortcuts' help open.
    alice.goto(f"{daphne_server.url}/c/{campaign['id']}/table/")
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    alice.locator(".display-settings > summary").click()
    if violations := serious_violations(alice):
        found["player table, Display open"] = violations
    alice.keyboard.press("Escape")
    alice.locator("body").click(position={"x": 1, "y": 300})
    alice.keyboard.press("?")
    expect(alice.locator("#shortcuts-dialog")).to_be_visible()
    if violations := serious_violations(alice):
        found["player table, shortcuts open"] = violations
    alice.context.close()

    gm = log_in(chromium, daphne_server, "gm", viewport)
    install_axe(gm)
    gm.emulate_media(color_scheme=scheme)
    _check(gm, daphne_server, GM_PAGES, campaign, "GM", found)
    gm.context.close()

    assert not found, f"axe-core, {scheme} theme, {size}:\n" + describe(found)
