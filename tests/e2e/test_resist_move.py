"""UNI-5 from the card at 390 px (issue #27, 5): Bob resists Alice's task in two taps
("Resist with…", then one of his character's choices); only his side rolls, against
the card's total; Alice sees no "Resist with…" on her own roll. Focus stays on the
button tapped."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in
from .test_card_moves import FIXED_FACES, FOCUSED_TEXT, PHONE, Taps, _on_log
from .test_table_play import SEED_PRELUDE

pytestmark = pytest.mark.e2e

UNISYSTEM = (
    SEED_PRELUDE
    + r"""
c = services.create_campaign(users["gm"], name="E2E resist", description="", system="unisystem")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
Membership.objects.create(campaign=c, user=users["bob"], role="player")
sheets = {}
for p, hero in (("alice", "Ace"), ("bob", "Bo")):
    s = create_sheet(c, name=hero, kind="pc", owner=users[p],
                     counters={"life_points": 26, "drama_points": 10})
    Trait.objects.filter(sheet=s).delete()
    for name, rating in (("Strength", 2), ("Dexterity", 3), ("Perception", 3)):
        t(s, "attributes", name, rating=rating)
    t(s, "skills", "Kung Fu", rating=2)
    t(s, "skills", "Dodge", rating=3)
    sheets[p] = s
scene = services.create_scene(c, title="Rooftop", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
roll = perform("alice", "task", {"kind": "task", "attribute_name": "Dexterity",
                                  "skill_name": "Kung Fu"}, faces=(7,), sheet_id=sheets["alice"].pk)
print(json.dumps({"id": c.pk, "seq": roll.seq, "total": roll.outcome["total"]}))
"""
)


def test_a_cast_member_resists_another_s_roll_in_two_taps(chromium, daphne_server):
    """UNI-5: "Resist with…" on Ace's card, then "Dexterity + Dodge": Bo's roll against 12."""
    seeded = daphne_server.seed(UNISYSTEM)
    assert seeded["total"] == 12
    alice = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    bob = log_in(chromium, daphne_server, "bob", viewport=PHONE)
    for page in (alice, bob):
        page.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
        _on_log(page)
    # Alice does not resist her own roll.
    expect(alice.locator(f"#event-{seeded['seq']}")).to_be_visible()
    expect(alice.locator(f"#event-{seeded['seq']} .card-moves")).to_be_hidden()
    card = bob.locator(f"#event-{seeded['seq']}")
    taps = Taps()
    taps.tap(card.locator("summary", has_text="Resist with"))
    choice = card.get_by_role("button", name="Dexterity + Dodge")
    expect(choice).to_be_visible()
    taps.tap(choice)
    resisted = bob.locator("#log .roll-card").first
    expect(resisted).to_contain_text("Resisted action")
    expect(resisted).to_contain_text("12")
    expect(bob.locator("#table-notice")).to_contain_text("against")
    expect(alice.locator("#log .roll-card").first).to_contain_text("Resisted action")
    assert taps.count == 2, f"the resisted action took {taps.count} taps"
    assert bob.evaluate(FOCUSED_TEXT).startswith("Dexterity + Dodge")
    assert bob.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    alice.context.close()
    bob.context.close()
