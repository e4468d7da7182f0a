"""Cortex with slots: how an actor of Foundry VTT's Cortex Prime system becomes a sheet.

Cortex Prime's Attributes, Distinctions and Skills are this game's (CTX-1); its Signature
Assets are Assets marked signature; its Complications are this game's Conditions (the
seed's name for what a bought hitch leaves on a character, CTX-4). Specialties, Powers
and the other Cortex Prime mods have no group here and are listed as left out.
"""

from __future__ import annotations

from ..kit.foundry import FoundryReading, FoundrySet

FOUNDRY = FoundryReading(
    sets=(
        FoundrySet(("Attributes",), "attributes"),
        FoundrySet(("Distinctions",), "distinctions"),
        FoundrySet(("Skills",), "skills"),
        FoundrySet(("Signature Assets",), "assets", flags=("signature",)),
        FoundrySet(("Assets",), "assets"),
        FoundrySet(("Talents",), "talents"),
        FoundrySet(("Conditions", "Complications"), "conditions"),
        FoundrySet(("Big Hero Die", "Hero Dice", "Hero Die"), "big_hero"),
    ),
    assets="assets",
    complications="conditions",
    plot_points="plot_points",
)
