"""Personae: the app's own readings where rules.md leaves room, by mechanic ID."""

from __future__ import annotations

from .table import ORDER

DECISIONS: dict[str, list[str]] = {
    "PER-1": [
        "Decision: the seed gives no ranges, so a sheet holds skills of 0–10 dice, attributes "
        "of 0–10 and a Potential Threshold of 1–10; a roll adds at most 10 bonus dice and "
        "modifiers between −20 and +20.",
        "Decision: every side rolls at least one die: a skill rated 0 (not unlocked) with no "
        "bonus dice still rolls one d10.",
        "Decision: a challenge against a fixed number compares the actor's total with that "
        "number. The number has no dice to yield, so on a tie an actor with another die wins by "
        "yielding (a glancing success, or a clear one with a nat-10) and an actor with a single "
        "die leaves the tie unbroken. "
        "The actor's nat-10 rules (PER-4) apply; the reactor's (PER-5) cannot.",
        "Decision: bonus dice are the GM's to give. The GM grants a player's character N "
        "bonus dice (1–10) for their next challenge, in public or in secret; that challenge "
        "(or concerted effort they coordinate) rolls exactly the granted dice, whatever the "
        "request says, and uses the grant up, even when a critical buys the success without a "
        "roll. A character without a grant rolls no bonus dice. A new grant replaces one not "
        "yet used, and a grant of 0 withdraws it. The GM types the bonus dice of GM characters "
        "when rolling for them.",
        "Decision: a grant lasts for its scene: one not used when the scene ends expires with "
        "it, as the circumstance that earned it is over. A grant in secret is the GM's "
        "surprise: players learn of it when the challenge rolls it.",
        "Decision: a player names the other side and never gives its numbers. The reactor is "
        "a character named by their sheet, rolling the skill named and its attribute from "
        "that sheet, without bonus dice or modifiers from the request; a fixed number is the "
        "difficulty the GM set for the scene, whatever the request says. With no difficulty "
        "set, a player's challenge against a number is refused: the GM sets one, or the "
        "player names the character they challenge. The GM stays free-form.",
        "Decision: against a difficulty the GM set behind the screen a player's challenge is "
        "rolled blind: the GM sees how it went and reveals it when the fiction does. A public "
        "roll would show the number on the player's card, so it is refused.",
    ],
    "PER-3": [
        "Decision: a final clear success is marked toward development whether it was won on "
        "the first comparison, won by yielding with a nat-10 (PER-4), or steered there by "
        "assistants. A success bought with a critical before rolling is not marked: no roll "
        "was won.",
    ],
    "PER-4": [
        "Decision: with a nat-10, winning by yielding (including when the other side runs out "
        "of dice) is a clear success that banks no criticals; only an unbroken tie or a loss "
        "becomes a glancing success.",
        "Decision: every die showing 10 counts as a nat-10, bonus dice included. A clear success "
        "won on the first comparison banks one critical per nat-10, at most the Potential "
        "Threshold in one roll; the rest are lost. The campaign's bank limit (PER-6) can stop "
        "banking sooner.",
    ],
    "PER-5": [
        "Decision: a reactor's nat-10 settles a tied first comparison at once: nobody yields "
        "and the actor fails, so an actor facing a nat-10 can only win on the first comparison.",
    ],
    "PER-6": [
        "Decision: how many criticals a character can keep is the campaign's setting, the bank "
        "limit (no limit unless the campaign sets one); the Potential Threshold caps only what "
        "one roll banks. A roll never banks past the bank limit, and a character already "
        "holding more keeps them all but banks no more until below it.",
        "Decision: a critical spent before rolling buys a success and no dice are rolled: it "
        "counts as a clear success for assistants and hits, but it is not marked toward "
        "development (no roll was won) and banks no criticals.",
        "Decision: a critical kept to steer is spent only when the result is still a failure "
        "after ties are broken and assistants have steered; it turns that failure into a "
        "glancing success, never further.",
        "Decision: a gift that would take the receiver past their bank limit, when the campaign "
        "sets one, is refused, so no critical is ever lost in passing; give fewer instead.",
        "Decision: until a campaign chooses otherwise, Rollcall's campaigns keep at most "
        "the Potential Threshold in the bank; the table passes that as the bank limit.",
    ],
    "PER-7": [
        ORDER.decision,
        "Decision: steering stops at a clear success; assistants beyond that add nothing. "
        "Each assistant is named once, and nobody taking part in the roll itself can assist it.",
    ],
    "PER-8": [
        "Decision: the pool may not go beyond the group's average Potential Threshold plus 2, "
        "so the average is rounded down (3 characters with thresholds 3, 3 and 4 roll at most "
        "5 dice).",
        "Decision: the group is the coordinator and every contributor; the coordinator's bonus "
        "dice count toward the cap, and a contributor rated 0 adds no dice but still counts as "
        "a participant.",
        "Decision: the coordinator banks any criticals (at most their own Potential Threshold "
        "in the roll, within their bank limit); a glancing success on an attack still deals "
        "one hit per participant.",
    ],
    "PER-9": [
        "Decision: a challenge cannot be rolled without a stated goal. Whether it is extended "
        "can be given with the roll or declared afterwards with “Extend or end a challenge”.",
    ],
}
