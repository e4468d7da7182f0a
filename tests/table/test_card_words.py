"""The card reads a die and an outcome in the game's words (its UI's card,
rules.kit.cards), and in no words of the table's own: the roles, marks and facts a game
declares are the ones its card says, in the order it declares them."""

from __future__ import annotations

from rules.kit import cards
from table.templatetags.table_cards import card_reading, die_marks, facts, split_facts

CARD = cards.CardReading(
    roles={
        "kept": cards.DieRole("kept", counted=True, css="is-kept"),
        "gone": cards.DieRole("gone", plain=True),
    },
    marks=(
        cards.DieMark(("lucky", "blessed"), "lucky", css="is-lucky"),
        cards.DieMark(("cursed",), "cursed", css="is-lucky"),
    ),
    facts=(
        cards.CardFact("omens", "Omens", cards.counted),
        cards.TOTAL,
        cards.CardFact("doom", "Doom", cards.said_when_true("yes")),
    ),
)


def test_a_die_is_said_and_drawn_in_the_games_words():
    lucky = die_marks({"die": "d6", "face": 6, "role": "kept", "blessed": True, "cursed": 1}, CARD)
    assert lucky.role == "kept, lucky, cursed" and not lucky.role_spoken_only
    assert lucky.classes == "d6 counted is-lucky is-kept"  # a class once, marks' first
    gone = die_marks({"die": "d8", "face": 2, "role": "gone"}, CARD)
    assert (gone.role, gone.role_spoken_only, gone.classes) == ("gone", True, "d8")
    odd = die_marks({"die": "d7", "face": 2, "role": "rule_of_odd"}, CARD)
    assert (odd.role, odd.role_spoken_only, odd.classes) == ("rule of odd", False, "dx")


def test_the_facts_are_the_games_in_its_order():
    outcome = {"headline": "Total 7", "total": 7, "omens": ["a crow", "a cat"], "doom": True}
    assert facts(outcome, CARD) == [("Omens", "2"), ("Total", "7"), ("Doom", "yes")]
    assert split_facts(outcome, CARD) == {
        "shown": [("Omens", "2"), ("Doom", "yes")],
        "rest": [("Total", "7")],
    }
    # Another game's words are not this game's: the defaults know no omens.
    assert facts(outcome) == [("Total", "7")]


def test_a_game_the_registry_does_not_know_gets_the_default_card():
    assert card_reading("no-such-game") is cards.DEFAULT_CARD
