"""Game slug -> everything the app needs to know about that game: the one registry.

Each game is a package under `rules/` (see `rules.kit.game` for the names it exposes).
Pages, forms and the table read games only from here.
"""

from __future__ import annotations

from . import cortex_slots, personae, serenity, smallville, unisystem
from .kit.errors import RulesError
from .kit.game import GameSystem, game_from_package
from .kit.mechanics import Mechanic

GAMES = (serenity, cortex_slots, smallville, personae, unisystem)

SYSTEMS: dict[str, GameSystem] = {package.SLUG: game_from_package(package) for package in GAMES}

SYSTEM_CHOICES: list[tuple[str, str]] = [(s.slug, s.name) for s in SYSTEMS.values()]

MECHANICS: tuple[Mechanic, ...] = tuple(m for game in SYSTEMS.values() for m in game.mechanics)

BY_ID: dict[str, Mechanic] = {m.id: m for m in MECHANICS}


def get_system(slug: object) -> GameSystem:
    if not isinstance(slug, str) or slug not in SYSTEMS:
        raise RulesError(f"{str(slug)[:40]!r} is not a game system Rollcall knows")
    return SYSTEMS[slug]
