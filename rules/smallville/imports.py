"""Smallville: how an actor of Foundry VTT's Cortex Prime system becomes a sheet.

Values (always Duty, Glory, Justice, Love, Power and Truth: others are left out) and
Relationships are the free dice of every roll (SMV-1); Abilities (Powers in some Cortex
Prime setups), Distinctions, Limits, Locations, Extras and Stress keep their names.
Smallville has no Assets or Complications on a sheet (a Useful Detail lasts a scene,
SMV-6, and complications go to the Trouble Pool, SMV-9), so the actor's are left out.
"""

from __future__ import annotations

from ..kit.foundry import FoundryReading, FoundrySet

FOUNDRY = FoundryReading(
    sets=(
        FoundrySet(("Values",), "values"),
        FoundrySet(("Relationships",), "relationships"),
        FoundrySet(("Abilities", "Powers"), "abilities"),
        FoundrySet(("Distinctions",), "distinctions"),
        FoundrySet(("Heritages",), "distinctions", flags=("heritage",)),
        FoundrySet(("Limits",), "limits"),
        FoundrySet(("Locations",), "locations"),
        FoundrySet(("Extras",), "extras"),
        FoundrySet(("Stress",), "stress"),
    ),
    plot_points="plot_points",
)
