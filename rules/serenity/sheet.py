"""Serenity Plus's character sheet, and the groups a pool's dice come from (SER-1)."""

from __future__ import annotations

from ..kit import cortex
from ..kit.sheet import Counter, SheetTemplate, TraitGroup

STRESS_TYPES = cortex.STRESS_TYPES
FINAGLIN = "Finaglin'"

# A pool's complication and stress dice are the other side's, rolled against them.
PLAYER_GROUPS = (
    "stylins",
    "refinements",
    "values",
    "aspects",
    "resources",
    "assets",
    "complications",
    "stress",
)
GM_GROUPS = (*PLAYER_GROUPS, "situation")

SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            "stylins",
            "Stylin's",
            "die",
            default_die=6,
            help="How your character does things (Fightin', Fixin', Finaglin', ...). "
            "Every roll uses exactly one.",
        ),
        TraitGroup(
            "refinements",
            "Refinements",
            "die",
            default_die=6,
            parent="stylins",
            help="Specialities, each filed under one Stylin'; they roll only with it.",
        ),
        TraitGroup("values", "Values", "die", default_die=6, help="At most one per roll."),
        TraitGroup("aspects", "Aspects", "die", default_die=6),
        TraitGroup("resources", "Resources", "die", default_die=6),
        TraitGroup("assets", "Assets", "die", default_die=6),
        TraitGroup(
            "stress",
            "Stress",
            "die",
            fixed_names=STRESS_TYPES,
            help="One die per type; past d12 the character is taken out of the scene.",
            table_owned=True,  # SER-7, SER-10
        ),
        TraitGroup(
            "complications",
            "Complications",
            "die",
            default_die=6,
            help="Made by the GM activating a 1 (SER-3); an extraordinary success can "
            "remove or step one down (SER-10).",
            table_owned=True,
        ),
    ),
    counters=(
        Counter("plot_points", "Plot points", maximum=cortex.MAX_PLOT_POINTS, table_owned=True),
    ),
)
