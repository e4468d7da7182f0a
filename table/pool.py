"""The pool builder, as the table's pages use it: each game's builder is declared in its
package (`BUILDER`, see rules.kit.builder), found through the registry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.kit.builder import TABLE_ASSET_LABEL, AssetChoice, Choice, Pool
from rules.kit.builder import build as build_for_game
from rules.registry import SYSTEMS, get_system

__all__ = ["TABLE_ASSET_LABEL", "AssetChoice", "Choice", "Pool", "build"]

# The action the builder's Roll button performs, for each game that has a builder.
ROLL_ACTION = {slug: game.builder.roll_action for slug, game in SYSTEMS.items() if game.builder}
# Games whose pools take scene and session Assets.
TABLE_ASSET_SYSTEMS = tuple(
    slug for slug, game in SYSTEMS.items() if game.builder and game.builder.table_assets
)


def build(
    system: str,
    traits: Sequence,
    data: Mapping,
    *,
    counters: Mapping[str, int] | None = None,
    character: str = "",
    target: int | None = None,
    table_assets: Sequence[tuple[str, str, str]] = (),
    table: Mapping[str, Any] | None = None,
) -> Pool:
    """The pool a sheet's clicked traits make in this game (rules.kit.builder.build)."""
    return build_for_game(
        get_system(system),
        traits,
        data,
        counters=counters,
        character=character,
        target=target,
        table_assets=table_assets,
        table=table,
    )
