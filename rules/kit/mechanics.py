"""A mechanic as the rules pages show it: a stable ID, a title, the rule's text and the
decisions the rules digest takes on it. Each game declares its own in its package; the
common ground all five games share is here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mechanic:
    id: str
    title: str
    text: str
    decisions: tuple[str, ...] = ()

    @property
    def prefix(self) -> str:
        return self.id.split("-")[0]


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
