"""Issue #27's play surface, walked once per game and screen size: a phone (390 × 844) and
a laptop (1366 × 900), in each of the five systems, with one page for a player (Alice)
and one for the GM at that size. What the builder, the tray, the log and the dashboard
show differs by game and by size, so each point is played in all ten:

- the phone's table page does not shift once painted, for the player and the GM (layout
  shift under 0.1);
- (3) a roll by keyboard only: `p`, Tab and Space on each trait of the game's typical
  pool and `r` (Personae: Tab on from the goal to Roll, and Enter), a dozen keys at most
  (a goal's letters aside); after each tick the builder re-renders and the focus stays
  on the trait ticked. Tab from the last pick reaches Roll through controls in sight:
  none in the closed tray, none under it;
- (4) Personae (PER-9): Roll comes while the goal is typed, with no blur, goes when the
  goal is emptied, and a click on Roll straight from the goal is a roll;
- (6) the roll clears the pool, so a second press of Roll rolls nothing; the GM's "Pools
  being built" drops it at once and does not list it again when the player's builder next
  re-renders; Again brings it back in one tap;
- (1) on the phone the tray is compact, one line and the Roll row, and every trait above
  it can be tapped; opened or closed by the player it stays so across re-renders. On the
  laptop there is no tray: the odds are shown;
- (2) the newest card and the chat line are on the first screen of the Log tab (of the
  log column on a laptop), for the player and the GM; `c` brings the chat line into sight
  below the phone's sticky tabs;
- (7) the GM gives every player character one of the game's points in one step: one card,
  and the player's count goes up.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in, wait_until
from .test_play_surface import LAPTOP, PHONE, SYSTEMS, TYPICAL
from .test_table_play import SEED_PRELUDE, SELECTED, _click, _fill, _is_builder_post, _roll, _trait

pytestmark = pytest.mark.e2e

SIZES = {"phone": PHONE, "laptop": LAPTOP}
LIVE = re.compile(r"\bis-live\b")
AT_ONCE_MS = 2000  # the GM's list drops a rolled pool with its card, not when it expires (120 s)
MOST_KEYS = 12  # "about a dozen"
GOAL = "Disarm the duelist"
# The game's points as the GM gives them: the counter and its name for one.
POINTS = {
    "serenity": ("plot_points", "plot point"),
    "cortex_slots": ("plot_points", "plot point"),
    "smallville": ("plot_points", "plot point"),
    "personae": ("criticals", "critical"),
    "unisystem": ("drama_points", "Drama Point"),
}
# The typical pool's last trait on the page: ticked off and on again with the tray open,
# then closed (no other pick needs it; a Personae skill brings its attribute).
LAST_PICK = {system: TYPICAL[system][-1] for system in SYSTEMS} | {"personae": "Swordplay"}

SETUP = (
    SEED_PRELUDE
    + r"""
from table.writing import actions

out = {}
for system in ("serenity", "cortex_slots", "smallville", "personae", "unisystem"):
    for size in ("phone", "laptop"):
        c = services.create_campaign(users["gm"], name=f"Walk {system} {size}", description="", system=system)
        for p in ("alice", "bob"):
            Membership.objects.create(campaign=c, user=users[p], role="player")
        # Personae banks a critical per natural 10, up to the Potential Threshold: room for one more.
        counters = {"plot_points": 2, "drama_points": 2, "potential_threshold": 10}
        sheets = {}
        for p, hero in (("alice", "Ace"), ("bob", "Bo")):
            s = create_sheet(c, name=hero, kind="pc", owner=users[p], counters=counters)
            sheets[p] = s.pk
            if system == "serenity":
                f = t(s, "stylins", "Fightin'", 12); t(s, "stylins", "Finaglin'", 6)
                t(s, "refinements", "Brawler", 10, parent=f); t(s, "values", "Loyalty", 8)
                t(s, "assets", "Pistol", 12)
            elif system == "cortex_slots":
                t(s, "attributes", "Agility", 8); t(s, "distinctions", "Ex-Marine", 8)
                t(s, "skills", "Shoot", 10); t(s, "assets", "Rifle", 6)
            elif system == "smallville":
                rate(s, "values", "Justice", die=10)
                t(s, "relationships", "Lana", 8); t(s, "abilities", "Super-speed", 12)
            elif system == "personae":
                m = t(s, "attributes", "Might", rating=4); t(s, "skills", "Swordplay", rating=3, link=m)
            elif system == "unisystem":
                rate(s, "attributes", "Dexterity", rating=4); t(s, "skills", "Gun Fu", rating=3)
        create_sheet(c, name="Thugs", kind="npc", counters=counters)  # no point for the GM's side
        scene = services.create_scene(c, title=f"{system} scene", description="")
        services.start_scene(c, scene.pk)
        if system == "personae":  # PER-1: a challenge without a reactor beats the GM's number
            actions.perform(c, users["gm"], "set_difficulty", {"difficulty": 9})
        out[f"{system}-{size}"] = {"id": c.pk, "sheets": sheets}
print(json.dumps(out))
"""
)

# Every shift since navigation that Chrome's cumulative layout shift counts (not those
# right after the user's own input), read after a short look at the settled page.
LAYOUT_SHIFT = """() => new Promise((resolve) => {
  let total = 0;
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) { continue; }
      total += entry.value;
      shifts.push(entry.value.toFixed(3) + " " + entry.sources.map(
        (s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?").join(","));
    }
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => resolve({ total, shifts }), 500);
})"""

# In sight on the first screen, and what a tap there lands on (nothing sticky over it); a
# control scrolled to the top edge may stand a fraction of a pixel above it.
IN_SIGHT = """([selector, height]) => {
  const el = document.querySelector(selector);
  const box = el.getBoundingClientRect();
  const x = box.left + Math.min(box.width / 2, 40), y = box.top + Math.min(box.height / 2, 20);
  const hit = document.elementFromPoint(x, y);
  return { top: box.top, bottom: box.bottom,
           shown: box.top > -1 && y < height && !!hit && (hit === el || el.contains(hit)) };
}"""

# A label is what a tap at its centre lands on, once scrolled to the middle of the screen.
TAPPABLE = """(label) => {
  label.scrollIntoView({ block: "center" });
  const box = label.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !!hit && (hit === label || label.contains(hit));
}"""

FOCUSED = """() => { const e = document.activeElement;
  return e ? `${e.tagName} ${e.name || ''} ${e.value || ''}` : ''; }"""

# The focused control is what is at its centre on the screen.
FOCUS_IN_SIGHT = """() => {
  const el = document.activeElement;
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const label = el.closest("label");
  return { what: `${el.tagName} ${el.name || ""} ${el.textContent.trim().slice(0, 30)}`,
           shown: box.width > 1 && box.height > 1 && !!hit
             && (hit === el || el.contains(hit) || (!!label && label.contains(hit))) };
}"""

FOCUSED_TRAIT = """() => {
  const el = document.activeElement;
  const label = el && el.closest("label.trait-choice");
  return label ? label.querySelector(".trait-name").textContent.trim() : "";
}"""

# A key is pressed on a builder the player sees settled: not about to re-render
# (aria-busy), with no request of its own out.
SETTLED = """b => { const el = document.querySelector(b);
  return el && el.getAttribute('aria-busy') !== 'true' && !el.querySelector('.htmx-request')
    && !el.matches('.htmx-request'); }"""


@pytest.fixture(scope="module")
def tables(daphne_server):
    return daphne_server.seed(SETUP)


def _open(page: Page, server, campaign: int) -> None:
    page.goto(f"{server.url}/c/{campaign}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")


def _roll_button(builder: str) -> str:
    return f"{builder} .pool-roll button[type=submit]"


def _tab(page: Page, name: str) -> None:
    tab = page.get_by_role("tab", name=name)
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")


def _in_sight(page: Page, selector: str, height: int) -> dict:
    return page.evaluate(IN_SIGHT, [selector, height])


def _newest_seq(page: Page) -> int:
    return int(page.locator("#log > li[data-seq]").first.get_attribute("data-seq"))


def _keyboard_roll(
    page: Page, builder: str, system: str, size: str, watched: Callable[[], None]
) -> list[str]:
    """Roll the game's typical pool with the keyboard only: `p`, Tab and Space on each
    trait, and `r`, the builder's shortcut (Tab to Roll passes each game's pool options,
    six in Smallville). A Personae roll types its goal, and from there Tab goes on to
    Roll, and Enter (`r` is a letter in a field). Return the keys it took (a goal's
    letters aside) once the roll is answered; `watched` is called before the roll."""
    keys: list[str] = []

    def press(key: str) -> None:
        page.keyboard.press(key)
        keys.append(key if key != "Tab" else "Tab→" + page.evaluate(FOCUSED))

    def tab_to(expression: str) -> None:
        for _ in range(30):
            if page.evaluate(expression):
                return
            press("Tab")
        raise AssertionError(f"not reached with Tab: {expression}")

    page.locator("body").click(position={"x": 1, "y": 1})
    press("p")
    assert page.evaluate("b => !!document.activeElement.closest(b)", builder)
    for name in TYPICAL[system]:
        if SELECTED.search(_trait(page, builder, name).get_attribute("class") or ""):
            continue  # a Personae skill brought its attribute along
        tab_to(f"() => ({FOCUSED_TRAIT})() === {name!r}")
        before = page.evaluate(FOCUSED)
        wait_until(page, SETTLED, builder)
        with page.expect_response(_is_builder_post):
            press("Space")
        expect(_trait(page, builder, name)).to_have_class(SELECTED)
        wait_until(page, f"() => ({FOCUSED})() === {before!r}")  # the ticked trait's box
        if size == "phone":  # (1) the tray stays one line and the Roll row
            assert _tray_height(page, builder) < 0.25 * PHONE[1]
    roll = page.locator(_roll_button(builder))
    if system == "personae":
        tab_to("() => document.activeElement.name === 'goal'")
        _goal_comes_and_goes_as_typed(page, builder)
        tab_to(
            f"() => document.activeElement === document.querySelector({_roll_button(builder)!r})"
        )
        wait_until(page, SETTLED, builder)  # leaving the goal re-rendered the builder
        expect(roll).to_be_focused()
        last = "Enter"
    else:
        expect(roll).to_be_enabled()
        last = "r"
    watched()
    wait_until(page, SETTLED, builder)
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/roll/")):
        press(last)
    return keys


def _tab_to_roll(page: Page, builder: str, start: str) -> list[str]:
    """Tab from the trait `start` to Roll, as the README's keyboard roll does: every stop
    on the way is in sight (not in the closed tray, not under the sticky tray)."""
    wait_until(page, SETTLED, builder)
    _trait(page, builder, start).locator("input").focus()
    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS_IN_SIGHT)
        stops.append(stop["what"])
        assert stop["shown"], f"Tab stop {stop} is out of sight after {stops}"
        if page.evaluate(
            "b => document.activeElement === document.querySelector(b)", _roll_button(builder)
        ):
            return stops
    raise AssertionError(f"Roll not reached with Tab: {stops}")


def _goal_comes_and_goes_as_typed(page: Page, builder: str) -> None:
    """PER-9: a pool that waits only on its goal gets Roll while the goal is typed (the
    focus in the goal field)."""
    roll = page.locator(_roll_button(builder))
    waiting = page.locator(f"{builder} [data-cleared-by=goal]")  # the status, the tray's line
    expect(roll).to_be_disabled()
    expect(waiting).to_have_count(2)
    for line in waiting.all():
        expect(line).to_have_js_property("hidden", False)
    page.keyboard.type(GOAL)
    expect(roll).to_be_enabled()  # no blur, no pause: offered as the goal is typed
    for line in waiting.all():
        expect(line).to_have_js_property("hidden", True)
    assert page.evaluate("() => document.activeElement.name") == "goal"  # the focus stays
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Backspace")
    expect(roll).to_be_disabled()
    for line in waiting.all():
        expect(line).to_have_js_property("hidden", False)
    page.keyboard.type(GOAL)
    expect(roll).to_be_enabled()
    assert page.evaluate("() => document.activeElement.name") == "goal"


def _tray_height(page: Page, builder: str) -> float:
    return page.locator(f"{builder} .pool-tray").bounding_box()["height"]


def _untick(page: Page, builder: str, name: str) -> None:
    """Untick a trait, scrolled to where an open tray leaves it in sight."""
    label = _trait(page, builder, name)
    label.evaluate("l => { l.scrollIntoView({ block: 'start' }); window.scrollBy(0, -90); }")
    with page.expect_response(_is_builder_post):
        label.click()
    expect(label).not_to_have_class(SELECTED)


def _the_tray_stays_as_left(page: Page, builder: str, system: str) -> None:
    """(1) The phone's tray: compact unless opened; as the player left it across re-renders."""
    toggle = page.locator(f"{builder} .pool-tray-toggle")
    tray = page.locator(f"{builder} .pool-tray")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_contain_text(f"{len(TYPICAL[system])} picked")
    expect(tray.locator(".pool-roll button[type=submit]")).to_be_visible()
    # The status lines, the GM's additions and the odds: kept for screen readers, not shown.
    box = tray.locator(".pool-tray-body").bounding_box()
    assert box is None or box["height"] <= 1, f"the tray's body is shown: {box}"
    assert _tray_height(page, builder) < 0.25 * PHONE[1]
    for label in page.locator(f"{builder} label.trait-choice").all():
        assert label.evaluate(TAPPABLE), f"{label.inner_text()} is covered by the tray"

    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(tray.locator(".pool-odds")).to_be_visible()
    _untick(page, builder, LAST_PICK[system])  # the builder re-renders
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(tray.locator(".pool-odds")).to_be_visible()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    _click(page, builder, LAST_PICK[system])
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_contain_text(f"{len(TYPICAL[system])} picked")
    assert _tray_height(page, builder) < 0.25 * PHONE[1]


def _log_opens_on_the_newest_card_and_the_chat_line(
    page: Page, size: str, newest: int, shortcut: bool
) -> None:
    """(2) The first screen of the log shows its newest card and the chat line; `c`
    (`shortcut`) brings the chat line back into sight from further down."""
    height = SIZES[size][1]
    if size == "phone":
        _tab(page, "Log")
    expect(page.locator("#log > li[data-seq]").first).to_have_attribute("data-seq", str(newest))
    page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
    card = _in_sight(page, "#log > li[data-seq]", height)
    assert card["shown"] and card["top"] + 200 <= height, f"the newest card is at {card}"
    chat = _in_sight(page, "#chat-text", height)
    assert chat["shown"], f"the chat line is at {chat}"
    if shortcut:  # below a phone's sticky tabs
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        page.keyboard.press("c")
        expect(page.locator("#chat-text")).to_be_focused()
        chat = _in_sight(page, "#chat-text", height)
        assert chat["shown"], f"the chat line is under the tabs: {chat}"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_play_surface_of_each_game_at_each_size(chromium, daphne_server, tables, system, size):
    """Issue #27's points 1, 2, 3, 4, 6 and 7 and the phone's layout shift, in one pass
    (the module's docstring); PER-9 in Personae: Roll comes as the goal is typed."""
    table = tables[f"{system}-{size}"]
    sheet = table["sheets"]["alice"]
    builder, slot = f"#builder-{sheet}", f"#live-pool-{sheet}"
    gm = log_in(chromium, daphne_server, "gm", viewport=SIZES[size])
    alice = log_in(chromium, daphne_server, "alice", viewport=SIZES[size])
    for page in (gm, alice):
        _open(page, daphne_server, table["id"])
    if size == "phone":
        for who, page in (("GM", gm), ("player", alice)):
            shift = page.evaluate(LAYOUT_SHIFT)
            assert shift["total"] < 0.1, f"the {who}'s page shifts: {shift}"
            expect(page.locator(".surface-tabs")).to_be_visible()
            expect(page.locator("#panel-mine")).to_be_visible()
            expect(page.locator("#panel-table")).to_be_hidden()

    # (3), (4) A roll by keyboard, the GM watching the pool being built.
    before = _newest_seq(alice) if alice.locator("#log > li[data-seq]").count() else 0
    pressed = _keyboard_roll(
        alice, builder, system, size, lambda: expect(gm.locator(slot)).to_contain_text("Ace: ")
    )
    keys = len(pressed)
    assert keys <= MOST_KEYS, f"a keyboard roll took {keys} keys: {pressed}"
    wait_until(
        alice, "n => +document.querySelector('#log > li[data-seq]')?.dataset.seq > n", before
    )
    rolled = _newest_seq(alice)
    expect(alice.locator(f"#event-{rolled}")).to_contain_text("Ace")
    if system == "personae":
        expect(alice.locator(f"#event-{rolled}")).to_contain_text(GOAL)

    # (6) The pool is cleared, here and on the GM's list, at once.
    roll = alice.locator(_roll_button(builder))
    for name in TYPICAL[system]:
        expect(_trait(alice, builder, name)).not_to_have_class(SELECTED)
    expect(roll).to_be_disabled()  # a second press rolls nothing
    expect(gm.locator(f"#event-{rolled}")).to_be_attached()
    expect(gm.locator(slot)).not_to_have_class(LIVE, timeout=AT_ONCE_MS)
    expect(gm.locator(slot)).not_to_contain_text(TYPICAL[system][0])
    # The builder's next re-render lists nothing either: a chat line the GM sends after it
    # reaches the GM's page after anything that re-render sent.
    with alice.expect_response(_is_builder_post):
        alice.locator(f"{builder} select[name=visibility]").select_option("blind")
    if size == "phone":
        _tab(gm, "Log")
    gm.locator("#chat-text").fill("Anyone else?")
    gm.locator("#chat-text").press("Enter")
    expect(gm.locator("#log > li[data-seq]").first).to_contain_text("Anyone else?")
    expect(gm.locator(slot)).not_to_have_class(LIVE)
    expect(gm.locator(slot)).not_to_contain_text(TYPICAL[system][0])
    with alice.expect_response(_is_builder_post):
        alice.locator(f"{builder} select[name=visibility]").select_option("public")

    # Again: the same pool in one tap.
    again = alice.locator(f"{builder} .pool-again button").first
    expect(again).to_contain_text(TYPICAL[system][0])
    with alice.expect_response(_is_builder_post):
        again.click()
    for name in TYPICAL[system]:
        expect(_trait(alice, builder, name)).to_have_class(SELECTED)
    toggle = alice.locator(f"{builder} .pool-tray-toggle")
    if system == "personae":
        expect(roll).to_be_disabled()  # the goal is stated again for each challenge
        _fill(alice, builder, "goal", GOAL)
        expect(roll).to_be_enabled()
    else:
        expect(roll).to_be_enabled()
        _fill(alice, builder, "target", "9")  # odds against a number
        if size == "phone":
            expect(toggle).to_contain_text("%")  # the odds, in the tray's one line
    if system == "serenity":  # the cost, in the status the tray keeps for screen readers
        _fill(alice, builder, "plot_points", "1")
        expect(alice.locator(f"{builder} .pool-status")).to_contain_text("Costs up to 1 plot point")

    # Tab from the last pick reaches Roll through controls in sight.
    _tab_to_roll(alice, builder, LAST_PICK[system])

    # (1) The tray on a phone; on a laptop, the odds in sight.
    if size == "phone":
        _the_tray_stays_as_left(alice, builder, system)
    else:
        expect(toggle).to_be_hidden()
        expect(alice.locator(f"{builder} .pool-odds")).to_be_visible()
    for name in TYPICAL[system]:
        expect(_trait(alice, builder, name)).to_have_class(SELECTED)

    # A roll by taps; in Personae a click on Roll straight from the goal rolls.
    if system == "personae":
        if size == "phone":
            expect(toggle).to_contain_text("%")  # against the GM's number (PER-1)
        alice.locator(f"{builder} [name=goal]").fill("")
        alice.locator(f"{builder} [name=goal]").press_sequentially(GOAL)
        expect(roll).to_be_enabled()
        with alice.expect_response(
            lambda r: r.request.method == "POST" and r.url.endswith("/roll/")
        ):
            roll.click()
        wait_until(
            alice, "n => +document.querySelector('#log > li[data-seq]')?.dataset.seq > n", rolled
        )
        tapped = _newest_seq(alice)
    else:
        tapped = _roll(alice, builder)
    expect(gm.locator(f"#event-{tapped}")).to_be_attached()

    # (2) The log's first screen, for the player and the GM.
    _log_opens_on_the_newest_card_and_the_chat_line(alice, size, tapped, shortcut=True)
    _log_opens_on_the_newest_card_and_the_chat_line(gm, size, tapped, shortcut=False)

    # (7) One of the game's points to every player character, in one step: one card.
    counter, one = POINTS[system]
    if size == "phone":
        _tab(gm, "Dashboard")
    form = gm.locator("form.give-each")
    form.locator("xpath=ancestor::details[1]/summary").click()
    with gm.expect_response(lambda r: r.url.endswith("/table/gm/points/each/")):
        form.get_by_role("button", name="Give to all player characters").click()
    headline = f"GM gave Ace and Bo 1 {one} each"
    expect(gm.locator("#gm-result")).to_contain_text(headline)
    expect(alice.locator("#log")).to_contain_text(headline)
    given = alice.locator("#log .table-event", has_text="GM gave")
    expect(given).to_have_count(1)
    now = re.search(r"Now: Ace (\d+)", given.text_content())
    assert now, given.text_content()
    expect(alice.locator(f"#char-{sheet} [data-counter={counter}] strong")).to_have_text(now[1])

    for page in (gm, alice):
        page.context.close()
