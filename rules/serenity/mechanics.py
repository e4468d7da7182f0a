"""Serenity Plus: who the game is, and its mechanics with their stable IDs (SER-1 … SER-11)."""

from __future__ import annotations

from ..kit.mechanics import Mechanic

SLUG = "serenity"
NAME = "Serenity Plus"
PREFIX = "SER"
SOURCE = "Serenity Plus (Cortex Plus, Leverage/Smallville style) — seed 000"

MECHANICS: tuple[Mechanic, ...] = (
    Mechanic(
        "SER-1",
        "Pool",
        (
            "one Stylin' die; plus any Refinement dice filed under that Stylin' that fit; "
            "plus at most one Value die (optional; may be a Challenged Value, see SER-9); "
            "plus any Aspect, Resource and Asset dice that apply."
        ),
        (),
    ),
    Mechanic(
        "SER-2",
        "Result",
        (
            "the sum of the two highest dice that did not roll 1. One non-1 die: the "
            "result is that die. No non-1 dice: result 0, a botch. Equal faces: the "
            "result takes the smaller dice, leaving the larger one free to be the effect "
            "die (the choice best for the roller)."
        ),
        (),
    ),
    Mechanic(
        "SER-3",
        "Complications",
        (
            "every die that rolled 1 is set aside; the GM may activate each. Activating "
            "one gives the roller 1 plot point and creates a d6 complication (or steps up "
            "an existing one that fits)."
        ),
        (),
    ),
    Mechanic(
        "SER-4",
        "Effect die",
        (
            "among the dice neither counted in the result nor showing 1, the one with the "
            "highest face (usually the third-highest die); its SIZE is the effect. Equal "
            "faces: the larger size. d4 when there is none. Extra plot-point dice (SER-8) "
            "are counted in the result, so they are not available as the effect die. "
            "Example: d10=9, d8=8, d6=6, d12=2 → result 17, effect d6 (not the d12)."
        ),
        (),
    ),
    Mechanic(
        "SER-5",
        "Test",
        (
            "the GM rolls the opposition pool the same way; the player succeeds only with "
            "a result strictly greater than the GM's. A tie fails."
        ),
        (),
    ),
    Mechanic(
        "SER-6",
        "Contest",
        (
            "the two sides roll in turn; each roll must strictly exceed the other side's "
            'last result. Each side states ("telegraphs") its goal before rolling. The '
            "contest ends when a side Gives In (the other side gets its stated goal; the "
            "side that gives in takes no stress) or fails to beat the last result. The "
            "side that failed does not have to yield its ground, but takes **stress** "
            "(SER-7) from the other side's last roll."
        ),
        (),
    ),
    Mechanic(
        "SER-7",
        "Stress from a contest",
        (
            "the effect die (SER-4) of the last result that was not beaten; d4 when there "
            "is none. The winner chooses the stress type among those the scene fits. "
            "Stress rule (shared with SMV): a character holds one die per stress type; "
            "new stress larger than the held die replaces it, otherwise the held die "
            "steps up one size; stepping up past d12 means the character is **taken out** "
            "of the scene."
        ),
        (),
    ),
    Mechanic(
        "SER-8",
        "Plot points",
        (
            "spend 1 to add one more non-1 die from the rolled pool to the result (as "
            "often as dice and points allow); the GM gives 1 when activating a "
            "complication (SER-3)."
        ),
        (),
    ),
    Mechanic(
        "SER-9",
        "Challenging a Value",
        (
            "the roller may add the Value die while acting against the Value. Decision "
            "(the seed names the option but not its price; we follow Smallville, SMV-2): "
            "a Challenged Value adds three dice of its size instead of one, and the Value "
            "steps down after the roll."
        ),
        (
            "Decision (the seed names the option but not its price; we follow "
            "Smallville, SMV-2): a Challenged Value adds three dice of its size "
            "instead of one, and the Value steps down after the roll.",
        ),
    ),
    Mechanic(
        "SER-10",
        "Extraordinary success",
        (
            "beating the other side's result by 5 or more. The winner picks one benefit, "
            "recorded in the log: step up one stress die inflicted; promote a scene Asset "
            "to a session Asset; step up one Asset used in the roll (max d12); remove one "
            "d6 complication rolled against them; step down one d8+ complication rolled "
            "against them; step down one of their own stress dice that the other side "
            "rolled against them. A GM character's options: step up the stress die, or "
            "step up one complication in the roll."
        ),
        (),
    ),
    Mechanic(
        "SER-11",
        "Awareness and knowledge",
        (
            "Awareness and knowledge default to the Finaglin' Stylin' unless a fitting "
            "Refinement exists, in which case roll that Refinement with its own Stylin'. "
            "The pool builder suggests this."
        ),
        (),
    ),
)
