"""Serenity Plus: the app's own readings where rules.md leaves room, by mechanic ID."""

from __future__ import annotations

from .table import ORDER

DECISIONS: dict[str, list[str]] = {
    "SER-1": [
        "Decision: each Refinement in a pool names the Stylin' it is filed under, and it "
        "must be the Stylin' being rolled.",
        "Decision: a pool may also hold the other side's Complication and Stress dice when "
        "they hinder that side (the benefits of SER-10 refer to such dice); a stress die "
        "names its type.",
        "Decision: the GM's pool (a situation, an opposing crew, a GM character) is "
        "free-form: any of these dice plus Situation dice, with no Stylin' required.",
        "Decision: a roll may say what it is for (its goal, as a contest's sides do in "
        "SER-6); the card shows it, and it changes nothing in the resolution.",
    ],
    "SER-3": [
        "Decision: activating a complication with the name of one the character already has "
        "steps that one up; a d12 complication cannot step up, so the GM names a new one.",
    ],
    "SER-4": [
        "Decision: a botch (no die above 1) has a d4 effect die.",
    ],
    "SER-5": [
        "Decision: a pool the GM rolls in a scene (outside a contest) is the opposition: its "
        "result is the number to beat for the players' following rolls in that scene, until "
        "the GM rolls another or sets a number instead (a number the GM sets works the same). "
        "Each such roll's card says success or failure, and by how much.",
        "Decision: against an opposition rolled or set behind the screen, a player's roll is "
        "sealed for every player, the roller too, until the GM reveals the opposition; then "
        "it reads in full, with its outcome.",
    ],
    "SER-6": [
        ORDER.decision,
        "Decision: the first roll of a contest sets the mark, whatever it is; from then on "
        "each roll must strictly beat the other side's last result.",
        "Decision: only the side whose turn it is can give in, instead of rolling.",
        "Decision: a side may restate its goal with each roll.",
    ],
    "SER-7": [
        "Decision: the seed names no stress types; as its contests follow Smallville's, "
        "Serenity Plus uses Smallville's five: Afraid, Angry, Exhausted, Injured, Insecure.",
        "Decision: a character taken out keeps a d12 of that stress type.",
    ],
    "SER-8": [
        "Decision: plot points named with the roll that find no die above 1 left to add are "
        "not spent. Plot points may also be spent after seeing the dice: the same recorded "
        "faces are resolved again with more plot points.",
    ],
    "SER-9": [
        "Decision: a challenged d4 Value steps down to nothing: it is removed after the roll.",
    ],
    "SER-10": [
        "Decision: in a contest, as the seed says, the extraordinary success is scored when "
        "the other side fails to beat your result by 5 or more; it comes with the stress.",
        "Decision: in a test the GM's character scores one by beating the player by 5 or more.",
        "Decision: a roll against the number to beat the GM's opposition set scores an "
        "extraordinary success as a test does, either way; the opposition's dice are those "
        "of the GM pool that set it (none for a number the GM set).",
        "Decision: a test inflicts no stress, so stepping up a stress die is offered only in "
        "contests; dice already at d12 are never offered a step up.",
        "Decision: a session Asset lasts from its promotion until the GM starts a new "
        "session, whatever scenes end meanwhile, and keeps its die; a new session lists the "
        "ones that expired.",
        "Decision: an Asset named for promotion that the table keeps for no scene (Serenity "
        "Plus makes scene Assets up in play) becomes a d6 session Asset, the size of a new "
        "Asset; an Asset on the winner's sheet already outlasts a session, so it cannot be "
        "promoted.",
        "Decision: a scene or session Asset may go in any character's pool where it applies; "
        "its die is the one the table keeps, and stepping up an Asset used in the roll steps "
        "that die up.",
    ],
    "SER-11": [
        "Decision: whoever builds the pool names the fitting Refinement, if any; the pool "
        "builder then suggests it with its own Stylin', otherwise Finaglin' alone.",
    ],
}
