"""Unisystem: who the game is, and its mechanics with their stable IDs (UNI-1 … UNI-14)."""

from __future__ import annotations

from ..kit.mechanics import Mechanic

SLUG = "unisystem"
NAME = "Unisystem"
PREFIX = "UNI"
SOURCE = "Unisystem (CharLoft RPG) — seed 004"

WORKED_EXAMPLES = (
    "UNI: Str 1 + Dex 2, modifier −5, faces 10,10,3 → roll 15, total 13, success, 3 levels (Good).",
    "UNI: resisted Strength (doubled) 4 vs 5: faces 1,3 → 8 − 2 = 6 (fails); faces 7 → 10 + "
    "7 = 17 (succeeds, wins).",
    "UNI: vampire Str 5, Dex 4, Per/Int/Wil 2, combat skill 2, mental skills 2 → Muscle 16, "
    "Combat 12, Brains 10; grapple 14 must be tied or beaten by a defending cast member; "
    "sneaking past needs 11+.",
)

MECHANICS: tuple[Mechanic, ...] = (
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
