"""Every mechanic of the five systems with its stable ID, as the rules page shows it.

This is the single source for the rules pages; tests check that each ID is
named by the code that implements it and by a test that checks it.
"""

from __future__ import annotations

from .kit.mechanics import Mechanic
from .serenity.mechanics import MECHANICS as SERENITY_MECHANICS
from .smallville.mechanics import MECHANICS as SMALLVILLE_MECHANICS

SYSTEM_PREFIXES = {
    "serenity": "SER",
    "cortex_slots": "CTX",
    "smallville": "SMV",
    "personae": "PER",
    "unisystem": "UNI",
}

SYSTEM_NAMES = {
    "serenity": "Serenity Plus",
    "cortex_slots": "Cortex (Total & Effect)",
    "smallville": "Smallville",
    "personae": "Personae",
    "unisystem": "Unisystem",
}

SOURCES = {
    "CTX": "Cortex with Total and Effect slots, the Bank, Hitches — seed 001",
    "PER": "Personae v4 — seed 003",
    "SER": "Serenity Plus (Cortex Plus, Leverage/Smallville style) — seed 000",
    "SMV": "Smallville (the Watchtower is the GM) — seed 002",
    "UNI": "Unisystem (CharLoft RPG) — seed 004",
}

COMMON_GROUND = (
    'Dice sizes are d4, d6, d8, d10, d12. "Step up" moves a die one size up (d4→d6→…→d12), '
    '"step down" one size down. Stepping down a d4 removes it; stepping up a d12 is refused '
    "unless a rule says otherwise (stress: taken out).",
    "All randomness is drawn on the server with a cryptographic generator. A roll is "
    "recorded as: who rolled, the request (which traits, which dice), the faces that came "
    "up, and the outcome. Resolving the same request with the same faces must always give "
    "the same outcome, so any logged roll can be re-checked.",
    "A 1 never counts toward a Cortex-family total unless a rule below says so.",
)

WORKED_EXAMPLES = (
    "UNI: Str 1 + Dex 2, modifier −5, faces 10,10,3 → roll 15, total 13, success, 3 levels (Good).",
    "UNI: resisted Strength (doubled) 4 vs 5: faces 1,3 → 8 − 2 = 6 (fails); faces 7 → 10 + "
    "7 = 17 (succeeds, wins).",
    "UNI: vampire Str 5, Dex 4, Per/Int/Wil 2, combat skill 2, mental skills 2 → Muscle 16, "
    "Combat 12, Brains 10; grapple 14 must be tied or beaten by a defending cast member; "
    "sneaking past needs 11+.",
    "CTX: d12+d6 showing 9 and 1 → value 10, no hitch.",
)

_OTHERS: tuple[Mechanic, ...] = (
    Mechanic(
        "CTX-1",
        "Pool",
        (
            "at least one die each from Attributes, Distinctions and Skills; extra dice "
            "for more applicable Skills, Assets or Talents. The GM sets the difficulty by "
            "choosing and rolling a GM pool (its result: two highest non-1 dice)."
        ),
        (),
    ),
    Mechanic(
        "CTX-2",
        "Slots",
        (
            "after rolling the player puts two dice in the **Total slot** and one in the "
            "**Effect slot**; all other dice go to the **Bank**. The total decides "
            "success (strictly greater than the difficulty); the Effect slot's die SIZE "
            "is the effect level, its face the damage. The app proposes the best split "
            "(highest total, then largest effect die) and lets the player change it "
            "before confirming."
        ),
        (),
    ),
    Mechanic(
        "CTX-3",
        "The Bank",
        (
            "for 1 plot point each, move a banked die into the Total slot (its face is "
            'added: a "second wind") or into the Effect slot (faces add up for damage; '
            "the larger die size is the effect level). Repeat while dice and points last."
        ),
        (),
    ),
    Mechanic(
        "CTX-4",
        "Hitches",
        (
            "every die showing 1 is a hitch. Three or more hitches in one roll are a "
            "**Botch**: automatic failure, the GM adds a scene-long disruption. A hitch "
            "in the Total or Effect slot can be bought by the GM: the player gets 1 plot "
            "point and that die's size is added to the difficulty pool. At most 3 hitches "
            "bought per roll. A hitch in the Bank can be bought to give the player a "
            "condition. Bought hitches are kept for the scene only and expire when the "
            "scene ends. The same works the other way round: players can buy the GM's "
            'hitches and botches (spending a plot point, CTX-7 "activate an '
            'Opportunity").'
        ),
        (),
    ),
    Mechanic(
        "CTX-5",
        "Advantage",
        (
            "a hitch or botch rolled by a player character, a boss or a plot character "
            "(not a **mob**) raises the difficulty for the side that rolled it; the log "
            "records it. Mobs never produce advantages."
        ),
        (),
    ),
    Mechanic(
        "CTX-6",
        "Big Hero Die",
        (
            "it cannot fail; a 1 on it counts as 1 toward the total or damage and is not "
            "a hitch. In the Effect slot, the larger die size gives the level, as in "
            "CTX-3."
        ),
        (),
    ),
    Mechanic(
        "CTX-7",
        "Plot points buy",
        (
            "a scene change or special effect; an Opportunity (a step down of a "
            "difficulty or of a complication on the character, usually after the GM's "
            "hitch); a step up of an asset, or activating one in the scene; the Big Hero "
            "Die; a temporary scene asset (d6); a die from the Bank; staying in the fight "
            "when taken out. Every spend is a logged event."
        ),
        (),
    ),
    Mechanic(
        "CTX-8",
        "Compound d12+dN traits",
        (
            "its value is the sum; the plus die's 1 still adds 1 and is not a hitch (the "
            "d12's own 1 is). Example from the seed: d12 shows 9, d6 shows 1: value 10, "
            "no hitch."
        ),
        (),
    ),
    Mechanic(
        "CTX-9",
        "Advancement",
        (
            "at the end of a session the GM awards 1–9 advance points; milestones add "
            'more. Decision (the seed\'s "times four the dice"): raising a stat or '
            "Signature Asset to dN costs 4×N points (to d8: 32)."
        ),
        (
            'Decision (the seed\'s "times four the dice"): raising a stat or '
            "Signature Asset to dN costs 4×N points (to d8: 32).",
        ),
    ),
    Mechanic(
        "PER-1",
        "Challenge",
        (
            "the actor and the reactor each declare a skill, roll that many d10 (plus "
            "bonus dice), sort descending, and add their attribute and modifiers to the "
            "highest die. The higher total wins."
        ),
        (),
    ),
    Mechanic(
        "PER-2",
        "Ties",
        (
            'both "yield" to their next-highest die (plus the same attribute and '
            "modifiers) and compare again, and so on. A side that runs out of dice while "
            "the other still has some loses the tie. Decision: if both run out together, "
            "the tie is not broken (see PER-4, PER-5)."
        ),
        ("Decision: if both run out together, the tie is not broken (see PER-4, PER-5).",),
    ),
    Mechanic(
        "PER-3",
        "Clear success",
        (
            "the actor wins on the first comparison. Glancing success: the actor wins "
            "only by yielding (success at a cost). Only clear successes are marked toward "
            "development points."
        ),
        (),
    ),
    Mechanic(
        "PER-4",
        "Actor's natural 10s",
        (
            "with one or more nat-10s the actor cannot fail outright: winning on the "
            "first comparison is a clear success and banks one critical per nat-10 (at "
            "most the Potential Threshold); winning by yielding is a success without "
            "criticals; an unbroken tie or a loss is a glancing success. Decision (not in "
            "the seed): when the reactor also rolled a nat-10, PER-5 overrides on ties "
            "and losses (the actor fails)."
        ),
        (
            "Decision (not in the seed): when the reactor also rolled a nat-10, "
            "PER-5 overrides on ties and losses (the actor fails).",
        ),
    ),
    Mechanic(
        "PER-5",
        "Reactor's natural 10",
        "the actor fails even on a tie. The reactor never banks criticals.",
        (),
    ),
    Mechanic(
        "PER-6",
        "Criticals",
        (
            "spend one before rolling for an automatic success, or after the ties are "
            "broken to steer a failure into a glancing success (or per a trait's text). "
            "Criticals can be given to another character. The campaign sets how many can "
            "be kept and for how long."
        ),
        (),
    ),
    Mechanic(
        "PER-7",
        "Assisting",
        (
            "each assistant (same kind of challenge, fitting skill) steers the primary "
            "actor's result one step: failure → glancing → clear. The primary actor is "
            "chosen before rolling (usually the highest rating)."
        ),
        (),
    ),
    Mechanic(
        "PER-8",
        "Concerted effort",
        (
            "a coordinator rolls their skill dice plus the other contributors' ratings in "
            "the skill, capped at the average Potential Threshold of the group + 2 dice; "
            "the coordinator's attribute is added; a successful attack deals one hit per "
            "participant."
        ),
        (),
    ),
    Mechanic(
        "PER-9",
        "Goals",
        (
            "a challenge records the actor's stated goal; after it, the actor says "
            "whether the challenge is extended."
        ),
        (),
    ),
    Mechanic(
        "UNI-1",
        "Roll",
        (
            "d10 (after UNI-6/UNI-7) + attribute + (skill, or the attribute again) + "
            "modifiers. Success is a total of 9 or more."
        ),
        (),
    ),
    Mechanic(
        "UNI-2",
        "Kinds",
        (
            "Task = attribute + skill; Simple Test = attribute doubled; Difficult Test = "
            "attribute once; two attributes, no doubling, where the Director says so. "
            "Unskilled: skill 0, an optional penalty of −1 to −5, and at most 2 success "
            "levels (Decent) for complex work."
        ),
        (),
    ),
    Mechanic(
        "UNI-3",
        "Success levels",
        (
            "9–10: 1 Adequate; 11–12: 2 Decent; 13–14: 3 Good; 15–16: 4 Very Good; 17–20: "
            "5 Excellent; 21–23: 6 Extraordinary; 24–26: 7 Mind-boggling; 27–29: 8 "
            "Outrageous; 30–32: 9 Superheroic; 33–35: 10 God-like; then +1 level for "
            "every 3 more (36–38: 11, …). Below 9: 0."
        ),
        (),
    ),
    Mechanic(
        "UNI-4",
        "Modifiers (named presets)",
        (
            "Easy +5; Moderate +3/+4; Average +1/+2; Challenging 0; Difficult −1/−2; Very "
            "Difficult −3 to −5; Heroic −6 to −9; Inhuman −10 or worse. The GM may type "
            "any integer."
        ),
        (),
    ),
    Mechanic(
        "UNI-5",
        "Resisted action",
        (
            "both roll. One succeeds and the other not: the success wins. Both succeed: "
            "the higher total wins. Both fail: nobody succeeds, and the lower total "
            '"fails more". Equal totals: the defender wins if there is one, otherwise a '
            "tie. Against a Guest Star's or Adversary's fixed Ability Score: the cast "
            "member must beat it when acting, and beat or tie it when defending."
        ),
        (),
    ),
    Mechanic(
        "UNI-6",
        "Rule of 10",
        (
            "a natural 10 rolls again; a reroll of 10 adds 5 and rolls again (repeating); "
            "the final non-10 reroll adds (face − 5) if positive. So 10,7 → 12; 10,4 → "
            "10; 10,10,3 → 15."
        ),
        (),
    ),
    Mechanic(
        "UNI-7",
        "Rule of 1",
        (
            "a natural 1 rolls again; a reroll of 1 counts −5 and rolls again "
            "(repeating); the final non-1 reroll adds (face − 5) if negative. If the "
            "first reroll is 5–10 the roll stays 1. So 1,3 → −2; 1,8 → 1; 1,1,7 → −5 "
            "(decision: the 1 is replaced once a chain of 1s starts)."
        ),
        ("Decision: the 1 is replaced once a chain of 1s starts.",),
    ),
    Mechanic(
        "UNI-8",
        "Ability Scores",
        (
            "Ability Scores for Guest Stars/Adversaries (no dice): Muscle = 2 × Strength "
            "+ 6; Combat = Dexterity + average combat skill + 6; Brains = average of "
            "Intelligence, Perception, Willpower + average relevant skill + 6. Decision: "
            "averages round down. A score also yields success levels by UNI-3 (Combat 17 "
            "→ 5 levels, added to damage). Situational bonuses add to the score (a "
            "grapple uses Combat + 2)."
        ),
        ("Decision: averages round down.",),
    ),
    Mechanic(
        "UNI-9",
        "Damage and healing",
        (
            "attack success levels add to the weapon's base damage; each Doctor success "
            "level heals 1 point."
        ),
        (),
    ),
    Mechanic(
        "UNI-10",
        "Working together, long task",
        (
            "everyone rolls; successful rolls add their success levels toward the task's "
            "required total; failures add nothing. Short or tense task: one leader; each "
            "helper's success levels add +1 each to the leader's roll; each failed helper "
            "subtracts 3."
        ),
        (),
    ),
    Mechanic(
        "UNI-11",
        "Lengthy tasks",
        (
            "a task can require N success levels accumulated over several rolls; the "
            "table tracks the running sum."
        ),
        (),
    ),
    Mechanic(
        "UNI-12",
        "Fear Test",
        (
            "Willpower doubled + fear modifiers (demonic visage −1; hideous creature: "
            "half its Attractiveness rounded toward zero; splatter −1 to −4; sudden "
            "+(−2); familiar after the third encounter: no penalty). 9+: acts normally. "
            "Otherwise the Panic Table on the total: 7–8 Startled, 5–6 Freak out, 3–4 Run "
            "Away!, 2 or less Total Terror."
        ),
        (),
    ),
    Mechanic(
        "UNI-13",
        "Movement and chases",
        (
            "yards per second = Dexterity + Constitution (×5 per turn); mph = 2 × "
            "(Dexterity + Constitution). Chase: the lead starts at +1 per turn of head "
            "start; each turn a resisted Dexterity (doubled) or Dexterity + Sports roll "
            "moves the lead 1 toward the winner; lead 0 = caught, lead +5 = escaped."
        ),
        (),
    ),
    Mechanic(
        "UNI-14",
        "Jump table by Strength",
        (
            "1–2: 1 ft high, 2 yd long; 3: 2 ft, 3 yd; 4–5: 4 ft, 5 yd; 6: 5 ft, 6 yd; "
            "7–8: 7 ft, 8 yd; 9–10: 10 ft, 10 yd; each point above 10: +2 ft, +1 yd. A "
            "running start doubles it; a Dexterity + Acrobatics roll adds 1 yd (long) or "
            "1 ft (high) per success level."
        ),
        (),
    ),
)

MECHANICS: tuple[Mechanic, ...] = (*SERENITY_MECHANICS, *SMALLVILLE_MECHANICS, *_OTHERS)

BY_ID = {m.id: m for m in MECHANICS}


def for_system(slug: str) -> tuple[Mechanic, ...]:
    prefix = SYSTEM_PREFIXES[slug]
    return tuple(m for m in MECHANICS if m.prefix == prefix)
