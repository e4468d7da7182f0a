"""Personae's character sheet: attributes, skills linked to them, and the counters the
table keeps (Potential Threshold, criticals, development)."""

from __future__ import annotations

from ..kit.sheet import Counter, SheetTemplate, TraitGroup

MAX_SKILL = 10
MAX_ATTRIBUTE = 10
MAX_THRESHOLD = 10
MAX_CRITICALS = 99


SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            key="attributes",
            label="Attributes",
            kind="rating",
            min_rating=0,
            max_rating=MAX_ATTRIBUTE,
            default_rating=1,
            help="A flat number added to the highest die of a roll.",
        ),
        TraitGroup(
            key="skills",
            label="Skills",
            kind="rating",
            min_rating=0,
            max_rating=MAX_SKILL,
            default_rating=1,
            link_group="attributes",
            help="How many d10s you roll; each skill names the attribute added to it.",
        ),
    ),
    counters=(
        Counter(
            "potential_threshold",
            "Potential Threshold",
            minimum=1,
            maximum=MAX_THRESHOLD,
            default=3,
            help="The most criticals one roll can bank; also caps a concerted effort's dice.",
        ),
        Counter(
            "criticals",
            "Criticals",
            minimum=0,
            maximum=MAX_CRITICALS,
            default=0,
            help="Criticals banked; the campaign sets how many can be kept.",
            table_owned=True,  # PER-4, PER-6
            capped_by="potential_threshold",  # PER-6: the bank holds at most the threshold
        ),
        Counter(
            "development",
            "Development",
            minimum=0,
            maximum=99,
            default=0,
            help="Clear successes marked toward development points.",
            table_owned=True,  # PER-3: the table marks them
        ),
    ),
)
