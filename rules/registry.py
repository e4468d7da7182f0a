"""System slug -> everything the app needs to know about that game.

Each system module exposes NAME, SHEET_TEMPLATE, ACTIONS and DECISIONS (the
app's own readings where rules.md is silent, by mechanic ID); the rules text
comes from `rules.mechanics`. Pages, forms and the table read only from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from . import cortex_slots, mechanics, personae, serenity, smallville, unisystem
from .kit.actions import Action
from .kit.errors import RulesError
from .kit.sheet import SheetTemplate


@dataclass(frozen=True)
class GameSystem:
    slug: str
    name: str
    module: ModuleType
    sheet_template: SheetTemplate
    actions: dict[str, Action]
    mechanics: tuple[mechanics.Mechanic, ...]
    source: str
    decisions: dict[str, tuple[str, ...]]

    def all_decisions(self) -> list[tuple[str, str]]:
        """(mechanic id, decision) for rules.md's decisions and the app's own, in ID order."""
        pairs = [(m.id, d) for m in self.mechanics for d in m.decisions]
        for mechanic_id, texts in self.decisions.items():
            pairs.extend((mechanic_id, t) for t in texts)
        order = {m.id: i for i, m in enumerate(self.mechanics)}
        return sorted(pairs, key=lambda p: order.get(p[0], len(order)))

    def action(self, name: object) -> Action:
        if not isinstance(name, str) or name not in self.actions:
            raise RulesError(f"{self.name} has no action called {str(name)[:40]!r}")
        return self.actions[name]


def _build(slug: str, module: ModuleType) -> GameSystem:
    return GameSystem(
        slug=slug,
        name=module.NAME,
        module=module,
        sheet_template=module.SHEET_TEMPLATE,
        actions=dict(module.ACTIONS),
        mechanics=mechanics.for_system(slug),
        source=mechanics.SOURCES[mechanics.SYSTEM_PREFIXES[slug]],
        decisions=_decisions(slug, module),
    )


def _decisions(slug: str, module: ModuleType) -> dict[str, tuple[str, ...]]:
    """The game's own decisions, then its odds' decisions."""
    merged: dict[str, list[str]] = {k: list(v) for k, v in module.DECISIONS.items()}
    for mechanic_id, texts in module.ODDS_DECISIONS.items():
        merged.setdefault(mechanic_id, []).extend(texts)
    return {k: tuple(v) for k, v in merged.items()}


SYSTEMS: dict[str, GameSystem] = {
    slug: _build(slug, module)
    for slug, module in (
        ("serenity", serenity),
        ("cortex_slots", cortex_slots),
        ("smallville", smallville),
        ("personae", personae),
        ("unisystem", unisystem),
    )
}

SYSTEM_CHOICES: list[tuple[str, str]] = [(s.slug, s.name) for s in SYSTEMS.values()]


def get_system(slug: object) -> GameSystem:
    if not isinstance(slug, str) or slug not in SYSTEMS:
        raise RulesError(f"{str(slug)[:40]!r} is not a game system Rollcall knows")
    return SYSTEMS[slug]
