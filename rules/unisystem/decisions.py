"""Unisystem: the app's own readings where rules.md leaves room, by mechanic ID."""

from __future__ import annotations

from .rolls import MAX_REROLLS, MODIFIER_LIMIT
from .sheet import (
    ATTRIBUTE_MAX,
    ATTRIBUTE_MIN,
    LIFE_POINTS_MIN,
    LIFE_POINTS_RULE,
    NAMED_MODIFIER_LIMIT,
    SKILL_MAX,
    STARTING_DRAMA_POINTS,
)
from .table import ORDER

DECISIONS: dict[str, list[str]] = {
    "UNI-1": [
        f"Decision: attributes run from {ATTRIBUTE_MIN} to {ATTRIBUTE_MAX} (2 is an average "
        f"human) and skills from 0 to {SKILL_MAX}, so monsters fit on a sheet; a roll's free "
        f"modifier is between −{MODIFIER_LIMIT} and +{MODIFIER_LIMIT}, each named Quality or "
        f"Drawback modifier between −{NAMED_MODIFIER_LIMIT} and +{NAMED_MODIFIER_LIMIT}.",
    ],
    "UNI-2": [
        "Decision: the unskilled penalty is −1 to −5; the seed's −6 to −10 is allowed only for "
        "complex work (with reference material at hand).",
        "Decision: the 2-level cap applies when the GM marks the work as complex; the total "
        "and whether it succeeds are shown unchanged.",
        "Decision: a field that does not fit the kind of roll is refused, never ignored: a "
        "skill, an unskilled penalty or complex work on a test, a second attribute on a task "
        "or a test.",
    ],
    "UNI-3": [
        'Decision: past God-like (10 levels) a result is shown as "level 11", "level 12", …',
    ],
    "UNI-4": [
        "Decision: a preset chosen by name alone uses the first value in its range (Easy +5, "
        "Moderate +3, Average +1, Challenging 0, Difficult −1, Very Difficult −3, Heroic −6, "
        "Inhuman −10); the GM can pick any other value inside the range. A preset, a free "
        "modifier and named Quality/Drawback modifiers all add together. A preset can be "
        "named as the table gives it (Very Difficult) or by its key (very_difficult).",
        "Decision: the difficulty of the task at hand is the GM's. The GM sets it for the "
        "scene, a preset at a value in its range, in public or in secret; a player's Task, and "
        "each roll of a task worked on together (UNI-10), takes it whatever the request names, "
        "and with none set the player's roll has none (Challenging) and the GM judges the "
        "result. A preset in any other roll of a player's is left out: a resisted action's or "
        "a chase's difficulty is the other side's roll (UNI-5, UNI-13), a Fear Test's its "
        "fear modifiers (UNI-12). The GM stays free-form.",
        "Decision: against a difficulty the GM set behind the screen a player's roll is rolled "
        "blind: the GM sees how it went and reveals it. A public roll would show the modifier "
        "on the player's card, so it is refused.",
    ],
    "UNI-5": [
        "Decision: in a player's resisted action, chase or work together every other roller "
        "is a character named by their sheet (sheet_id, or table.target for a defender), "
        "rolling with that sheet's ratings and Qualities, or a Guest Star's or Adversary's "
        "fixed score named by their sheet (UNI-8); a side given as raw ratings or a typed "
        "score is refused, as the GM rolls those, and a player gives no modifier or "
        "difficulty of another character's. The GM stays free-form.",
        "Decision: a fixed Ability Score counts as that character's roll total, so the usual "
        "resisted rules apply: an acting cast member must beat it, a defending one must tie or "
        "beat it, and a score below 9 is a failed action that never wins.",
        "Decision: when both sides fail, nobody accomplishes anything even on equal totals; the "
        'lower total "fails more", and equal failing totals fail alike.',
        "Decision: an even contest (nobody defending, equal totals tie) needs both sides to "
        "roll; against a fixed Ability Score one side always acts and the other defends, so "
        "it is refused.",
        "Decision: a task or test already on the table may be resisted afterwards from its "
        "card: its total stands as the acting side's roll (it is not rolled again), the "
        "resister rolls as the defender and wins equal totals. Nobody resists their own roll, "
        "and a roll hidden from the resister cannot be resisted.",
    ],
    "UNI-6": [
        f"Decision: a die that rerolls more than {MAX_REROLLS} times in a row is refused as a "
        "corrupt record (a real roll will essentially never do it).",
    ],
    "UNI-8": [
        "Decision: either side of a resisted action may be a Guest Star's or Adversary's fixed "
        "score, named by its sheet and the score (Muscle, Combat, Brains): the table reads "
        "the number its sheet shows (the GM's override, if any), for a player as for the GM; "
        "a player never types the number.",
        "Decision: a Guest Star with no combat (or relevant) skills averages 0 for them.",
        "Decision: acting against a score below 9, a cast member still needs 9 to succeed.",
    ],
    "UNI-9": [
        "Decision: an attack total below 9 misses and deals no damage; Life Points can drop "
        f"below zero (down to {LIFE_POINTS_MIN}) and healing stops at the maximum when one is "
        "given.",
        f"Decision: a new character's Life Points and Maximum Life Points are {LIFE_POINTS_RULE} "
        "(26 for an average human), worked out from the sheet when it is made and when those "
        "attributes change while Life Points are still full; the seed gives no formula, so "
        "this is the usual Unisystem one, and the GM can change either at the table.",
        f"Decision: a new character starts with {STARTING_DRAMA_POINTS} Drama Points; the seed "
        "names Drama Points but gives no starting number.",
    ],
    "UNI-10": [
        "Decision: in a short task the helpers roll first, in the order listed, then the "
        "leader; the helpers' bonuses and penalties join the leader's total before success "
        "levels are read.",
    ],
    "UNI-11": [
        "Decision: levels past the requirement are kept in the running sum; a task that "
        "already has its levels must be started afresh.",
    ],
    "UNI-12": [
        ORDER.decision,
        "Decision: only a negative Attractiveness frightens (half, rounded toward zero); a "
        "handsome creature gives no bonus.",
        "Decision: a sudden encounter gives −2 even with no other fear modifier.",
        "Decision: familiarity (the GM's call, third or fourth encounter) removes the fear "
        "penalties (visage, hideousness, splatter, surprise) but not Qualities or other "
        "modifiers.",
        "Decision: the seed's horror options are offered: Willpower not doubled, or fear "
        "penalties doubled.",
        "Decision: on a Run Away! retest the total fear penalty eases by 1 per Turn spent "
        "running, never past 0.",
    ],
    "UNI-13": [
        "Decision: nobody defends in a chase: equal totals, or both failing, leave the lead "
        "where it was. The runner rolls first.",
        "Decision: a chase is over at a lead of 0 (caught) or +5 (escaped); another Turn is "
        "refused.",
    ],
    "UNI-14": [
        "Decision: the running start doubles the table distance; the roll's yards or feet are "
        "added after doubling. A failed roll adds nothing.",
    ],
}
