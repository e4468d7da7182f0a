"""Smallville: the app's own readings where rules.md leaves room, by mechanic ID."""

from __future__ import annotations

from .table import ORDER

DECISIONS: dict[str, list[str]] = {
    "SMV-1": [
        "Decision: the sheet's Values are Smallville's six: Duty, Glory, Justice, Love, "
        "Power and Truth.",
        "Decision: the Watchtower's pools need no Value or Relationship (she often rolls a "
        "situation) and may hold Situation dice; every other die costs her what it costs "
        "a player.",
    ],
    "SMV-2": [
        "Decision: only the Value and the first Relationship, the ones the conflict is about, "
        "can be challenged; a further Relationship costs 1 plot point for one die.",
        "Decision: a challenged d4 steps down to nothing: it is removed when the conflict ends.",
    ],
    "SMV-4": [
        "Decision: a stress die in a pool names its stress type.",
        "Decision: 'anyone' is anyone but the roller: a character's own stress (or own "
        "Limit, SMV-5) never joins their own pool. A player's stress die names whose it is, "
        "and its size is the one that character holds.",
    ],
    "SMV-5": [
        "Decision: one opponent Limit per roll; its entry names the linked Ability, so the "
        "roll can offer the Shut Down.",
    ],
    "SMV-6": [
        "Decision: a player's Useful Detail is always a d6. A die the Watchtower takes out of "
        "the Trouble Pool replaces both the d6 and the plot point.",
        "Decision: a Useful Detail reused in its scene is marked as reused and is free; the "
        "table reads whether a name was made earlier in the scene, and its die, from the "
        "scene itself. A player reuses only a d6 detail: a larger one the Watchtower took "
        "out of the Trouble Pool is hers.",
    ],
    "SMV-7": [
        "Decision: Resources are two sheet groups, Locations and Extras. A side die that "
        "rolls 1 adds nothing (a 1 never counts) and is not a complication.",
        "Decision: the outcome lists the sheet's Resources the roll used, so the sheet can "
        "mark them used for the session.",
        "Decision: a Resource 'not on your sheet' is another character's Location or Extra, "
        "named with its holder and rolled at the die on their sheet, for 1 plot point; a "
        "player cannot bring in a Resource no sheet holds (the Watchtower can).",
        "Decision: a session runs from one 'Start a new session' the GM marks at the "
        "table to the next; Resources marked used are free again from that mark, and voiding "
        "the roll that used one frees it.",
    ],
    "SMV-8": [
        "Decision: the effect die comes from the main pool only; side dice add to the "
        "result but never give the effect.",
        "Decision: plot points named with the roll that find no main die above 1 left to add "
        "are not spent.",
    ],
    "SMV-9": [
        "Decision: a roll whose main dice all show 1 fails outright with result 0, whatever "
        "the side pool shows.",
        "Decision: when the Watchtower pays for several 1s of one roll, the first adds a d6 "
        "and each further 1 steps that die up; past d12 the next 1 starts a new d6.",
        "Decision: for each 1 the Watchtower rolls, the player removes the Trouble Pool die "
        "they name (of that size or smaller), or else the largest such die.",
        "Decision: the size of the Watchtower's 1 is read from her roll (the one the player "
        "picks, or her latest with a 1 not yet answered), never from the player; each of her "
        "1s answers one removal, and the smallest 1 that allows the die named is used.",
    ],
    "SMV-10": [
        ORDER.decision,
        "Decision: a test against the Watchtower works as SER-5: the player must roll "
        "strictly higher, a tie fails.",
        "Decision: a pool the Watchtower rolls in a scene (outside a contest) is the "
        "opposition: its result is the number to beat for the players' following rolls in "
        "that scene, until she rolls another or sets a number instead; each such roll's card "
        "says success or failure. Against one rolled or set behind the screen, the roll is "
        "sealed for every player until the Watchtower reveals it.",
        "Decision: Smallville has no extraordinary successes (SER-10 is Serenity Plus's).",
    ],
}
