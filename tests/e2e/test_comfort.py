"""Comfort at the table: the theme is set before the first paint and remembered, keyboard
shortcuts reach the right element and never fire while typing, each new card is read out
to screen readers in its own words (a sealed card only as sealed), the viewer's own rolls
are marked, and the dice animation is optional and off under reduced motion."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in, wait_until

pytestmark = pytest.mark.e2e

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
gm, alice, bob = (U.objects.get(username=n) for n in ("gm", "alice", "bob"))
c = services.create_campaign(gm, name="Comfort", description="", system="serenity")
Membership.objects.create(campaign=c, user=alice, role="player")
Membership.objects.create(campaign=c, user=bob, role="player")
sheets = {}
for user, name in ((alice, "Ace"), (bob, "Bo")):
    s = create_sheet(c, name=name, kind="pc", owner=user, counters={"plot_points": 2})
    f = Trait.objects.create(sheet=s, group="stylins", name="Fightin'", die=12)
    Trait.objects.create(sheet=s, group="refinements", name="Brawler", die=10, parent=f)
    sheets[user.username] = s.pk
scene = services.create_scene(c, title="Comfort scene", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk, "sheets": sheets}))
"""

# Recorded before any of the page's own scripts run: the theme attribute as <body> is
# created (before anything is painted) and at DOMContentLoaded.
RECORD_THEME = """
window.__themeAtBody = "unset";
window.__themeAtReady = "unset";
new MutationObserver(function (changes, observer) {
  if (document.body) {
    window.__themeAtBody = document.documentElement.getAttribute("data-theme");
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
document.addEventListener("DOMContentLoaded", function () {
  window.__themeAtReady = document.documentElement.getAttribute("data-theme");
});
"""


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.fixture(scope="module")
def pages(chromium, daphne_server, table):
    opened = {name: log_in(chromium, daphne_server, name) for name in ("gm", "alice", "bob")}
    for page in opened.values():
        page.goto(f"{daphne_server.url}/c/{table['id']}/table/")
    for page in opened.values():
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    return opened


def _seqs(page: Page) -> list[int]:
    return [
        int(s)
        for s in page.eval_on_selector_all(
            "#log > li[data-seq]", "els => els.map(e => e.dataset.seq)"
        )
    ]


def _settled(page: Page, builder: str) -> None:
    wait_until(
        page,
        "b => { const el = document.querySelector(b); return el && el.getAttribute('aria-busy') !== 'true'"
        " && !el.querySelector('.htmx-request') && !el.matches('.htmx-request'); }",
        builder,
    )


def _pick(page: Page, builder: str, names=("Fightin'", "Brawler")) -> None:
    for name in names:
        label = page.locator(f"{builder} label.trait-choice").filter(
            has=page.locator(".trait-name", has_text=re.compile(rf"^{re.escape(name)}$"))
        )
        if "is-selected" in (label.get_attribute("class") or ""):
            continue
        with page.expect_response(lambda r: r.request.method == "POST" and "/pool/" in r.url):
            label.click()
        expect(label).to_have_class(re.compile("is-selected"))
    _settled(page, builder)


def _visibility(page: Page, builder: str, value: str) -> None:
    """Choose who sees the next roll. Set without a change event: the builder re-renders
    on change, and its re-rendered select starts from its first option again."""
    _settled(page, builder)
    page.locator(f"{builder} select[name=visibility]").evaluate("(s, v) => { s.value = v; }", value)


def _wait_for_seq(page: Page, seq: int) -> None:
    expect(page.locator(f"#event-{seq}")).to_be_attached()


def _roll_with_key(page: Page, builder: str) -> int:
    """Pick the pool (a roll clears it), focus a trait of the builder and press `r`: the
    roll's card reaches the page."""
    _pick(page, builder)
    before = max(_seqs(page), default=0)
    # The builder has settled after the last click (no re-render on its way).
    expect(page.locator(f"{builder} .pool-roll button[type=submit]")).to_be_enabled()
    expect(page.locator(builder)).not_to_have_attribute("aria-busy", "true")
    page.focus(f"{builder} input[name=trait]")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/roll/")):
        page.keyboard.press("r")
    wait_until(
        page,
        "n => [...document.querySelectorAll('#log > li[data-seq]')].some(e => +e.dataset.seq > n)",
        before,
    )
    return max(_seqs(page))


def _announced(page: Page) -> str:
    return page.locator("#roll-announcer p").last.inner_text()


def test_theme_is_set_before_paint_and_remembered(chromium, daphne_server, table):
    page = log_in(chromium, daphne_server, "bob")
    page.add_init_script(RECORD_THEME)
    page.emulate_media(color_scheme="light")
    page.goto(f"{daphne_server.url}/c/{table['id']}/table/")
    assert page.evaluate("window.__themeAtBody") == "light"
    assert page.evaluate("window.__themeAtReady") == "light"

    page.locator(".display-settings > summary").click()
    page.get_by_label("Dark").check()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")

    # The system says light; the remembered choice wins, from the first paint on.
    page.reload()
    assert page.evaluate("window.__themeAtBody") == "dark"
    assert page.evaluate("window.__themeAtReady") == "dark"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background
    page.goto(f"{daphne_server.url}/rules/")
    assert page.evaluate("window.__themeAtBody") == "dark"

    # "System" follows the system, also when it changes while the page is open.
    page.locator(".display-settings > summary").click()
    page.get_by_label("System").check()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.reload()
    assert page.evaluate("window.__themeAtBody") == "dark"
    expect(page.get_by_label("System")).to_be_checked()
    page.context.close()


def test_shortcuts_reach_their_element_and_roll(pages, table):
    alice = pages["alice"]
    builder = f"#builder-{table['sheets']['alice']}"

    alice.keyboard.press("?")
    dialog = alice.locator("#shortcuts-dialog")
    expect(dialog).to_be_visible()
    for key in ("/", "c", "p", "r", "l", "?"):
        expect(
            dialog.locator("kbd", has_text=re.compile(rf"^{re.escape(key)}$")).first
        ).to_be_visible()
    alice.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    alice.keyboard.press("l")
    assert alice.evaluate("document.activeElement.id") == "log"
    alice.keyboard.press("p")
    assert alice.evaluate("b => !!document.activeElement.closest(b)", builder)

    # Not ready: `r` does nothing. Ready: `r` rolls the builder in focus.
    alice.focus(f"{builder} input[name=trait]")
    before = _seqs(alice)
    alice.keyboard.press("r")
    alice.wait_for_timeout(300)
    assert _seqs(alice) == before

    _pick(alice, builder)
    seq = _roll_with_key(alice, builder)
    for page in pages.values():
        _wait_for_seq(page, seq)


def test_no_shortcut_fires_while_typing(pages, table):
    gm = pages["gm"]
    field = gm.locator("#chat-text")  # the chat line: typing there must not roll or jump
    expect(field).to_be_visible()
    field.focus()
    expect(field).to_be_focused()
    before = _seqs(gm)
    field.press_sequentially("r l ? / c p")
    expect(field).to_have_value("r l ? / c p")
    expect(field).to_be_focused()
    expect(gm.locator("#shortcuts-dialog")).to_be_hidden()
    gm.wait_for_timeout(300)
    assert _seqs(gm) == before
    field.fill("")


def test_new_cards_are_announced_in_their_own_words(pages, table):
    alice, bob, gm = pages["alice"], pages["bob"], pages["gm"]
    builder = f"#builder-{table['sheets']['alice']}"
    bob.focus(f"#builder-{table['sheets']['bob']} input[name=trait]")
    focused = bob.evaluate("document.activeElement.outerHTML")

    _pick(alice, builder)
    _visibility(alice, builder, "public")
    seq = _roll_with_key(alice, builder)
    for page in (bob, gm):
        _wait_for_seq(page, seq)
        card = page.locator(f"#event-{seq} .roll-card")
        heading = re.sub(r"\s+", " ", card.locator("h3").inner_text()).strip()
        headline = re.sub(r"\s+", " ", card.locator(".headline").inner_text()).strip()
        expect(page.locator("#roll-announcer p").last).to_have_text(f"{heading}: {headline}")
    assert "Ace" in _announced(bob)
    # The announcement never moved bob's focus.
    assert bob.evaluate("document.activeElement.outerHTML") == focused

    # Own rolls stand out, for their roller only (the card is cached per audience).
    expect(alice.locator(f"#event-{seq} .roll-card")).to_have_class(re.compile(r"\bis-mine\b"))
    expect(bob.locator(f"#event-{seq} .roll-card")).not_to_have_class(re.compile(r"\bis-mine\b"))

    # A blind roll: players hear only that it was sealed; the GM hears the result.
    _visibility(alice, builder, "blind")
    seq = _roll_with_key(alice, builder)
    _wait_for_seq(bob, seq)
    expect(bob.locator("#roll-announcer p").last).to_have_text(
        "Alice rolled blind, for the GM's eyes only"
    )
    assert bob.locator(f"#event-{seq} .sealed-card").count() == 1
    _wait_for_seq(gm, seq)
    gm_headline = gm.locator(f"#event-{seq} .headline").inner_text().strip()
    expect(gm.locator("#roll-announcer p").last).to_contain_text(gm_headline)
    _visibility(alice, builder, "public")


def test_dice_animation_is_optional_and_off_under_reduced_motion(pages, table):
    alice, bob = pages["alice"], pages["bob"]
    builder = f"#builder-{table['sheets']['alice']}"

    # Off by default.
    _pick(alice, builder)
    seq = _roll_with_key(alice, builder)
    _wait_for_seq(bob, seq)
    expect(bob.locator(f"#event-{seq} .roll-card")).not_to_have_class(re.compile("dice-arrive"))

    # Switched on (and remembered across a reload), it plays on a new public card.
    bob.locator(".display-settings > summary").click()
    bob.get_by_label("Animate new rolls").check()
    bob.get_by_label("Sound for new rolls").check()
    bob.reload()
    expect(bob.locator("#socket-status")).to_have_attribute("data-state", "live")
    expect(bob.get_by_label("Animate new rolls")).to_be_checked()
    seq = _roll_with_key(alice, builder)
    _wait_for_seq(bob, seq)
    card = bob.locator(f"#event-{seq} .roll-card")
    expect(card).to_have_class(re.compile("dice-arrive"))
    assert (
        card.locator(".die").first.evaluate("d => getComputedStyle(d).animationName")
        == "die-arrive"
    )

    # Never on a sealed card.
    _visibility(alice, builder, "blind")
    seq = _roll_with_key(alice, builder)
    _wait_for_seq(bob, seq)
    expect(bob.locator(f"#event-{seq} .sealed-card")).not_to_have_class(re.compile("dice-arrive"))
    _visibility(alice, builder, "public")

    # Reduced motion: no animation, whatever the setting.
    bob.emulate_media(reduced_motion="reduce")
    seq = _roll_with_key(alice, builder)
    _wait_for_seq(bob, seq)
    card = bob.locator(f"#event-{seq} .roll-card")
    expect(card.locator(".die").first).to_be_visible()
    assert "dice-arrive" not in (card.get_attribute("class") or "")
    assert card.locator(".die").first.evaluate("d => getComputedStyle(d).animationName") == "none"
    bob.emulate_media(reduced_motion="no-preference")
