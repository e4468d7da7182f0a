"""Serenity Plus: how an actor of Foundry VTT's Cortex Prime system becomes a sheet.

A Cortex Prime trait set labelled Stylin's gives the Stylin's, and each Stylin's
sub-traits become the Refinements filed under it (SER-1). Cortex Prime's Distinctions
are Serenity's Aspects (the same kind of descriptive die); Values, Resources, Assets
(and Signature Assets), Stress and Complications keep their names.
"""

from __future__ import annotations

from ..kit.foundry import FoundryReading, FoundrySet

FOUNDRY = FoundryReading(
    sets=(
        FoundrySet(("Stylin's", "Stylins", "Styles"), "stylins"),
        FoundrySet(("Refinements",), "refinements"),
        FoundrySet(("Values",), "values"),
        FoundrySet(("Aspects", "Distinctions"), "aspects"),
        FoundrySet(("Resources",), "resources"),
        FoundrySet(("Assets", "Signature Assets"), "assets"),
        FoundrySet(("Stress",), "stress"),
        FoundrySet(("Complications",), "complications"),
    ),
    assets="assets",
    complications="complications",
    plot_points="plot_points",
)
