"""SMV-9 from the card at 390 px (issue #27, 5): against the Watchtower's 1, a player
pays one plot point to take a Trouble Pool die out in two taps ("Remove a Trouble Pool
die…" on her card, then the payment). Focus stays on the button tapped."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in
from .test_card_moves import FIXED_FACES, FOCUSED_TEXT, PHONE, Taps, _on_log
from .test_table_play import SEED_PRELUDE

pytestmark = pytest.mark.e2e

SMALLVILLE = (
    SEED_PRELUDE
    + r"""
c = services.create_campaign(users["gm"], name="E2E trouble", description="", system="smallville")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
ace = create_sheet(c, name="Ace", kind="pc", owner=users["alice"], counters={"plot_points": 2})
scene = services.create_scene(c, title="Barn", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
perform("gm", "trouble", {"operation": "add", "ones": 2})
pool = [{"die": "d6", "trait": "Storm", "group": "situation"},
        {"die": "d8", "trait": "Goons", "group": "situation"}]
roll = perform("gm", "roll", {"pool": pool}, faces=(5, 1))
print(json.dumps({"id": c.pk, "seq": roll.seq}))
"""
)


def test_smv9_a_player_removes_a_trouble_die_in_two_taps(chromium, daphne_server):
    """SMV-9: "Remove a Trouble Pool die…" on the Watchtower's card, then pay."""
    seeded = daphne_server.seed(SMALLVILLE)
    alice = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    alice.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    _on_log(alice)
    card = alice.locator(f"#event-{seeded['seq']}")
    taps = Taps()
    taps.tap(card.locator("summary", has_text="Remove a Trouble Pool die"))
    choice = card.get_by_role("button", name="Pay 1 plot point: remove a Trouble Pool die")
    expect(choice).to_be_visible()
    taps.tap(choice)
    paid = alice.locator(f"#event-{seeded['seq'] + 1}")
    expect(paid).to_contain_text("Ace")
    expect(paid).to_contain_text("d8")
    assert taps.count == 2, f"removing the die took {taps.count} taps"
    assert alice.evaluate(FOCUSED_TEXT).startswith("Pay 1 plot point")
    assert alice.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    alice.context.close()
