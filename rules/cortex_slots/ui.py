"""What the pages show of Cortex with slots besides its rules (`rules.kit.ui` says what
each declaration means): the GM's pool sets the difficulty (CTX-2), the panel counts
plot points only, the builder offers the Big Hero Die (CTX-6), the GM buys a hitch
from a roll card (CTX-4), a player buys the GM's from More actions, and the roller
moves a banked die from the card (CTX-3). Its cards name the slots and the Bank, badge
a hitch, the Big Hero Die and a bought die, and read a roll against a difficulty set
behind the screen as the roll would have (CTX-2, CTX-4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import cards
from ..kit.ui import (
    FROM_TABLE,
    KEPT_DICE,
    FieldControl,
    FieldWords,
    GameUi,
    OppositionRoll,
    on_card,
    small_int,
)
from .rolls import SPEND_KINDS, beats

SLOTS = {"total": "The total", "effect": "The effect die"}


def buy_hitch(form: Mapping[str, Any]) -> dict[str, Any]:
    """CTX-4: the GM buys the card's hitch number `index` of roll `seq`."""
    return on_card(form, {"buyer": "gm", "index": small_int(form.get("index"))})


def bank_die(form: Mapping[str, Any]) -> dict[str, Any]:
    """CTX-3: the roller's card names the kept roll `seq`, its banked die `index` and the
    slot it joins; the table reads the dice and the plot points."""
    return on_card(
        form,
        {
            "index": small_int(form.get("index")),
            "to": str(form.get("to", "")).strip()[:10],
        },
    )


def buy_gms_hitch(form: Mapping[str, Any]) -> dict[str, Any]:
    """CTX-4, CTX-7: a player's character (the form's sheet) buys the hitch `index` of the
    GM's roll on card `seq` for 1 plot point; the table reads the dice and who buys."""
    return on_card(form, {"index": small_int(form.get("index"))})


def gms_hitches(
    action: str,
    request: Mapping[str, Any],
    outcome: Mapping[str, Any],
    traits: tuple[tuple[str, str, int | None], ...],
) -> list[tuple[str, dict[str, str]]]:
    """CTX-4, CTX-7: each hitch of a GM's roll a player's character may buy (an
    Opportunity, 1 plot point), in one tap."""
    if outcome.get("hitch_buyer") != "players":
        return []
    return [
        (f"Buy {d.get('trait') or d.get('die')} {d.get('die')} (1 plot point)", {"index": str(i)})
        for i, d in enumerate(outcome.get("dice") or [])
        if isinstance(d, Mapping) and d.get("hitch") and not d.get("bought")
    ]


def behind_the_screen(outcome: Mapping[str, Any], secret: Mapping[str, Any]) -> str:
    """CTX-2, CTX-4 on the GM's card: a player's roll against the difficulty set in
    secret, scored as the roll scores one set in the open (a botch fails; a botched GM
    pool fails the GM's side)."""
    total, value, pooled = outcome.get("total"), secret.get("value"), bool(secret.get("botch"))
    if outcome.get("botch"):
        verdict = "failure (a botch)"
    else:
        scored = beats(total, False, value if isinstance(value, int) else None, pooled)
        verdict = "success" if scored else "failure"
    return f"{value}{', from a botched pool' if pooled else ''}: {verdict}, total {total}"


CARD = cards.CardReading(
    roles={
        **cards.CORTEX_ROLES,
        "total": cards.DieRole("Total slot", counted=True),
        "bank": cards.DieRole("Bank"),
    },
    marks=(
        cards.DieMark(("hitch",), "hitch", css="is-one"),
        cards.DieMark(("big_hero",), "Big Hero Die"),
        cards.DieMark(("bought", "from_bank"), "bought"),
    ),
    facts=(
        cards.RESULT,
        cards.TOTAL,
        cards.AGAINST,
        cards.EFFECT,
        cards.CardFact("effect_level", "Effect level"),
        cards.DAMAGE,
        cards.MARGIN,
        cards.CardFact("hitches", "Hitches"),
        cards.PLOT_POINTS_SPENT,
        cards.COMPLICATIONS,
        cards.OUTCOME,
        cards.BOTCH,
    ),
    secret_score=behind_the_screen,
)

UI = GameUi(
    panel_counters=("plot_points",),
    difficulty_from="roll ",
    opposition=OppositionRoll(
        fields="dice",
        action="gm_pool",
        group="difficulty",
        missing="Give the GM pool's dice, like: d8, d6, d6",
        note=" (sets the difficulty)",
    ),
    card_help=", buy hitches",
    card_actions={"buy_hitch": buy_hitch},
    card_moves={"bank_move": bank_die, "buy_hitch": buy_gms_hitch},
    card_move_picks={"buy_hitch": gms_hitches},
    card=CARD,
    # CTX-3, CTX-4: the dice are the earlier roll's, kept by the table (table.roll).
    action_fields={
        "bank_move": {
            "dice": FieldControl(FROM_TABLE),
            # CTX-6: the Big Hero Die is never in the Bank.
            "index": FieldControl(
                KEPT_DICE,
                source="rolls",
                slots=(("", 1),),
                label="The banked die",
                apart="big_hero",
            ),
        },
        "resplit": {
            "dice": FieldControl(FROM_TABLE),
            "split": FieldControl(
                KEPT_DICE,
                source="rolls",
                slots=(("total", 2), ("effect", 1)),
                label="The new split: two dice for the total, one for the effect",
                # CTX-6: the Big Hero Die joins the Total or the Effect slot by name.
                apart="big_hero",
                apart_choices=(
                    ("total", "The Big Hero Die adds to the Total"),
                    ("effect", "The Big Hero Die goes to the Effect slot"),
                ),
            ),
        },
        "buy_hitch": {"dice": FieldControl(FROM_TABLE)},
        # CTX-9: the points held, the milestones and the trait's die are the sheet's.
        "advance": {
            key: FieldControl(FROM_TABLE)
            for key in ("advance_points", "milestones", "from", "signature")
        },
    },
    # CTX-4, CTX-7: a player buys a hitch of the GM's roll from their own page (the roll
    # card's menu is the GM's): the hitch picked from the kept roll, the rest the table's.
    player_fields={
        "buy_hitch": {
            "buyer": FieldControl(FROM_TABLE),
            "dice": FieldControl(FROM_TABLE),
            "scene": FieldControl(FROM_TABLE),
            "plot_points": FieldControl(FROM_TABLE),
            "index": FieldControl(
                KEPT_DICE,
                source="rolls",
                slots=(("", 1),),
                label="The GM's hitch to buy (1 plot point: an Opportunity)",
                pick_if="hitch",
                pick_unless="bought",
                roll_unless=(("roller_kind", "pc"),),
            ),
        },
    },
    # CTX-4, CTX-7 in the players' words.
    field_words={
        "spend_plot_point": {
            "kind": FieldWords(
                label="Spend it to",
                choices={kind: words.capitalize() for kind, words in SPEND_KINDS.items()},
            ),
            "description": FieldWords(
                label="What changes", help="for a scene change, or how the character stays in"
            ),
            "target": FieldWords(
                label="Step down",
                help="for an Opportunity",
                choices={"difficulty": "The difficulty", "complication": "A complication"},
            ),
            "die": FieldWords(help="the Opportunity's, the asset's or the Big Hero Die's size"),
            "asset": FieldWords(help="the asset to step up, activate or create"),
            "to": FieldWords(label="Move the banked die to", choices=SLOTS),
        },
        "buy_hitch": {
            "buyer": FieldWords(
                label="Who buys it", choices={"gm": "The GM", "players": "The players"}
            ),
            "index": FieldWords(label="Which hitch", help="counted from 0 among the roll's dice"),
            "scene": FieldWords(label="Scene", help="the scene the hitch's die lasts for"),
            "botch": FieldWords(
                label="Buy the GM's whole botch",
                help="instead of one hitch: at most three of its hitches are bought",
            ),
        },
        "bank_move": {"to": FieldWords(label="Move it to", choices=SLOTS)},
        "advance": {
            "operation": FieldWords(
                label="Advance",
                choices={
                    "award": "Give the session award (GM)",
                    "raise": "Raise a trait one step",
                },
            ),
            "session_award": FieldWords(label="Session award", help="for the award"),
            "milestone_points": FieldWords(label="Milestone points", help="for the award"),
            "group": FieldWords(
                label="Kind of trait",
                help="to raise",
                choices={
                    "attributes": "Attribute",
                    "distinctions": "Distinction",
                    "skills": "Skill",
                    "talents": "Talent",
                    "assets": "Asset",
                },
            ),
            "trait": FieldWords(label="Trait", help="its name, as on the sheet"),
            "to": FieldWords(label="Raised to", help="one step up"),
        },
    },
)
