"""Game slug -> everything the app needs to know about that game: the one registry.

Each game is a package (see `rules.kit.game` for the names it exposes): the five under
`rules/` are registered here, and a game kept elsewhere is registered with `register`
(the app does it at start for every package named in its settings' EXTRA_GAMES; see
docs/architecture.md, "How to add a game"). Pages, forms and the table read games only
from here.
"""

from __future__ import annotations

from types import ModuleType

from . import cortex_slots, personae, serenity, smallville, unisystem
from .kit.errors import RulesError
from .kit.game import GameSystem, game_from_package
from .kit.mechanics import Mechanic
from .kit.scene import cuts

GAMES = (serenity, cortex_slots, smallville, personae, unisystem)

SYSTEMS: dict[str, GameSystem] = {package.SLUG: game_from_package(package) for package in GAMES}

SYSTEM_CHOICES: list[tuple[str, str]] = [(s.slug, s.name) for s in SYSTEMS.values()]

BY_ID: dict[str, Mechanic] = {m.id: m for game in SYSTEMS.values() for m in game.mechanics}


def system_choices() -> list[tuple[str, str]]:
    """(slug, name) of every registered game, for forms and the campaign's field."""
    return list(SYSTEM_CHOICES)


def register(package: ModuleType) -> GameSystem:
    """Add a game package to the registry (once: a second package with the same slug, a
    rules ID already taken or a scene key cut otherwise than another game cuts it is
    refused)."""
    game = game_from_package(package)
    if game.slug in SYSTEMS:
        if SYSTEMS[game.slug].module is package:
            return game
        raise RulesError(f"a game called {game.slug!r} is registered already")
    taken = [m.id for m in game.mechanics if m.id in BY_ID]
    if taken:
        raise RulesError(f"rules IDs already taken: {', '.join(taken)}")
    cuts([*(p for known in SYSTEMS.values() for p in known.scene), *game.scene])
    SYSTEMS[game.slug] = game
    SYSTEM_CHOICES.append((game.slug, game.name))
    BY_ID.update({m.id: m for m in game.mechanics})
    return game


def unregister(slug: str) -> None:
    """Take a registered game out again (tests that register one clean up with this)."""
    game = SYSTEMS.pop(slug, None)
    if game is None:
        return
    SYSTEM_CHOICES.remove((game.slug, game.name))
    for mechanic in game.mechanics:
        BY_ID.pop(mechanic.id, None)


def scene_cuts() -> dict[str, str]:
    """How a void cuts each scene-state key the registered games declare (rules.kit.scene):
    a key means the same in every game that keeps it."""
    return cuts(piece for game in SYSTEMS.values() for piece in game.scene)


def get_system(slug: object) -> GameSystem:
    if not isinstance(slug, str) or slug not in SYSTEMS:
        raise RulesError(f"{str(slug)[:40]!r} is not a game system Rollcall knows")
    return SYSTEMS[slug]
