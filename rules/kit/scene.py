"""What a game keeps for the scene, declared piece by piece, so the table can show it,
give it back on a void and sum it up when the scene ends without knowing any of it.

The scene state is one JSON object per scene; a game's transitions write their own keys
in it (a pool of dice, tasks under way, who was taken out...). A package declares each
key as a `ScenePiece` in its SCENE (read by `rules.kit.game`; default: none): how a void
cuts the key into independent pieces (`cut`), the words a void's card and the
scene-end card use for it, and how the scene panel shows it (a `label`, then `lines` of
plain text, or a template `partial` of the game's). The engine's own keys (the
difficulty, contests, the action order...) need no declaration.

A key means the same thing in every game that keeps it (the Cortex games share their
contests' pieces, `rules.kit.cortex_scene`): `cuts` reads the registered games' pieces
into one map, and the registry refuses a game that cuts a key another cuts differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RulesError

# How a void cuts a key into pieces, each given back on its own (a later event that
# changed one piece blocks its undo, changes to the others do not):
ONE = "one"  # the whole value is one piece
BY_NAME = "by_name"  # {name: item}: each item is a piece
BY_KIND_AND_NAME = "by_kind_and_name"  # {kind: {name: item}}: each item is a piece
BY_SEQ = "by_seq"  # [item, ...] stamped "seq": the items one event added are a piece
CUTS = (ONE, BY_NAME, BY_KIND_AND_NAME, BY_SEQ)


@dataclass(frozen=True)
class ScenePiece:
    """One key of the scene state, as a game declares it.

    key: the scene-state key the game's transitions write. cut: how a void cuts it
    (ONE, BY_NAME, BY_KIND_AND_NAME, BY_SEQ). kind: with BY_KIND_AND_NAME, the kind this
    declaration is about (one key may hold several kinds, each declared on its own).
    words: one of its pieces in words, for a void's card ("the hitch bought in
    #{seq}"): `{name}` and `{seq}` are what tells it from the others (a name, or the
    seq of the event that added it); never its value, which may be hidden. expired:
    the key in the scene-end card's "Expired with it: ..." (default: the key, spaced).
    label: its title on the scene panel ("" : the panel does not show it); leads:
    shown first, before the table's own entries (the difficulty, the scene's assets).
    lines: its value as the panel's lines of plain text; partial: or the name of a
    template partial of the game's that shows it (`game.partials[partial]`, given
    `value`). named_by: the table option (a transition's table_params) that names one
    of its items, and name_label that option's label on a More-actions form; the form
    offers the names kept in the scene.
    """

    key: str
    cut: str = ONE
    kind: str = ""
    words: str = ""
    expired: str = ""
    label: str = ""
    leads: bool = False
    lines: Callable[[Any], Sequence[str]] | None = None
    partial: str = ""
    named_by: str = ""
    name_label: str = ""

    def __post_init__(self) -> None:
        if self.cut not in CUTS:
            raise RulesError(f"{self.key}: no such cut {self.cut!r}")
        if self.kind and self.cut != BY_KIND_AND_NAME:
            raise RulesError(f"{self.key}: a kind is declared for a key cut by kind")
        if self.named_by and not self.name_label:
            raise RulesError(f"{self.key}: the option {self.named_by!r} needs its label")

    def value(self, state: Mapping[str, Any]) -> Any:
        """Its value in the scene state (of its kind, for a key cut by kind)."""
        value = state.get(self.key)
        if self.kind:
            value = value.get(self.kind) if isinstance(value, Mapping) else None
        return value

    def names(self, state: Mapping[str, Any]) -> list[str]:
        """The names of the items the scene keeps of it (those a form may name)."""
        value = self.value(state)
        return [str(name) for name in value] if isinstance(value, Mapping) else []

    def described(self, path: Sequence[Any]) -> str:
        """One of its pieces in words, from the piece's path in the state."""
        if not self.words:
            return self.expired or self.key.replace("_", " ")
        last = path[-1] if len(path) > 1 else ""
        return self.words.format(name=last, seq=last)

    def matches(self, path: Sequence[Any]) -> bool:
        if not path or path[0] != self.key:
            return False
        return not self.kind or (len(path) > 1 and path[1] == self.kind)


def piece_at(pieces: Iterable[ScenePiece], path: Sequence[Any]) -> ScenePiece | None:
    """The declaration a piece of the state at `path` falls under, if any."""
    return next((piece for piece in pieces if piece.matches(path)), None)


def expired_word(pieces: Iterable[ScenePiece], key: str) -> str:
    """A key in the scene-end card's words."""
    for piece in pieces:
        if piece.key == key and piece.expired:
            return piece.expired
    return key.replace("_", " ")


def cuts(pieces: Iterable[ScenePiece]) -> dict[str, str]:
    """{key: cut} of these pieces; a key cut two ways is refused."""
    found: dict[str, str] = {}
    for piece in pieces:
        if found.setdefault(piece.key, piece.cut) != piece.cut:
            raise RulesError(f"the scene key {piece.key!r} is cut two ways")
    return found
