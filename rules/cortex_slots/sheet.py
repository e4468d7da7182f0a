"""Cortex with slots: the character sheet (stats up to d12+d12, CTX-8) and who may roll."""

from __future__ import annotations

from ..kit.sheet import Counter, SheetTemplate, TraitGroup

ROLLER_KINDS = ("pc", "boss", "plot", "mob")
NPC_KINDS = ("boss", "plot", "mob")
COMPOUND_HELP = (
    "A stat past d12 gains a plus die: d12+d4 up to d12+d12 (CTX-8), rolled as one entry."
)
BIG_HERO_GROUP = "big_hero"
MAX_PLOT_POINTS = 99
MAX_ADVANCE_POINTS = 9999

SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            "attributes", "Attributes", "die_or_compound", default_die=6, help=COMPOUND_HELP
        ),
        TraitGroup(
            "distinctions", "Distinctions", "die_or_compound", default_die=8, help=COMPOUND_HELP
        ),
        TraitGroup("skills", "Skills", "die_or_compound", default_die=6, help=COMPOUND_HELP),
        TraitGroup(
            "assets",
            "Assets",
            "die_or_compound",
            default_die=6,
            flags=("signature",),
            help="Mark Signature Assets: only they can be raised with advance points (CTX-9), "
            "and only they go past d12 (d12+dN, CTX-8).",
        ),
        TraitGroup(
            "talents",
            "Talents",
            "die_or_compound",
            default_die=6,
            help="A relevant Talent adds its die to the pool (CTX-1). " + COMPOUND_HELP,
        ),
        TraitGroup(
            "conditions",
            "Conditions",
            "die",
            default_die=6,
            help="Conditions on this character; their size is the effect level that caused them.",
            table_owned=True,  # CTX-4: given at the table
        ),
        TraitGroup(
            BIG_HERO_GROUP,
            "Big Hero Die",
            "die",
            default_die=6,
            max_traits=1,
            help="Costs 1 plot point to add to a roll; its 1 is not a hitch (CTX-6).",
        ),
    ),
    counters=(
        Counter("plot_points", "Plot points", maximum=MAX_PLOT_POINTS, default=1, table_owned=True),
        Counter(
            "advance_points",
            "Advance points",
            maximum=MAX_ADVANCE_POINTS,
            help="Raising a stat or Signature Asset to dN costs 4×N (CTX-9).",
            table_owned=True,  # CTX-9: the GM awards them
        ),
        Counter(
            "milestones",
            "Milestone points",
            maximum=MAX_ADVANCE_POINTS,
            help="Running record of the advance points earned through milestones.",
        ),
    ),
    npc_kinds=NPC_KINDS,
)
