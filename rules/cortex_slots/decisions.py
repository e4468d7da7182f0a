"""Cortex with slots: the app's own readings where rules.md leaves room, by mechanic ID."""

from __future__ import annotations

from .table import ORDER

DECISIONS: dict[str, list[str]] = {
    "CTX-1": [
        ORDER.decision,
        "Decision: a pool holds exactly one Attribute die and one Distinction die, one or "
        "more Skill dice, and any number of Asset and Talent dice (the seed names extra "
        "dice only for Skills, Assets and Talents).",
        "Decision: Talents are dice on the sheet, since the seed adds a die when a Talent "
        "is relevant. Conditions are dice too: their size is the effect level that made them.",
        "Decision: the difficulty is a number the GM names or a GM pool rolled with the "
        "roll. Against a player character that pool counts as a plot character's for "
        "hitches and advantages, and against a GM character as a player character's, "
        "unless the table names another kind. A GM pool rolled on its own hands the roll "
        "its result and whether it botched (CTX-4).",
    ],
    "CTX-2": [
        "Decision: when splits tie on total and effect die size, the app prefers more "
        "damage, then puts the smaller dice in the Total so the larger ones stay in the "
        "Bank for an Effect move (CTX-3), then follows the order of the pool.",
        "Decision: a die showing 1 may sit in a slot (a slot is where the GM can buy it, "
        "CTX-4) but adds nothing there: 0 to the total and no damage. An Effect slot "
        "without a counting die has level d4.",
        "Decision: the effect level and damage are reported for every roll but land only "
        "on a success; the player may choose any two dice for the Total and any other "
        "one for the Effect slot.",
        "Decision: the player may change the split after seeing the dice, as often as they "
        "like, until a die has moved from the Bank or a hitch has been bought; from then on "
        "the split is settled. Dice are numbered from #1 in pool order.",
    ],
    "CTX-3": [
        "Decision: a banked die showing 1 adds nothing, so moving it is refused rather "
        "than wasting a plot point; a d12+dN whose d12 hitched can still move for its "
        "plus die.",
        "Decision: after a botch no Bank move is allowed, since the roll has failed whatever "
        "is added.",
    ],
    "CTX-4": [
        "Decision: buying any hitch pays the player 1 plot point, a hitch in the Bank "
        "included (the seed calls both 'buying').",
        "Decision: a bought hitch becomes a token held until the end of the scene. From "
        "the Total or Effect slot the GM may add a die of its size to a difficulty pool; "
        "from the Bank the GM may give the roller a condition of its size.",
        "Decision: a GM pool that botches (3 or more hitches) is an automatic failure of "
        "the opposition: the player's roll against it succeeds whatever the totals, unless "
        "the player botched too, and then it fails.",
        "Decision: players buy a GM hitch for 1 plot point as an Opportunity token for "
        "the scene (CTX-7); a GM botch bought whole for 1 plot point also lets them add a "
        "scene-long disruption against the GM's side, and only while none of its hitches "
        "was bought alone.",
        "Decision: at most 3 hitches are bought from one roll, whoever buys them: a GM "
        "botch with more than 3 hitches bought whole buys 3 of them (the first 3 in the "
        "pool), and its other hitches cannot be bought afterwards. A player's botch needs "
        "no buying: it is an automatic failure.",
    ],
    "CTX-5": [
        "Decision: the seed gives no size for an advantage. The app records one advantage "
        "per roll with a hitch (noting a botch) against the side that rolled it, and the "
        "GM sets how far the difficulty rises.",
    ],
    "CTX-6": [
        "Decision: 'cannot fail' means the Big Hero Die itself never hitches; it does not "
        "make the roll succeed.",
        "Decision: the Big Hero Die is rolled with the pool but stays outside the "
        "two-and-one split: it joins the Total (its face is added) or the Effect slot "
        "(its face adds to damage; the larger size is the level). The app proposes the "
        "Total unless the roll already succeeds without it.",
        "Decision: a sheet holds one Big Hero Die of any size (d6 by default); only a "
        "player character rolls it, and the roll charges its plot point.",
    ],
    "CTX-7": [
        "Decision: every spend costs 1 plot point and is refused at 0. The roll charges "
        "the Big Hero Die and a Bank move charges its die through the same spend, so each "
        "appears once in the log.",
        "Decision: an Opportunity steps down one die (a difficulty die or a complication); "
        "a d4 stepped down is removed. An asset at d12 cannot step up.",
        "Decision: a player activates one of the character's own Assets in the scene, at "
        "the die on the sheet (everyone in the scene may then use it); an Asset no sheet "
        "holds is the GM's to grant, or a new d6 bought as a temporary scene asset.",
    ],
    "CTX-8": [
        "Decision: every stat can be d12+dN: Attributes, Distinctions, Skills and Talents, "
        "and Signature Assets (the same traits CTX-9 raises). A GM's pool may hold d12+dN "
        "dice too; the Big Hero Die and conditions stop at d12.",
        "Decision: when the d12 of a d12+dN shows 1 the entry is a hitch "
        "and the d12 adds nothing, but the plus die still adds its face (d12 shows 1, d6 "
        "shows 4: value 4, one hitch).",
        "Decision: in the Effect slot a d12+dN gives level d12, or the plus die's size "
        "when the d12 hitched.",
    ],
    "CTX-9": [
        "Decision: stats are Attributes, Distinctions, Skills and Talents; an Asset can "
        "be raised only when it is a Signature Asset. Raises go one step at a time.",
        "Decision: a stat or Signature Asset past d12 gains a plus die (d12 → d12+d4 → … → "
        "d12+d12), "
        "costing four times the new dice's sizes added up (d12+d4: 64).",
        "Decision: the seed sets no rate for milestones, so the GM enters the advance "
        "points they earned; they add to the advance points and to the milestone record.",
    ],
}
