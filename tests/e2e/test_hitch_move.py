"""CTX-4, CTX-7 from the card at 390 px (issue #27, 5): a player buys a hitch of the
GM's roll in two taps ("Buy the GM's hitch…", then the hitch), for one plot point.
Focus stays on the button tapped."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in
from .test_card_moves import FIXED_FACES, FOCUSED_TEXT, PHONE, Taps, _on_log
from .test_table_play import SEED_PRELUDE

pytestmark = pytest.mark.e2e

CORTEX = (
    SEED_PRELUDE
    + r"""
c = services.create_campaign(users["gm"], name="E2E hitch", description="", system="cortex_slots")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
ace = create_sheet(c, name="Ace", kind="pc", owner=users["alice"], counters={"plot_points": 2})
scene = services.create_scene(c, title="Docks", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
roll = perform("gm", "gm_pool", {"pool": ["d8", "d6", "d6"]}, faces=(1, 6, 4))
print(json.dumps({"id": c.pk, "seq": roll.seq, "sheet": ace.pk}))
"""
)


def test_ctx4_a_player_buys_the_gms_hitch_in_two_taps(chromium, daphne_server):
    """CTX-4, CTX-7: "Buy the GM's hitch…" on the GM's card, then "Buy d8 d8"."""
    seeded = daphne_server.seed(CORTEX)
    alice = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    alice.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    _on_log(alice)
    card = alice.locator(f"#event-{seeded['seq']}")
    taps = Taps()
    taps.tap(card.locator("summary", has_text="Buy the GM's hitch"))
    choice = card.get_by_role("button", name="Buy d8 d8 (1 plot point)")
    expect(choice).to_be_visible()
    taps.tap(choice)
    bought = alice.locator(f"#event-{seeded['seq'] + 1}")
    expect(bought).to_contain_text("Ace")
    expect(bought).to_contain_text("hitch")
    assert taps.count == 2, f"buying the hitch took {taps.count} taps"
    assert alice.evaluate(FOCUSED_TEXT).startswith("Buy d8 d8")
    assert alice.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    alice.context.close()
    # The GM's page shows the roll with the GM's tools, never the players' move on it.
    gm = log_in(chromium, daphne_server, "gm")
    gm.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
    expect(gm.locator("#socket-status")).to_have_attribute("data-state", "live")
    expect(gm.locator(f"#event-{seeded['seq']} .gm-card-menu")).to_be_attached()
    expect(gm.locator(f"#event-{seeded['seq']}").get_by_text("Buy the GM's hitch")).to_be_hidden()
    gm.context.close()
