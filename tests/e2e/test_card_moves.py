"""The common moves of each game, one or two taps from the card (issue #27, 5), at
390 px: a Cortex roller moves a banked die into the Total (two taps: the Bank's dice,
then the die), a Personae actor steers a failed challenge with a critical and ends it
(one tap each), and in a Serenity Plus or Smallville contest the side whose turn it
is rolls back with the pool it rolled last (one tap) while the other side sees no
such button. Each test counts the taps it makes from the card or the contest box."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from .conftest import EXPECT_TIMEOUT_MS, log_in
from .test_table_play import SEED_PRELUDE, _trait

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
FOCUSED_TEXT = "() => (document.activeElement && document.activeElement.textContent || '').trim()"

# A player's roll made with known faces: the seed script draws them, as the table would.
FIXED_FACES = r"""
import random
from table.writing import actions as table_actions

class Faces(random.Random):
    def __init__(self, faces):
        super().__init__(0)
        self.queue = list(faces)

    def randint(self, a, b):
        return self.queue.pop(0) if self.queue else b

def perform(user, action, request, faces=(), **kw):
    table_actions.RNG = Faces(faces)
    return table_actions.perform(c, users[user], action, request, **kw)
"""

CORTEX = (
    SEED_PRELUDE
    + r"""
c = services.create_campaign(users["gm"], name="E2E moves cortex", description="", system="cortex_slots")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
Membership.objects.create(campaign=c, user=users["bob"], role="player")
ace = create_sheet(c, name="Ace", kind="pc", owner=users["alice"], counters={"plot_points": 2})
bo = create_sheet(c, name="Bo", kind="pc", owner=users["bob"], counters={"plot_points": 2})
for s in (ace, bo):
    t(s, "attributes", "Agility", die=8)
    t(s, "distinctions", "Ex-Marine", die=8)
    t(s, "skills", "Shoot", die=10)
    t(s, "assets", "Sniper Rifle", die=8)
scene = services.create_scene(c, title="Docks", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
pool = [{"die": "d8", "trait": n, "group": g} for n, g in
        (("Agility", "attributes"), ("Ex-Marine", "distinctions"), ("Shoot", "skills"),
         ("Sniper Rifle", "assets"))]
roll = perform("alice", "roll", {"pool": pool}, faces=(6, 2, 8, 7), sheet_id=ace.pk)
banked = [d for d in roll.outcome["dice"] if d["role"] == "bank"]
print(json.dumps({"id": c.pk, "seq": roll.seq, "banked": banked[0]["trait"], "total": roll.outcome["total"]}))
"""
)

PERSONAE = (
    SEED_PRELUDE
    + r"""
c = services.create_campaign(users["gm"], name="E2E moves personae", description="", system="personae")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
ace = create_sheet(c, name="Ace", kind="pc", owner=users["alice"],
                   counters={"potential_threshold": 3, "criticals": 1})
might = t(ace, "attributes", "Might", rating=4)
t(ace, "skills", "Climbing", rating=3, link=might)
scene = services.create_scene(c, title="Cliff", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
perform("gm", "set_difficulty", {"difficulty": 50})
roll = perform("alice", "challenge", {"actor": {"skill_name": "Climbing"}, "goal": "Reach the top"},
               faces=(3, 2, 2), sheet_id=ace.pk)
print(json.dumps({"id": c.pk, "seq": roll.seq, "result": roll.outcome["result"]}))
"""
)

CONTEST = (
    SEED_PRELUDE
    + r"""
import sys
system = sys.argv[1]
c = services.create_campaign(users["gm"], name=f"E2E moves {system}", description="", system=system)
sheets = {}
for p, hero in (("alice", "Ace"), ("bob", "Bo")):
    Membership.objects.create(campaign=c, user=users[p], role="player")
    s = create_sheet(c, name=hero, kind="pc", owner=users[p], counters={"plot_points": 2})
    if system == "serenity":
        t(s, "stylins", "Fightin'", die=10)
        t(s, "assets", "Pistol", die=8)
    else:
        Trait.objects.filter(sheet=s, group="values").delete()  # the template's Values
        t(s, "values", "Justice", die=8)
        t(s, "relationships", "Lana", die=6)
    sheets[p] = s.pk
scene = services.create_scene(c, title="Standoff", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk, "sheets": sheets}))
"""
)

OPEN_CONTEST = (
    SEED_PRELUDE
    + FIXED_FACES
    + r"""
import sys
from campaigns.models import Campaign
c = Campaign.objects.get(pk=int(sys.argv[1]))
ace, bo = int(sys.argv[2]), int(sys.argv[3])
perform("gm", "contest_start", {"sides": [{"sheet_id": ace, "goal": "Keep the cargo"},
                                          {"sheet_id": bo, "goal": "Take it"}], "first": 0})
names = ("Fightin'", "stylins", "Pistol", "assets") if c.system == "serenity" else (
    "Justice", "values", "Lana", "relationships")
pool = [{"die": "d8", "trait": names[0], "group": names[1]},
        {"die": "d6", "trait": names[2], "group": names[3]}]
perform("alice", "contest_roll", {"pool": pool}, faces=(2, 1), sheet_id=ace)
print(json.dumps({"ok": True}))
"""
)


def _until_held(page: Page, held: dict, key: str) -> None:
    """Wait until the request is caught at the network (the page sends it at once)."""
    deadline = time.monotonic() + EXPECT_TIMEOUT_MS / 1000
    while key not in held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert key in held, f"the {key} sent no request"


class Taps:
    """Each tap the player makes, counted."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, locator) -> None:
        locator.click()
        self.count += 1


def _on_log(page: Page) -> None:
    """On a phone the log is a tab: the player looks at it (not counted: the card is
    where the moves start)."""
    tab = page.locator("#tab-log")
    if tab.is_visible():
        tab.click()


def test_a_cortex_banked_die_joins_the_total_in_two_taps(chromium, daphne_server):
    """CTX-3: the roller taps the Bank on the card, then the die, for one plot point."""
    seeded = daphne_server.seed(CORTEX)
    alice = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    bob = log_in(chromium, daphne_server, "bob", viewport=PHONE)
    gm = log_in(chromium, daphne_server, "gm")
    for page in (alice, bob, gm):
        page.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    for page in (alice, bob):
        _on_log(page)
    card = alice.locator(f"#event-{seeded['seq']}")
    # Bob sees Ace's roll, not Ace's moves; the GM sees both.
    expect(bob.locator(f"#event-{seeded['seq']}")).to_be_visible()
    expect(bob.locator(f"#event-{seeded['seq']} .card-moves")).to_be_hidden()
    expect(gm.locator(f"#event-{seeded['seq']} .card-moves")).to_be_visible()
    gm.context.close()
    taps = Taps()
    taps.tap(card.locator("summary", has_text="Spend a plot point: a die from the Bank"))
    choice = card.locator(".move-choices li", has_text=seeded["banked"])
    taps.tap(choice.get_by_role("button", name="Add to the total"))
    moved = alice.locator("#log .roll-card").first
    expect(moved).to_contain_text("Bank move")
    expect(moved).to_contain_text(f"{seeded['total']} →")
    expect(alice.locator("#table-notice")).to_contain_text("Bank move")
    expect(bob.locator("#log .roll-card").first).to_contain_text("Bank move")
    assert taps.count == 2, f"the Bank move took {taps.count} taps"
    # The answer and the new card leave the player's place where it was.
    assert alice.evaluate(FOCUSED_TEXT) == "Add to the total"
    assert alice.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    alice.context.close()
    bob.context.close()


def test_a_personae_failure_is_steered_and_ended_in_one_tap_each(chromium, daphne_server):
    """PER-6: a banked critical steers the failure on the card; PER-9: the challenge is
    over, in one tap."""
    seeded = daphne_server.seed(PERSONAE)
    assert seeded["result"] == "failure"
    alice = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    alice.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    _on_log(alice)
    card = alice.locator(f"#event-{seeded['seq']}")
    taps = Taps()
    taps.tap(card.get_by_role("button", name=re.compile("Spend a critical")))
    expect(alice.locator("#log .roll-card").first).to_contain_text("Glancing success")
    assert taps.count == 1
    # By keyboard: the button takes Enter, and the new card leaves the focus on it.
    over = card.get_by_role("button", name=re.compile("The challenge is over"))
    over.focus()
    alice.keyboard.press("Enter")
    taps.count += 1
    expect(alice.locator("#log .roll-card").first).to_contain_text("Challenge over")
    assert taps.count == 2
    assert alice.evaluate(FOCUSED_TEXT).startswith("The challenge is over")
    alice.context.close()


@pytest.mark.parametrize("system", ["serenity", "smallville"])
def test_the_side_whose_turn_it_is_rolls_back_in_one_tap(chromium, daphne_server, system):
    seeded = daphne_server.seed(CONTEST, system)
    alice = log_in(chromium, daphne_server, "alice", viewport=PHONE)
    bob = log_in(chromium, daphne_server, "bob", viewport=PHONE)
    for page in (alice, bob):
        page.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    # Bob rolled this pool before (its Again): pick and Roll, before the contest.
    builder = f"#builder-{seeded['sheets']['bob']}"
    first, second = ("Fightin'", "Pistol") if system == "serenity" else ("Justice", "Lana")
    for name in (first, second):
        with bob.expect_response(lambda r: r.request.method == "POST" and "/table/pool/" in r.url):
            _trait(bob, builder, name).click()
    roll = bob.locator(f"{builder} .pool-roll button[type=submit]")
    expect(roll).to_be_enabled()
    with bob.expect_response(lambda r: r.url.endswith("/roll/")):
        roll.click()
    expect(bob.locator(f"{builder} .pool-status")).to_contain_text("Rolled")
    s = seeded["sheets"]
    daphne_server.seed(OPEN_CONTEST, str(seeded["id"]), str(s["alice"]), str(s["bob"]))
    for page in (alice, bob):  # what a seed script does reaches no socket: load again
        page.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
        if page.locator("#tab-table").is_visible():
            page.locator("#tab-table").click()
        expect(page.locator(".contest")).to_contain_text("Bo’s turn")
    expect(alice.locator(".contest-moves")).to_have_count(0)
    taps = Taps()
    taps.tap(bob.locator(".contest-moves").get_by_role("button", name=re.compile("^Roll back")))
    # Bo's roll is the contest's (it beat Ace's 2, or failed and the contest is decided).
    expect(bob.locator("#log .roll-card").first).to_contain_text("Bo")
    expect(bob.locator("#log .roll-card").first).to_contain_text("contest")
    expect(bob.locator(".contest-moves")).to_have_count(0)
    assert taps.count == 1
    assert bob.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    alice.context.close()
    bob.context.close()


def test_a_move_answered_after_an_older_builder_refresh_still_shows(chromium, daphne_server):
    """Builder answers can cross (static/js/table.js): Bo ticks a trait (its refresh is
    held at the network), then rolls back from the contest box; the tick's older answer
    comes first and must not take the builder the roll's answer is for, so "Rolled"
    shows. Both answers are held back at the network, so the race is the same every run."""
    seeded = daphne_server.seed(CONTEST, "serenity")
    bob = log_in(chromium, daphne_server, "bob", viewport=(1366, 900))
    bob.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
    expect(bob.locator("#socket-status")).to_have_attribute("data-state", "live")
    builder = f"#builder-{seeded['sheets']['bob']}"
    for name in ("Fightin'", "Pistol"):
        with bob.expect_response(lambda r: r.request.method == "POST" and "/table/pool/" in r.url):
            _trait(bob, builder, name).click()
    with bob.expect_response(lambda r: r.url.endswith("/roll/")):
        bob.locator(f"{builder} .pool-roll button[type=submit]").click()
    s = seeded["sheets"]
    daphne_server.seed(OPEN_CONTEST, str(seeded["id"]), str(s["alice"]), str(s["bob"]))
    bob.goto(f"{daphne_server.url}/c/{seeded['id']}/table/")
    expect(bob.locator("#socket-status")).to_have_attribute("data-state", "live")
    held: dict[str, object] = {}

    def hold(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        held["roll" if route.request.url.endswith("/roll/") else "tick"] = route

    pattern = re.compile(r"/table/pool/\d+/(roll/)?$")
    bob.route(pattern, hold)
    _trait(bob, builder, "Fightin'").click()
    _until_held(bob, held, "tick")
    bob.locator(".contest-moves").get_by_role("button", name=re.compile("^Roll back")).click()
    _until_held(bob, held, "roll")
    with bob.expect_response(lambda r: "/table/pool/" in r.url and not r.url.endswith("/roll/")):
        held["tick"].continue_()
    with bob.expect_response(lambda r: r.url.endswith("/roll/")):
        held["roll"].continue_()
    expect(bob.locator(f"{builder} .pool-status")).to_contain_text("Rolled")
    bob.unroute(pattern)
    bob.context.close()
