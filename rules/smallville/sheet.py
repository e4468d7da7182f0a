"""Smallville's character sheet, and the groups a pool's main and side dice come from."""

from __future__ import annotations

from ..kit import cortex
from ..kit.sheet import Counter, SheetTemplate, TraitGroup

VALUES = ("Duty", "Glory", "Justice", "Love", "Power", "Truth")
STRESS_TYPES = cortex.STRESS_TYPES

# Stress dice are anybody's (usually the opponent's); limits are the opponent's.
MAIN_GROUPS = (
    "values",
    "relationships",
    "abilities",
    "distinctions",
    "stress",
    "limits",
    "useful_details",
)
WATCHTOWER_GROUPS = (*MAIN_GROUPS, "situation")
SIDE_GROUPS = ("locations", "extras")
ALL_GROUPS = (*WATCHTOWER_GROUPS, *SIDE_GROUPS)

SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            "values",
            "Values",
            "die",
            default_die=4,
            fixed_names=VALUES,
            help="Every roll uses one Value for free.",
        ),
        TraitGroup(
            "relationships",
            "Relationships",
            "die",
            default_die=6,
            help="Every roll uses one Relationship for free; more cost 1 plot point each.",
        ),
        TraitGroup("abilities", "Abilities", "die", default_die=6),
        TraitGroup(
            "distinctions",
            "Distinctions",
            "die",
            default_die=6,
            flags=("heritage",),
            help="Mark a Heritage: it rolls only when the roll is about that Heritage.",
        ),
        TraitGroup(
            "limits",
            "Limits",
            "die",
            default_die=6,
            link_group="abilities",
            help="Each Limit is linked to one Ability, which it can Shut Down.",
        ),
        TraitGroup("locations", "Locations", "die", default_die=6, help="Resources: side pool."),
        TraitGroup("extras", "Extras", "die", default_die=6, help="Resources: side pool."),
        TraitGroup(
            "stress",
            "Stress",
            "die",
            fixed_names=STRESS_TYPES,
            help="One die per type; past d12 the character is stressed out.",
            table_owned=True,  # SMV-10
        ),
    ),
    counters=(
        Counter("plot_points", "Plot points", maximum=cortex.MAX_PLOT_POINTS, table_owned=True),
    ),
)
