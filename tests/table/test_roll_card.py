"""The roll card reads at a glance (table/jinja2/table/event.html): the headline, the dice
drawn as dice with what each did, the facts the headline does not say; how the rules read
the roll waits behind "How it was read". What a screen reader hears of each die is the
whole of it: its size, its face, its trait and what it did."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from table.log.visibility import GM, PLAYERS
from table.reading.rendering import render_event_html

pytestmark = pytest.mark.django_db

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
VETERAN = {"die": "d8", "trait": "War Veteran", "group": "refinements"}
FREEDOM = {"die": "d4", "trait": "Freedom", "group": "values"}


class Card(HTMLParser):
    """What a reader gets from a card: each die's words (`spoken`: all of them, as a screen
    reader says them; `shown`: without the spoken-only ones) and classes, the text inside
    the closed "How it was read" and the text outside it."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.dice: list[dict] = []
        self.reading_open: bool | None = None
        self.inside_reading = ""
        self.outside_reading = ""
        self._stack: list[tuple[str, set[str]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        if tag == "li" and "die" in classes:
            self.dice.append({"classes": classes, "spoken": "", "shown": ""})
        if tag == "details" and "reading" in classes:
            self.reading_open = "open" in attrs
        self._stack.append((tag, classes))

    def handle_endtag(self, tag):
        while self._stack and self._stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        in_die = any(tag == "li" and "die" in c for tag, c in self._stack)
        if in_die:
            self.dice[-1]["spoken"] += data
            if not any("spoken" in c for _, c in self._stack):
                self.dice[-1]["shown"] += " " + data
        if any(tag == "details" for tag, _ in self._stack):
            self.inside_reading += data
        else:
            self.outside_reading += data


def said(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture
def serenity_roll(table_for, faces):
    """Fightin' d10 shows 9, War Veteran d8 a 1, Freedom d4 a 3."""
    t = table_for("serenity")
    faces.queue.extend([9, 1, 3])
    return t.perform(t.player, "roll", {"pool": [FIGHTIN, VETERAN, FREEDOM]}, sheet_id=t.pc.pk)


def test_each_die_is_said_whole_for_screen_readers(serenity_roll):
    card = Card(render_event_html(serenity_roll, PLAYERS))
    assert [said(d["spoken"]) for d in card.dice] == [
        "d10 showed 9, Fightin', counted",
        "d8 showed 1, War Veteran, 1: complication",
        "d4 showed 3, Freedom, counted",
    ]
    # Drawn by size: each die's shape follows its size.
    assert [sorted(d["classes"] & {"d4", "d8", "d10"}) for d in card.dice] == [
        ["d10"],
        ["d8"],
        ["d4"],
    ]


def test_a_complication_is_marked_in_words_not_colour_alone(serenity_roll):
    """The 1 is a complication in words on screen; a die that counted is shown by its
    fill, its role spoken only."""
    fightin, veteran, _ = Card(render_event_html(serenity_roll, PLAYERS)).dice
    assert "is-one" in veteran["classes"] and "complication" in veteran["shown"]
    assert "is-one" not in fightin["classes"] and "counted" in fightin["classes"]
    assert "complication" not in fightin["spoken"]
    assert "counted" not in fightin["shown"] and "Fightin'" in fightin["shown"]


def test_how_it_was_read_is_closed_and_holds_the_explanation(serenity_roll):
    for audience in (GM, PLAYERS):
        card = Card(render_event_html(serenity_roll, audience))
        assert card.reading_open is False
        explanation = serenity_roll.outcome["explanation"]
        assert explanation in card.inside_reading
        assert "Rolled 1 on War Veteran" not in card.outside_reading
        # The headline is in sight, and the facts it already says wait inside.
        assert serenity_roll.headline in card.outside_reading
        # The facts the headline already says (Result) wait inside too.
        html = render_event_html(serenity_roll, audience)
        before, after = html.split('<details class="reading">')
        assert "<dt>Result</dt>" in after and "<dt>Result</dt>" not in before


def test_a_fact_the_headline_does_not_say_stays_in_sight(table_for, faces):
    """Plot points spent are not in the headline "Result …, effect …": they stay out."""
    t = table_for("serenity")
    faces.queue.extend([9, 4, 3])
    event = t.perform(
        t.player, "roll", {"pool": [FIGHTIN, VETERAN, FREEDOM], "plot_points": 1},
        sheet_id=t.pc.pk,
    )  # fmt: skip
    card = Card(render_event_html(event, PLAYERS))
    assert "plot point" not in event.headline
    assert "Plot points spent" in card.outside_reading
    assert "Plot points spent" not in card.inside_reading


def test_a_zero_is_no_news(serenity_roll):
    """No plot point spent: the 0 waits behind "How it was read" with the rest."""
    assert serenity_roll.outcome["plot_points_spent"] == 0
    card = Card(render_event_html(serenity_roll, PLAYERS))
    assert "Plot points spent" in card.inside_reading
    assert "Plot points spent" not in card.outside_reading


def test_the_card_names_no_viewer(serenity_roll):
    """The card is cached per audience: nothing in it names its viewer, so the viewer's
    own rolls are marked on the page (static/js/comfort.js, keyed on data-roller)."""
    html = render_event_html(serenity_roll, PLAYERS)
    assert f'data-roller="{serenity_roll.actor_id}"' in html
    assert "(you)" not in html and "is-mine" not in html


def _outside(event) -> str:
    return said(Card(render_event_html(event, PLAYERS)).outside_reading)


def test_personae_the_comparison_that_decided_is_on_the_cards_face(table_for, faces):
    """PER-1, PER-2: the margin was behind "How it was read"; it is on the face, against
    the difficulty or the reactor, and says when yielding decided it."""
    t = table_for("personae")
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 9})
    faces.queue.extend([9, 3, 2])  # Swordplay: 3 dice; Might 4: 9 + 4 = 13
    won = t.perform(t.player, "challenge", {"actor": {"skill_name": "Swordplay"},
                                            "goal": "Cross the bridge"}, sheet_id=t.pc.pk)  # fmt: skip
    assert "Decided by: 13 against 9 (the difficulty), +4" in _outside(won)
    faces.queue.extend([5, 3, 2, 5, 4, 1])  # 5+4 vs 5+4: a tie; both yield: 3+4 vs 4+4
    lost = t.perform(
        t.player,
        "challenge",
        {"actor": {"skill_name": "Swordplay"}, "reactor": {"skill_name": "Swordplay"},
         "goal": "Disarm Zoe", "table": {"target": t.other_pc.pk}},
        sheet_id=t.pc.pk,
    )  # fmt: skip
    assert "Decided by: 7 against 8 (Zoe), −1, after 1 yield" in _outside(lost)
    faces.queue.extend([5, 3, 2])  # 5 + 4 = 9 ties the difficulty, which has no die to yield
    tied = t.perform(t.player, "challenge", {"actor": {"skill_name": "Swordplay"},
                                             "goal": "Leap the gap"}, sheet_id=t.pc.pk)  # fmt: skip
    assert tied.outcome["decided_by"] == "out_of_dice"
    assert (
        "Decided by: 9 against 9 (the difficulty), a tie; the side with a die left to yield "
        "won the tie" in _outside(tied)
    )


def test_serenity_a_roll_against_the_opposition_says_its_outcome_and_margin_on_the_face(
    table_for, faces
):
    t = table_for("serenity")
    t.start_scene()
    t.perform(t.gm, "set_difficulty", {"difficulty": 8})
    faces.queue.extend([9, 5])
    event = t.perform(t.player, "roll", {"pool": [FIGHTIN, VETERAN]}, sheet_id=t.pc.pk)
    assert "Result 14 vs 8 — extraordinary success by 6, effect d4" in _outside(event)
