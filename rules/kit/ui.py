"""What the pages show of a game, declared as plain data by its package.

The pages (campaigns, sheets, table) name no game: they ask the registry's GameSystem,
whose `ui` is the package's UI (a GameUi), whose `partials` finds the game's template
partials, and whose `scores` is its SCORES (computed scores on some sheets). A package
that declares none of these gets the defaults below, and the pages still work: the
generic panel, the generic builder, no opposition roll, no scores.

Template partials live in `templates/games/<slug>/` (the package's TEMPLATES names
another folder), with a default for each in `templates/games/default/`; pieces that
several games include are in `templates/games/kit/`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import DEFAULT_CARD, CardReading

DEFAULT_TEMPLATES = "games/default"
KIT_TEMPLATES = "games/kit"
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,%d}")

CardAction = Callable[[Mapping[str, Any]], dict[str, Any]]
# A card move's second tap, per member: (the card's action, its request, its outcome,
# one of the member's characters' traits as (group, name, rating)) -> the choices, each
# its button's words and the values it sends to the move.
MovePicker = Callable[
    [str, Mapping[str, Any], Mapping[str, Any], tuple[tuple[str, str, int | None], ...]],
    list[tuple[str, dict[str, str]]],
]


@dataclass(frozen=True)
class Partials:
    """A game's template partials by name, each with the default behind it.

    `partials["pool_options"]` (in a Django template: `game.partials.pool_options`) is
    ["games/<slug>/pool_options.html", "games/default/pool_options.html"], the list an
    include picks the first existing template of; a name with an extension is taken
    as it is (`partials["card_controls.jinja"]`, for the Jinja2 roll card). A name
    "kit/<name>" is a piece several games share: the game's own <name> first, then the
    one in templates/games/kit/.
    """

    folder: str

    def __getitem__(self, name: str) -> list[str]:
        if not isinstance(name, str) or not re.fullmatch(r"(kit/)?[a-z0-9_]+(\.[a-z0-9]+)?", name):
            raise KeyError(name)
        shared, _, name = name.rpartition("/")
        file = name if "." in name else f"{name}.html"
        behind = f"{KIT_TEMPLATES}/{file}" if shared else f"{DEFAULT_TEMPLATES}/{file}"
        return [f"{self.folder}/{file}", behind]


@dataclass(frozen=True)
class OppositionRoll:
    """The GM dashboard's "Roll opposition" form.

    fields: "dice" (named dice, each put in `group` and rolled as `action`), "rating"
    (who, attribute and skill, rolled as `action` with `extra`), or "" (no such form).
    missing: what to say when the form gives nothing to roll. refusal: the form is
    shown but the game's GM side rolls elsewhere; this says where. note: more words
    after "Roll opposition"; dice_help: more words under the dice field.
    """

    fields: str = ""
    action: str = ""
    group: str = ""
    missing: str = ""
    refusal: str = ""
    note: str = ""
    dice_help: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)  # more of a "rating" request

    def nothing_to_roll(self) -> str:
        if self.missing:
            return self.missing
        if self.fields == "rating":
            return "Give the attribute (and skill) the GM character rolls."
        return "Pick at least one die to roll: a size, and a name like Armed thugs."


# The situation's dice against the players, rolled like a player's pool.
SITUATION_POOL = OppositionRoll(
    fields="dice",
    action="roll",
    group="situation",
    missing="Give the opposition's dice, like: d8 Armed thugs, d6",
)


@dataclass(frozen=True)
class PoolAdditions:
    """What the GM may add to a player's pool while the player builds it (the pool in
    the open): dice of the other side that the game's roll takes from the table,
    by sheet group (SER-1: another character's complications and stress; SMV-4, SMV-5:
    their stress and Limits), each named with its holder so the roll reads its die from
    the table again. `groups` empty: the GM watches the pool and its odds, and adds
    nothing to it (the d10 games' difficulty and bonus dice are set on the dashboard,
    as table state). `note`: words under the GM's picker."""

    groups: tuple[str, ...] = ()
    note: str = ""

    def merge(self, request: Mapping[str, Any], entries: list[Mapping[str, Any]]) -> dict:
        """The roll's request with the GM's entries joined to its pool (the request of
        a game without a pool list is returned as it is)."""
        out = dict(request)
        pool = out.get("pool")
        if entries and isinstance(pool, list):
            out["pool"] = [*pool, *(dict(e) for e in entries)]
        return out


# How the table page's "More actions" form asks for a field its schema leaves nested.
POOL, DICE, CHARACTER, PEOPLE, FROM_TABLE = "pool", "dice", "character", "people", "from_table"
KEPT_DICE = "kept_dice"


@dataclass(frozen=True)
class FieldControl:
    """One nested field of an action as the More-actions form asks for it, so nobody
    types JSON: the member picks, the server fills the values.

    kind POOL: a character's traits, ticked and turned into the pool builder's request
    (the same request its Roll button makes); `whose` is "acting" (the form's character)
    or "picked" (a character chosen beside the traits, its id put under `sheet_key`);
    `take` keeps only those keys of the builder's request, or `only` the value of one.
    kind DICE: dice picked by size and name, each in `group`. kind PEOPLE: characters
    picked, as their names (`by_id`: as {"sheet_id": id} each, for the table to read
    their sheets, with the rolled keys of the field `like` names copied in: they
    roll the same); CHARACTER: one character's name. kind KEPT_DICE: dice of a roll
    the scene keeps (its state's `source`: {seq: {"dice": [...]}}), picked into `slots`
    ((slot, how many dice), ...): the value is {slot: index, or [indices]}, or the one
    index when the one slot is named ""; the roll picked is the request's table.roll. kind FROM_TABLE: the
    table fills it from the sheet, the scene or an earlier roll, so it is not asked.
    `wrap` puts the value under that key; `label` names the field on the form.
    """

    kind: str
    whose: str = "acting"
    sheet_key: str = ""
    take: tuple[str, ...] = ()
    only: str = ""
    group: str = ""
    wrap: str = ""
    label: str = ""
    by_id: bool = False
    like: str = ""
    source: str = ""
    slots: tuple[tuple[str, int], ...] = ()
    # KEPT_DICE: a die flagged `apart` in the kept roll is never picked by number; with
    # `apart_choices` ((value, label), ...) the form asks where it goes, put under `apart`.
    apart: str = ""
    apart_choices: tuple[tuple[str, str], ...] = ()
    # KEPT_DICE: only dice with the flag `pick_if` set, and `pick_unless` not set, are
    # offered (CTX-4: a hitch not bought yet); a roll with none of them is not listed.
    pick_if: str = ""
    pick_unless: str = ""
    # KEPT_DICE: (key, value) pairs; a kept roll whose record holds any of them is not
    # listed (CTX-4: a player buys the GM's hitches, not a player's).
    roll_unless: tuple[tuple[str, Any], ...] = ()
    # POOL: or, instead of a roll, the fixed score of a character who has scores (the
    # game's SCORES, UNI-8), picked by character and score: the value is then
    # {"sheet_id": id, "score_of": the score's key}, and the table reads the number.
    score: bool = False


@dataclass(frozen=True)
class FieldWords:
    """A plain field of a More-actions form in the game's words: its label, the help
    under it, and the words of each choice (by the choice's value)."""

    label: str = ""
    help: str = ""
    choices: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GameUi:
    """What the table and sheet pages need to know of a game besides its rules.

    panel_counters: the counters the scene panel shows for each character (None: the
    sheet's counters kept at the table); panel_groups: the sheet groups whose dice it
    shows (None: the groups kept at the table: stress, conditions...). difficulty_is_target: a difficulty set for the
    scene is the number to beat (False: it is a modifier to the roll, UNI-4).
    builder_from_table: a player's pool builder takes the GM's difficulty and bonus
    dice from the table (PER-1, UNI-4). difficulty_from: the word before a difficulty's
    "#seq" on the panel ("roll " when a roll set it). difficulty_help: the GM's hint
    under "Set the difficulty"; secret_note and secret_help: what a difficulty set behind
    the screen means, for the players (the scene panel) and for the GM (under the form).
    target_field, target_label and target_placeholder: the builder's
    "Number to beat" field (its label), and what it shows when the table has no number.
    challenge_groups: the sheet groups whose picked traits the builder offers to
    challenge. choices: option lists the game's partials show (by name).
    session_note: more words on what a new session does. card_help: more words on
    what the GM's buttons on a roll card do. card_actions: those buttons, by action
    name, each reading its form into the action's request. card_moves: the common
    moves of the game one or two taps from a roll card (a plot point spent after the
    roll, the answer to a challenge), by action name, read the same way; the card shows
    them to those who may take them (the character's player, the GMs), and the action's
    transition decides again who may (`table.pages.moves`). card_move_picks: for a move
    taken with one of the member's own characters against another's roll (UNI-5: resist
    it; CTX-4: buy the GM's hitch), action name -> the MovePicker listing each character's choices, which the card
    loads when the move is opened (the card itself is the same for every player).
    rating_labels: sheet group
    key -> (the add form's label, the column's title) for a rating that is not one.
    additions: what the GM may add to a player's pool while it is built.
    action_fields: action name -> field -> FieldControl, for the fields the action's
    schema leaves nested (the More-actions form's pickers). played_elsewhere: action
    name -> where the pages play it besides the table (the sheet page). field_words:
    action name -> field -> FieldWords, the game's words for a plain field of the
    More-actions form (otherwise it is named from the schema). player_fields: action
    name -> field -> FieldControl, a player's pickers where they differ from the GM's:
    for an action of `card_actions` a player takes too (the roll card's menu is the GM's,
    so a player gets a More-actions form for it: SMV-9, CTX-4), and where a player, who
    always acts as a character, is not asked what the sheet or the logged roll gives and
    the GM, who may act for no one, types (SER-10's margin, Unisystem's attributes).
    card: the game's words on its roll cards (its dice's roles and marks, the outcome's
    facts, a roll read against a difficulty set behind the screen: rules.kit.cards).
    """

    panel_counters: tuple[str, ...] | None = None
    panel_groups: tuple[str, ...] | None = None
    difficulty_is_target: bool = True
    builder_from_table: bool = False
    # The sheet group by which another character resists in the pool builder (PER-5: the
    # skill a reactor rolls); the builder offers each character the member sees, with the
    # traits of that group. Empty: the builder offers no other side.
    against_group: str = ""
    difficulty_from: str = ""
    difficulty_help: str = ""
    # What a difficulty set behind the screen means for a player's roll: on the scene
    # panel, and under the GM's "Set the difficulty".
    secret_note: str = "the GM scores your roll"
    secret_help: str = "Set in secret, players roll against it blind and you reveal how it went."
    target_field: bool = True
    target_label: str = "Number to beat"
    target_placeholder: str = ""
    challenge_groups: tuple[str, ...] = ()
    choices: Mapping[str, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)
    opposition: OppositionRoll = OppositionRoll()
    session_note: str = ""
    card_help: str = ""
    card_actions: Mapping[str, CardAction] = field(default_factory=dict)
    card_moves: Mapping[str, CardAction] = field(default_factory=dict)
    card_move_picks: Mapping[str, MovePicker] = field(default_factory=dict)
    rating_labels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    additions: PoolAdditions = PoolAdditions()
    action_fields: Mapping[str, Mapping[str, FieldControl]] = field(default_factory=dict)
    played_elsewhere: Mapping[str, str] = field(default_factory=dict)
    field_words: Mapping[str, Mapping[str, FieldWords]] = field(default_factory=dict)
    player_fields: Mapping[str, Mapping[str, FieldControl]] = field(default_factory=dict)
    card: CardReading = DEFAULT_CARD

    def rating_label(self, group_key: str) -> tuple[str, str]:
        return self.rating_labels.get(group_key, ("Rating of", "Rating"))


DEFAULT_UI = GameUi()


@dataclass(frozen=True)
class Score:
    """One computed score of a sheet, as its page shows it."""

    key: str
    name: str
    computed: int | None
    override: int | None
    value: int | None
    levels: int
    level_name: str
    acting: int | None
    defending: int | None


@dataclass(frozen=True)
class Scores:
    items: tuple[Score, ...]
    explanation: str
    error: str = ""

    def by_key(self) -> dict[str, Score]:
        return {s.key: s for s in self.items}


@dataclass(frozen=True)
class SheetScores:
    """Scores a game computes from some sheets (the GM may type one instead).

    npc_kinds: the GM characters' kinds that have them, `holders` the same in words.
    keys: the scores, in order; `title` what they are called. groups: the trait groups
    they are computed from. compute(traits, overrides): the Scores, from any objects
    with the attributes group, name, rating and flags.
    """

    npc_kinds: tuple[str, ...]
    keys: tuple[str, ...]
    groups: tuple[str, ...]
    compute: Callable[[Any, Mapping[str, int] | None], Scores]
    title: str = "Scores"
    holders: str = "some GM characters"


def whole_number(value: object, digits: int = 9) -> int | None:
    """An ASCII whole number of at most `digits` digits, or None ("²".isdigit() is True)."""
    raw = str(value if value is not None else "").strip()
    return int(raw) if re.fullmatch(WHOLE_NUMBER.pattern % digits, raw) else None


def small_int(value: object) -> int | None:
    """A form's small whole number (at most 5 digits), or None."""
    return whole_number(value, digits=5)


# A Cortex-family game whose tests are read against the scene's opposition: a pool the GM
# rolls, or a number the GM sets, is the number to beat, which the builder shows from the
# table and the roll reads there (rules.kit.builder.to_beat); a typed number only asks
# the odds "what if". GameUi(**AGAINST_THE_TABLE, ...).
AGAINST_THE_TABLE: dict[str, Any] = {
    "builder_from_table": True,
    "target_label": "Odds against another number",
    "difficulty_help": "Players' rolls must beat this number, as they must beat the result "
    "of an opposition pool (which sets a new one).",
    "secret_note": "your roll's card opens when it is revealed",
    "secret_help": "Rolled or set in secret, players' rolls against it show sealed until "
    "you reveal it; then their cards say how they went.",
}


def on_card(form: Mapping[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """A move's request from a roll card, pointed at the roll the card shows (the form's
    `seq`, as the table's `roll`): the table reads that roll's dice and outcome."""
    seq = small_int(form.get("seq"))
    if seq is not None:
        request["table"] = {"roll": seq}
    return request
