"""A GM and two players play a scene in each of the five systems, in three browsers.

The live server (tests/e2e/conftest.py) serves the app, pages and websockets, from
daphne; Debian's chromium drives three contexts. Each system: build a pool, see
the odds, roll, see the card in all three pages. Serenity Plus and Smallville also
run a contest to the end with stress applied; in Personae and Unisystem the GM sets
the difficulty (and grants bonus dice) from the dashboard; Serenity Plus spends and receives
plot points, a die stepped on the sheet page reaches the open builder, and one
player's socket is killed and restored mid-scene with nothing missing afterwards. Screenshots go to artifacts/ (gitignored).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, log_in, wait_until

pytestmark = pytest.mark.e2e

SYSTEMS = ("serenity", "cortex_slots", "smallville", "personae", "unisystem")
SELECTED = re.compile(r"(^|\s)is-selected(\s|$)")
REFUSED = re.compile(r'class="error" role="alert">⚠ ([^<]*)')

# What every seeding script of the browser tests starts with: Django, the demo users, and
# t() / rate() to give a sheet a trait or set one of its template's ratings.
SEED_PRELUDE = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets.models import Trait
from sheets.services import create_sheet

U = get_user_model()
users = {name: U.objects.get(username=name) for name in ("gm", "alice", "bob")}

def t(sheet, group, name, die=None, rating=None, **kw):
    return Trait.objects.create(sheet=sheet, group=group, name=name, die=die, rating=rating, **kw)

def rate(sheet, group, name, rating=None, die=None):
    Trait.objects.filter(sheet=sheet, group=group, name=name).update(rating=rating, die=die)

"""

SETUP = (
    SEED_PRELUDE
    + r"""
out = {}
for system in ("serenity", "cortex_slots", "smallville", "personae", "unisystem"):
    c = services.create_campaign(users["gm"], name=f"E2E {system}", description="", system=system)
    for p in ("alice", "bob"):
        Membership.objects.create(campaign=c, user=users[p], role="player")
    counters = {"plot_points": 2, "drama_points": 2, "potential_threshold": 3}
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
            t(s, "skills", "Shoot", 10); t(s, "assets", "Rifle", 6); t(s, "big_hero", "Big Hero Die", 6)
        elif system == "smallville":
            rate(s, "values", "Justice", die=10)
            t(s, "relationships", "Lana", 8); t(s, "abilities", "Super-speed", 12)
            t(s, "distinctions", "Farm boy", 6); t(s, "locations", "Kent Farm", 6)
        elif system == "personae":
            m = t(s, "attributes", "Might", rating=4); t(s, "skills", "Swordplay", rating=3, link=m)
        elif system == "unisystem":
            rate(s, "attributes", "Dexterity", rating=4); t(s, "skills", "Gun Fu", rating=3)
    if system in ("serenity", "smallville"):
        npc = create_sheet(c, name="Thugs", kind="npc", counters=counters)
        if system == "serenity":
            t(npc, "stylins", "Fightin'", 4)
        else:
            rate(npc, "values", "Power", die=4); t(npc, "relationships", "Lex", 4)
        sheets["npc"] = npc.pk
    scene = services.create_scene(c, title=f"{system} scene", description="")
    services.start_scene(c, scene.pk)
    out[system] = {"id": c.pk, "sheets": sheets}
print(json.dumps(out))
"""
)


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


@pytest.fixture(scope="module")
def pages(chromium, daphne_server):
    return {name: log_in(chromium, daphne_server, name) for name in ("gm", "alice", "bob")}


def _live(page: Page) -> None:
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")


def _open(pages, server, table, system) -> None:
    cid = table[system]["id"]
    for page in pages.values():
        page.goto(f"{server.url}/c/{cid}/table/")
    for page in pages.values():
        _live(page)


def _reload(page: Page) -> None:
    page.reload()
    _live(page)


def _seqs(page: Page) -> list[int]:
    return [
        int(s)
        for s in page.eval_on_selector_all(
            "#log > li[data-seq]", "els => els.map(e => e.dataset.seq)"
        )
    ]


def _builder(table, system, who) -> str:
    return f"#builder-{table[system]['sheets'][who]}"


def _is_builder_post(response) -> bool:
    return response.request.method == "POST" and bool(re.search(r"/table/pool/\d+/$", response.url))


def _trait(page: Page, builder: str, name: str):
    exact = re.compile(rf"^{re.escape(name)}$")
    return page.locator(f"{builder} label.trait-choice").filter(
        has=page.locator(".trait-name", has_text=exact)
    )


def _click(page: Page, builder: str, name: str) -> None:
    """Tick a trait: the builder answers with it in the pool."""
    label = _trait(page, builder, name)
    with page.expect_response(_is_builder_post):
        label.click()
    expect(label).to_have_class(SELECTED)


def _fill(page: Page, builder: str, name: str, value: str) -> None:
    """Type in one of the builder's fields and leave it: the builder the server renders
    next holds it. The server's rendering is what is awaited (the field's value
    attribute, not what was typed), not one particular response: another member's
    action may re-render the builder meanwhile, and the typed value must survive that
    too (static/js/table.js keeps what was typed while an answer was out)."""
    field = page.locator(f"{builder} [name={name}]")
    field.fill(value)
    field.press("Tab")
    expect(page.locator(f"{builder} [name={name}]")).to_have_attribute("value", value)
    expect(page.locator(f"{builder} [name={name}]")).to_have_value(value)


def _roll(page: Page, builder: str, after: int = 0) -> int:
    """Press Roll once this page has event `after` and its builder is not about to
    re-render (aria-busy, or a request of its own out): a player presses a button they
    see settled. The roll is accepted and its card reaches this page. Returns its seq."""
    if after:
        expect(page.locator(f"#event-{after}")).to_be_attached()
    _settled(page, builder)
    before = max(_seqs(page), default=0)
    button = page.locator(f"{builder} .pool-roll button[type=submit]")
    expect(button).to_be_enabled()
    with page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith("/roll/")
    ) as answer:
        button.click()
    refused = REFUSED.search(answer.value.text())
    assert refused is None, f"the roll was refused: {refused.group(1)}"
    wait_until(
        page,
        "n => [...document.querySelectorAll('#log > li[data-seq]')].some(e => +e.dataset.seq > n)",
        before,
    )
    return max(_seqs(page))


def _settled(page: Page, builder: str) -> None:
    """A player taps what they see settled: not while the builder is about to re-render
    (aria-busy: another member's action is being checked) or has a request of its own
    out, whose answer would replace what the tap brings."""
    wait_until(
        page,
        "b => { const el = document.querySelector(b);"
        " return el && el.getAttribute('aria-busy') !== 'true' && !el.querySelector('.htmx-request')"
        " && !el.matches('.htmx-request'); }",
        builder,
    )


def _again(page: Page, builder: str) -> None:
    """A roll clears the pool: Again brings the last one back, in one tap."""
    if page.locator(f"{builder} label.trait-choice.is-selected").count():
        return
    _settled(page, builder)
    with page.expect_response(_is_builder_post):
        page.locator(f"{builder} .pool-again button").first.click()
    expect(page.locator(f"{builder} label.trait-choice.is-selected").first).to_be_visible()


def _wait_for_card(pages, seq: int) -> None:
    for page in pages.values():
        expect(page.locator(f"#event-{seq}")).to_be_attached()


def _panel_after(page: Page, seq: int):
    """The scene panel once it shows the state after event `seq`."""
    wait_until(page, "n => +(document.querySelector('#scene-panel')?.dataset.seq || 0) >= n", seq)
    return page.locator("#scene-panel")


POOLS = {
    "serenity": ["Fightin'", "Brawler", "Pistol"],
    "cortex_slots": ["Agility", "Ex-Marine", "Shoot", "Rifle"],
    "smallville": ["Justice", "Lana", "Super-speed", "Kent Farm"],
    "personae": ["Swordplay", "Might"],
    "unisystem": ["Dexterity", "Gun Fu"],
}


def _build_pool_and_see_odds(page: Page, builder: str, system: str) -> None:
    for name in POOLS[system]:
        if not SELECTED.search(_trait(page, builder, name).get_attribute("class") or ""):
            _click(page, builder, name)
        expect(_trait(page, builder, name)).to_have_class(SELECTED)
    if system == "personae":  # PER-9: no challenge without a goal
        expect(page.locator(f"{builder} .pool-status")).to_contain_text("State the goal first")
        expect(page.locator(f"{builder} .pool-roll button[type=submit]")).to_be_disabled()
        _fill(page, builder, "goal", "Disarm the duelist")
    else:
        _fill(page, builder, "target", "9")
    expect(page.locator(f"{builder} .odds-summary")).to_have_text(
        re.compile(r"% to (beat|reach|succeed)")
    )
    expect(page.locator(f"{builder} svg.odds-chart[role=img] > title")).to_have_count(1)


def _gm_dashboard(gm: Page, form_class: str, fill: dict[str, str], said: str) -> None:
    """The GM fills one of the dashboard's d10 controls (no JSON) and reads its answer."""
    form = gm.locator(f"form.{form_class}")
    for name, value in fill.items():
        field = form.locator(f"[name='{name}']")
        if name == "sheet":
            field.select_option(label=value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    with gm.expect_response(lambda r: "/table/act/" in r.url) as answer:
        form.locator("button[type=submit]").click()
    assert REFUSED.search(answer.value.text()) is None, answer.value.text()
    expect(gm.locator("#gm-result")).to_contain_text(said)


def _gm_sets_the_numbers(pages, table, system) -> None:
    """PER-1, UNI-4: the GM sets the scene's difficulty (and, in Personae, grants Ace two
    bonus dice); Ace's open builder shows them read-only, with no field to type them."""
    gm, alice = pages["gm"], pages["alice"]
    builder = alice.locator(_builder(table, system, "alice"))
    if system == "personae":
        _gm_dashboard(gm, "gm-set-difficulty", {"set_difficulty-difficulty": "9"},
                      "The GM sets the difficulty to beat: 9")  # fmt: skip
        _gm_dashboard(gm, "gm-grant", {"sheet": "Ace", "grant_bonus_dice-dice": "2"},
                      "The GM grants Ace 2 bonus dice for the next challenge")  # fmt: skip
        expect(builder.locator(".from-table.bonus-dice")).to_contain_text(
            "Bonus dice from the GM: 2"
        )
        expect(builder.locator(".from-table.difficulty")).to_contain_text("Difficulty to beat: 9")
        expect(builder.locator("[name=bonus_dice], [name=difficulty]")).to_have_count(0)
    else:
        _gm_dashboard(gm, "gm-set-difficulty", {"set_difficulty-difficulty": "average"},
                      "The GM sets the difficulty: Average (+1)")  # fmt: skip
        expect(builder.locator(".from-table.difficulty")).to_contain_text("Average (+1)")
        expect(builder.locator("select[name=difficulty]")).to_have_count(0)
    for page in pages.values():
        expect(page.locator("#scene-panel")).to_contain_text("Difficulty")


def _plot_points(pages, table, system, who: str, value: int) -> None:
    """Every page's scene panel shows `who` holding `value` plot points."""
    sheet = table[system]["sheets"][who]
    for page in pages.values():
        counter = page.locator(f"#char-{sheet} [data-counter=plot_points] strong")
        expect(counter).to_have_text(str(value))


def _fact(page: Page, seq: int, label: str) -> str:
    facts = page.locator(f"#event-{seq} .facts > div")
    # Read whether in sight or behind the card's closed "How it was read".
    return facts.filter(has=page.locator("dt", has_text=label)).locator("dd").text_content()


def _give_plot_point(pages, table, system, now: int) -> None:
    """The GM gives Ace a plot point: Ace then holds `now`, on every page."""
    gm = pages["gm"]
    form = gm.locator("form[hx-post$='/table/gm/points/']")
    gm.locator("summary", has_text=re.compile(r"^Give plot points$")).click()
    form.locator("select[name=sheet]").select_option(label="Ace")
    with gm.expect_response(lambda r: r.url.endswith("/table/gm/points/")) as answer:
        form.locator("button[type=submit]").click()
    assert f"Ace gets 1 plot point (now {now})" in answer.value.text(), answer.value.text()
    _plot_points(pages, table, system, "alice", now)
    # Ace's open pool builder re-renders itself with the points she now holds, unclicked.
    builder = pages["alice"].locator(_builder(table, system, "alice"))
    expect(builder).to_contain_text(f"({now} held)")


def _edit_on_the_sheet_page(pages, server, table, system) -> None:
    """Ace steps her Pistol down on her sheet, in another tab: the table tab's open
    builder shows the new die, still picked, unclicked."""
    alice, builder = pages["alice"], _builder(table, system, "alice")
    _again(alice, builder)
    pistol = _trait(alice, builder, "Pistol")
    expect(pistol).to_have_class(SELECTED)
    expect(pistol.locator(".trait-die")).to_have_text("d12")
    trait = pistol.locator("input").get_attribute("value")
    sheet_tab = alice.context.new_page()
    sheet_tab.goto(
        f"{server.url}/c/{table[system]['id']}/sheets/{table[system]['sheets']['alice']}/"
    )
    with sheet_tab.expect_response(lambda r: "/step/" in r.url and r.status == 200):
        sheet_tab.locator(f"#t{trait}-step-down").click()
    sheet_tab.close()
    expect(pistol.locator(".trait-die")).to_have_text("d10")
    expect(pistol).to_have_class(SELECTED)


def _contest(pages, table, system) -> None:
    gm, alice = pages["gm"], pages["alice"]
    sheets = table[system]["sheets"]
    gm.locator("summary", has_text="Open a contest").click()
    form = gm.locator("form[hx-post$='/table/gm/contest/']")
    form.locator("select[name=a_sheet]").select_option(str(sheets["alice"]))
    form.locator("input[name=a_goal]").fill("get the cargo out")
    form.locator("select[name=b_sheet]").select_option(str(sheets["npc"]))
    form.locator("input[name=b_goal]").fill("keep the cargo")
    form.locator("select[name=first]").select_option("1")
    with gm.expect_response(lambda r: r.url.endswith("/table/gm/contest/")) as answer:
        form.locator("button[type=submit]").click()
    assert REFUSED.search(answer.value.text()) is None, answer.value.text()
    for page in pages.values():
        expect(page.locator("#scene-panel .contest")).to_contain_text("▶ Thugs’s turn")
    npc_builder, ace_builder = _builder(table, system, "npc"), _builder(table, system, "alice")
    npc_pool = ["Fightin'"] if system == "serenity" else ["Power", "Lex"]
    _reload(gm)  # fresh builders: the pools below are built from nothing
    for name in npc_pool:
        _click(gm, npc_builder, name)
    _reload(alice)
    for name in POOLS[system]:
        _click(alice, ace_builder, name)
    seq = max(_seqs(gm), default=0)
    for _turn in range(20):
        contest = _panel_after(gm, seq).locator(".contest")
        text = contest.inner_text()
        if "stress to choose" in text:
            break
        assert "▶ Thugs’s turn" in text or "▶ Ace’s turn" in text, text
        if "▶ Thugs’s turn" in text:
            _again(gm, npc_builder)
            seq = _roll(gm, npc_builder, after=seq)
        else:
            _again(alice, ace_builder)
            seq = _roll(alice, ace_builder, after=seq)
    else:
        raise AssertionError("the contest did not end in 20 rolls")
    for page in (gm, alice):
        expect(_panel_after(page, seq).locator(".contest")).to_contain_text("stress to choose")
    # The winner chooses the stress: the player for Ace, the GM for the Thugs.
    standing = alice.locator("#scene-panel .contest").inner_text()
    winner = re.search(r"(Ace|Thugs) won", standing)
    assert winner, standing
    if winner.group(1) == "Ace":
        chooser, loser = alice, sheets["npc"]
    else:
        chooser, loser = gm, sheets["alice"]
    form = chooser.locator("#scene-panel form:has(select[name=type])")
    form.locator("select[name=type]").select_option("Injured")
    if form.locator("input[name=target]").count():  # SER-10: name the Asset to promote
        form.locator("input[name=target]").fill("Cargo hold")
    with chooser.expect_response(lambda r: r.url.endswith("/table/contest/")) as answer:
        form.get_by_role("button", name="Inflict stress").click()
    refused = REFUSED.search(answer.value.text())
    assert refused is None, f"{winner.group(1)} could not choose the stress: {refused.group(1)}"
    for page in pages.values():
        panel = page.locator("#scene-panel")
        expect(panel.locator(".contest")).to_have_count(0)
        expect(panel.locator(f"#char-{loser}")).to_contain_text(re.compile(r"Injured d\d+"))


def _socket_outage(pages, table, system) -> None:
    """Kill bob's socket, roll while it is down, bring it back: bob's log catches up."""
    alice, bob = pages["alice"], pages["bob"]
    bob.context.set_offline(True)  # no network: the socket cannot come back before the rolls
    bob.evaluate("() => window.rollcallSocket.close(4000)")
    expect(bob.locator("#socket-status")).to_have_attribute("data-state", "reconnecting")
    builder = _builder(table, system, "alice")
    gm, reads = pages["gm"], []

    def read(request) -> None:
        if re.search(r"/table/(scene|pool/\d+)/(\?|$)", request.url) and request.method == "GET":
            reads.append(request.url)

    gm.on("request", read)
    missed = []
    for _ in range(2):
        _again(alice, builder)
        missed.append(_roll(alice, builder))
    for seq in missed:
        expect(bob.locator(f"#event-{seq}")).to_have_count(0)
        expect(gm.locator(f"#event-{seq}")).to_be_attached()
    gm.wait_for_timeout(600)  # the page's re-reads follow an event by 150 ms
    gm.remove_listener("request", read)
    assert reads == [], "plain rolls change nothing the panel or a builder shows"
    bob.context.set_offline(False)
    # the socket extension retries with a growing, jittered delay (at most 8 s here)
    expect(bob.locator("#socket-status")).to_have_attribute("data-state", "live")
    for seq in missed:
        expect(bob.locator(f"#event-{seq}")).to_be_attached()
    assert sorted(_seqs(bob)) == sorted(_seqs(alice))
    assert len(set(_seqs(bob))) == len(_seqs(bob))


SAID_DIE = re.compile(r"^d\d+(\+d\d+)? showed \d+(\+\d+)?(, | \().+$")


def _card_reads_at_a_glance(pages, seq: int) -> None:
    """The card's dice say, to a screen reader, each die whole; a complication or hitch
    says so in words on screen; "How it was read" is closed until opened, and holds the
    explanation. Ace's own roll is marked for Ace ("(you)", an accent), not for Bo."""
    alice, bob = pages["alice"], pages["bob"]
    card = alice.locator(f"#event-{seq} .roll-card")
    spoken = card.locator(".dice > li.die").evaluate_all(
        "dice => dice.map(d => d.textContent.replace(/\\s+/g, ' ').trim())"
    )
    assert spoken and all(SAID_DIE.match(words) for words in spoken), spoken
    for one in card.locator(".dice > li.die.is-one").all():
        expect(one).to_contain_text(re.compile(r"complication|hitch"))
    for page in pages.values():
        reading = page.locator(f"#event-{seq} details.reading")
        expect(reading).not_to_have_attribute("open", "")
        expect(reading.locator(".explanation")).to_be_hidden()
    card.locator("details.reading > summary").click()
    expect(card.locator("details.reading .explanation")).to_be_visible()
    card.locator("details.reading > summary").click()

    def marked(page: Page) -> list[str]:
        return page.locator(f"#event-{seq} .roll-card").evaluate(
            "c => [getComputedStyle(c).borderLeftWidth,"
            " getComputedStyle(c.querySelector('.who'), '::after').content]"
        )

    expect(card).to_have_class(re.compile(r"\bis-mine\b"))
    assert marked(alice) == ["6px", '" (you)"']
    assert marked(bob)[0] != "6px" and "you" not in marked(bob)[1]


@pytest.mark.parametrize("system", SYSTEMS)
def test_play_a_scene(pages, daphne_server, table, system):
    """A scene in each game from the page: the player taps a pool (SER-1, CTX-1, SMV-1 a
    Value and a Relationship, SMV-3 an Ability, SMV-7 a Location in the side pool, PER-1,
    UNI-1 a Task, UNI-2), spends plot points for dice (SER-8), the GM sets the difficulty
    (UNI-4) or the goal is stated first (PER-9); every page reads the card's result, effect
    die, slots, grade and success levels (SER-2, SER-4, CTX-2, SMV-8, PER-3, UNI-3); in
    Serenity Plus and Smallville a contest runs to the end with stress chosen (SER-6,
    SER-7, SMV-10)."""
    _open(pages, daphne_server, table, system)
    alice = pages["alice"]
    builder = _builder(table, system, "alice")
    if system in ("personae", "unisystem"):
        _gm_sets_the_numbers(pages, table, system)
    _build_pool_and_see_odds(alice, builder, system)
    if system == "serenity":
        _fill(alice, builder, "plot_points", "1")
    seq = _roll(alice, builder)
    _wait_for_card(pages, seq)
    headline = alice.locator(f"#event-{seq} .headline").inner_text()
    for page in pages.values():
        expect(page.locator(f"#event-{seq} .headline")).to_have_text(headline)
        assert page.locator(f"#event-{seq} .die").count() >= 1
    _card_reads_at_a_glance(pages, seq)
    if system == "personae":  # Swordplay's 3 dice and the 2 the GM granted, used up
        expect(alice.locator(f"#event-{seq} .die")).to_have_count(5)
        expect(alice.locator(f"{builder} .from-table.bonus-dice")).to_contain_text(
            "Bonus dice from the GM: 0"
        )
    if system == "serenity":
        spent = int(_fact(alice, seq, "Plot points spent"))  # 0 when no die was left to add
        _plot_points(pages, table, system, "alice", 2 - spent)
        _give_plot_point(pages, table, system, now=2 - spent + 1)
        _edit_on_the_sheet_page(pages, daphne_server, table, system)
        _socket_outage(pages, table, system)
    if system in ("serenity", "smallville"):
        _contest(pages, table, system)
    pages["gm"].screenshot(path=str(ARTIFACTS / f"table-{system}.png"), full_page=True)
