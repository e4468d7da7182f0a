"""Every mechanic of the five systems with its stable ID, as the rules page shows it.

This is the single source for the rules pages; tests check that each ID is
named by the code that implements it and by a test that checks it.
"""

from __future__ import annotations

from .cortex_slots.mechanics import MECHANICS as CORTEX_SLOTS_MECHANICS
from .kit.mechanics import Mechanic
from .personae.mechanics import MECHANICS as PERSONAE_MECHANICS
from .serenity.mechanics import MECHANICS as SERENITY_MECHANICS
from .smallville.mechanics import MECHANICS as SMALLVILLE_MECHANICS
from .unisystem.mechanics import MECHANICS as UNISYSTEM_MECHANICS

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

_OTHERS: tuple[Mechanic, ...] = ()

MECHANICS: tuple[Mechanic, ...] = (
    *SERENITY_MECHANICS,
    *CORTEX_SLOTS_MECHANICS,
    *SMALLVILLE_MECHANICS,
    *PERSONAE_MECHANICS,
    *UNISYSTEM_MECHANICS,
    *_OTHERS,
)

BY_ID = {m.id: m for m in MECHANICS}


def for_system(slug: str) -> tuple[Mechanic, ...]:
    prefix = SYSTEM_PREFIXES[slug]
    return tuple(m for m in MECHANICS if m.prefix == prefix)
