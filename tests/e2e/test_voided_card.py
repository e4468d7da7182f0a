"""A voided card is still read: it looks struck out but keeps the palette's contrast (no
opacity over the whole card). Checked with axe-core on the log of a player and the GM, in
the light and the dark theme, at phone and laptop sizes, with a voided, a sealed and a
revealed card in the log."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .axe import describe, install_axe, serious_violations
from .conftest import log_in

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
from table import actions

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
c = services.create_campaign(gm, name="Voided", description="", system="serenity")
Membership.objects.create(campaign=c, user=alice, role="player")
s = create_sheet(c, name="Ace", kind="pc", owner=alice, counters={"plot_points": 2})
Trait.objects.create(sheet=s, group="stylins", name="Fightin'", die=12)
scene = services.create_scene(c, title="Struck out", description="")
services.start_scene(c, scene.pk)
pool = [{"die": "d12", "group": "stylins", "trait": "Fightin'"}]
struck = actions.perform(c, alice, "roll", {"pool": pool}, sheet_id=s.pk)
actions.void(c, gm, struck.pk, "Rolled the wrong pool")
actions.perform(c, gm, "roll", {"pool": [{"die": "d8", "group": "situation", "trait": "Guards"}]},
                visibility="gm")
shown = actions.perform(c, gm, "roll", {"pool": [{"die": "d6", "group": "situation", "trait": "Dog"}]},
                        visibility="gm")
actions.reveal(c, gm, shown.pk)
print(json.dumps({"id": c.pk, "struck": struck.seq}))
"""

SIZES = {"phone": (390, 844), "laptop": (1366, 900)}


@pytest.fixture(scope="module")
def campaign(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_voided_card_keeps_its_contrast(chromium, daphne_server, campaign, scheme, size):
    found = {}
    for user in ("alice", "gm"):
        page = log_in(chromium, daphne_server, user, viewport=SIZES[size])
        install_axe(page)
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{daphne_server.url}/c/{campaign['id']}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
        card = page.locator(f"#log > li[data-seq='{campaign['struck']}'] .table-event")
        expect(card).to_contain_text("Voided")
        assert card.evaluate("el => getComputedStyle(el).opacity") == "1"
        headline = card.locator(".headline").first
        assert "line-through" in headline.evaluate("el => getComputedStyle(el).textDecorationLine")
        if violations := serious_violations(page):
            found[f"{user} {size}"] = violations
        page.context.close()
    assert not found, f"axe-core, {scheme} theme:\n" + describe(found)
