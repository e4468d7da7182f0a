"""The pool builder, as the table's pages use it: each game's builder is declared in its
package (`BUILDER`, see rules.kit.builder), found through the registry; a game without
one has no builder on its table page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.kit.builder import TABLE_ASSET_LABEL, AssetChoice, Choice, Pool
from rules.kit.builder import build as build_for_game
from rules.registry import get_system

__all__ = ["TABLE_ASSET_LABEL", "AssetChoice", "Choice", "Pool", "build"]

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
