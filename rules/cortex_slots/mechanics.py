"""Cortex with slots: who the game is, and its mechanics with their stable IDs (CTX-1 … CTX-9)."""

from __future__ import annotations

from ..kit.mechanics import Mechanic

SLUG = "cortex_slots"
NAME = "Cortex (Total & Effect)"
PREFIX = "CTX"
SOURCE = "Cortex with Total and Effect slots, the Bank, Hitches — seed 001"

WORKED_EXAMPLES = ("CTX: d12+d6 showing 9 and 1 → value 10, no hitch.",)

MECHANICS: tuple[Mechanic, ...] = (
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
)
