"""Ready to roll: what a sheet still needs for a legal pool, asked of its game
(`GameSystem.missing_to_roll`, declared in the game's package as READY), so the sheet
page and the list can say it in the game's words without knowing the game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.registry import get_system

from .models import Sheet, Trait


@dataclass(frozen=True)
class Readiness:
    missing: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.missing


def readiness(sheet: Sheet) -> Readiness:
    traits = list(Trait.objects.filter(sheet=sheet).only("group", "name", "die", "rating", "link"))
    return Readiness(get_system(sheet.campaign.system).missing_to_roll(traits))


def readiness_of(sheets: Iterable[Sheet], system: str) -> dict[int, Readiness]:
    """One query for a whole list of one campaign's sheets."""
    sheets = list(sheets)
    by_sheet: dict[int, list[Trait]] = {s.pk: [] for s in sheets}
    rows = Trait.objects.filter(sheet_id__in=list(by_sheet)).only(
        "sheet", "group", "name", "die", "rating", "link"
    )
    for t in rows:
        by_sheet[t.sheet_id].append(t)
    game = get_system(system)
    return {pk: Readiness(game.missing_to_roll(traits)) for pk, traits in by_sheet.items()}
