"""What a roll card says of an outcome, declared by its game: the words of each die's
role and the marks it may carry, the facts under the headline, and how a roll reads
against a difficulty the GM set behind the screen.

The table draws every card the same way (table/jinja2/table/card_body.html) and knows
none of these words: it reads them from the game's `UI.card`, a CardReading, built
once when the game's package is read. A game that declares none gets DEFAULT_CARD: the
common facts (result, total, what it was against, damage, margin, success or failure)
and the common roles of a die.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# A fact's reading: (its value in the outcome, the whole outcome) -> the words shown, or
# None when the card shows nothing for it.
FactReader = Callable[[Any, Mapping[str, Any]], "str | None"]
# The GM's reading of a roll against a difficulty set in secret: (the outcome, the secret
# difficulty as the table kept it: value, seq and what else the game noted) -> the words
# after "the difficulty set in secret (#seq) is": the difficulty, then how the roll went.
SecretScore = Callable[[Mapping[str, Any], Mapping[str, Any]], str]


@dataclass(frozen=True)
class DieRole:
    """What a die's `role` in the outcome's dice means on the card: its words; whether
    it counted (drawn filled); a class that draws it apart (`is-effect`, `is-one`); and
    whether the fill says all of it (`plain`: the words are then only spoken)."""

    words: str
    counted: bool = False
    css: str = ""
    plain: bool = False


@dataclass(frozen=True)
class DieMark:
    """A badge on a die whose outcome entry sets any of `flags` (a natural 10, a die
    bought with a point): `words` said after its role, and a class that draws it apart."""

    flags: tuple[str, ...]
    words: str
    css: str = ""


def plain(value: Any, outcome: Mapping[str, Any]) -> str | None:
    """A number or a word as it is; nothing for an empty value, a flag or a structure."""
    if value is None or value == "" or isinstance(value, Mapping | list | bool):
        return None
    return str(value)


def counted(value: Any, outcome: Mapping[str, Any]) -> str | None:
    """How many there are, for a list (the dice set aside, say); nothing when it is empty."""
    return str(len(value)) if value and isinstance(value, list) else None


def said_when_true(words: str) -> FactReader:
    """A flag the card shows only when it is set, in these words."""

    def read(value: Any, outcome: Mapping[str, Any]) -> str | None:
        return words if value is True else None

    return read


def success_words(value: Any, outcome: Mapping[str, Any]) -> str | None:
    """True or False as success or failure; a graded outcome ("glancing") in words."""
    if isinstance(value, bool):
        return "success" if value else "failure"
    if isinstance(value, str):
        return value.replace("_", " ")
    return None


@dataclass(frozen=True)
class CardFact:
    """One of the outcome's facts on the card: the outcome's `key`, its label, and how
    its value reads (None: `plain`, which the table reads without a call)."""

    key: str
    label: str
    read: FactReader | None = None


def beat_the_number(outcome: Mapping[str, Any], secret: Mapping[str, Any]) -> str:
    """A roll's total against a number to beat."""
    total, value = outcome.get("total"), secret.get("value")
    won = isinstance(value, int) and isinstance(total, int) and total > value
    return f"{value}: {'success' if won else 'failure'}, total {total}"


RESULT = CardFact("result", "Result")
TOTAL = CardFact("total", "Total")
AGAINST = CardFact("difficulty", "Against")
DAMAGE = CardFact("damage", "Damage")
MARGIN = CardFact("margin", "Margin")
OUTCOME = CardFact("success", "Outcome", success_words)
COMMON_FACTS = (RESULT, TOTAL, AGAINST, DAMAGE, MARGIN, OUTCOME)

COMMON_ROLES: Mapping[str, DieRole] = {
    "result": DieRole("counted", counted=True, plain=True),
    "unused": DieRole("not counted", plain=True),
    "roll": DieRole("rolled", counted=True, plain=True),
    "compared": DieRole("compared", counted=True, plain=True),
}


@dataclass(frozen=True)
class CardReading:
    """A game's words on its roll cards.

    roles: a die's role -> DieRole (a role not in it is shown as it is, not counted).
    marks: the badges a die may carry, in the order they are said. facts: the outcome's
    facts, in the order the card lists them (the first two the headline does not say
    stay in sight). secret_score: the GM's card's reading of a roll against a
    difficulty set behind the screen.
    """

    roles: Mapping[str, DieRole] = field(default_factory=lambda: dict(COMMON_ROLES))
    marks: tuple[DieMark, ...] = ()
    facts: tuple[CardFact, ...] = COMMON_FACTS
    secret_score: SecretScore = beat_the_number


DEFAULT_CARD = CardReading()

# The Cortex family's cards: a result and an effect die, plot points spent in the roll,
# the 1s set aside as complications, and a botch when no die came up above 1.
EFFECT = CardFact("effect", "Effect")
PLOT_POINTS_SPENT = CardFact("plot_points_spent", "Plot points spent")
COMPLICATIONS = CardFact("complications", "Complications", counted)
BOTCH = CardFact("botch", "Botch", said_when_true("yes"))
CORTEX_FACTS = (
    RESULT,
    TOTAL,
    AGAINST,
    EFFECT,
    DAMAGE,
    MARGIN,
    PLOT_POINTS_SPENT,
    COMPLICATIONS,
    OUTCOME,
    BOTCH,
)
CORTEX_ROLES: Mapping[str, DieRole] = {
    **COMMON_ROLES,
    "effect": DieRole("effect die", counted=True, css="is-effect"),
    "complication": DieRole("1: complication", css="is-one"),
}
CORTEX_CARD = CardReading(roles=CORTEX_ROLES, facts=CORTEX_FACTS)
