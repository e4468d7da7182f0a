"""The GM's tools and the scene panel's hooks, declared as plain data by a game's package
(its TOOLS, a GameTools), so the table's pages offer them without naming any action.

- `difficulty`: the action by which the GM sets the scene's difficulty. The dashboard's
  "Set the difficulty" block and the same control on a player's pool in progress post
  it through the generic action form view, its fields prefixed with the action's name
  (`difficulty` from the game's `difficulty_fields` partial, `note`, `clear`, and who
  sees it).
- `gm_tools`: more blocks of the GM dashboard, in order, each playing one action
  (GmTool).
- `panel`: a box of the scene panel over something the scene keeps that its sides play
  in turns, the moves its forms make, and the roll a side's pool becomes on its turn
  (PanelBox).

A package that declares none of these gets NO_TOOLS: no difficulty, no more blocks, no
box. A tool's or a box's partial is a name of the game's partials (`rules.kit.ui.Partials`:
the game's own template, then the default one, or for "kit/<name>" the shared piece in
templates/games/kit/).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# A form (the POST's fields) read into an action's request.
FormReader = Callable[[Mapping[str, Any]], dict[str, Any]]
# The scene's state, as the member may see it, read into what a panel box shows, or None.
BoxReader = Callable[[Mapping[str, Any]], dict[str, Any] | None]

DIFFICULTY_WHERE = "the GM dashboard's difficulty"


@dataclass(frozen=True)
class GmTool:
    """One block of the GM dashboard that plays one of the game's actions.

    title: the block's summary; `opened`: whether it starts open. partial: the block's
    form (a game partial, given `tool` and the dashboard's context); without one, the
    block is the action's generic form, as "More actions" draws it. read: for a form
    with fields of its own, reads them into the action's request; the form then posts
    to the dashboard's tool view at `address` (table/gm/<address>/, the action's name
    when empty), which only a GM may use. Without it, the form posts to the generic
    action form view, its fields prefixed with the action's name. where: what "More
    actions" says of where the action is played.
    """

    action: str
    title: str
    partial: str = ""
    read: FormReader | None = None
    address: str = ""
    where: str = ""
    opened: bool = True

    @property
    def path(self) -> str:
        """The segment of the tool view's address (table/gm/<path>/)."""
        return self.address or self.action

    @property
    def played_at(self) -> str:
        return self.where or f"the GM dashboard's {self.title}"


@dataclass(frozen=True)
class Turn:
    """Whose move it is in what a panel box shows: the side's name, its character's id
    (None for a side the GM names), and whether only the GM plays it."""

    name: str
    sheet_id: int | None = None
    gm: bool = False


@dataclass(frozen=True)
class PanelMove:
    """A move a panel box's form makes: the action, and the form read into its request."""

    action: str
    read: FormReader


@dataclass(frozen=True)
class TurnRoll:
    """What a side's roll from its pool builder becomes on its turn.

    action: the action it is then. request(the pool's request, the builder's form, what
    the box shows) -> the turn's request, or None when the form asks for a plain roll.
    fields: a game partial with the builder's more fields while sides take turns;
    words: after "Roll" on the builder's button meanwhile; where: what "More actions"
    says of where the action is played.
    """

    action: str
    request: Callable[[dict[str, Any], Mapping[str, Any], Mapping[str, Any]], dict | None]
    fields: str = ""
    words: str = ""
    where: str = "the pool builder, on the side's turn"


@dataclass(frozen=True)
class PanelBox:
    """A box of the scene panel over something the scene keeps whose sides play in turns.

    read(state) -> what the box shows (given to its partial as `box`), or None: no box.
    turn(box) -> the side whose move it is, or None while no side rolls. partial: the
    box (a game partial, given `box`, `turn`: the side's name, character and recent
    pools when this member may move for it, `campaign`, `membership`). moves: the
    moves its forms post to table/<address>/, by the name each sends as `op`. roll:
    what the builder's roll of the side whose turn it is becomes. where: what "More
    actions" says of where the moves are played.
    """

    address: str
    partial: str
    read: BoxReader
    turn: Callable[[Mapping[str, Any]], Turn | None]
    moves: Mapping[str, PanelMove] = field(default_factory=dict)
    roll: TurnRoll | None = None
    where: str = "the scene panel"


@dataclass(frozen=True)
class GameTools:
    """A game's GM tools and scene-panel hooks (see the module's docstring)."""

    difficulty: str = ""
    gm_tools: tuple[GmTool, ...] = ()
    panel: PanelBox | None = None

    def tool_at(self, path: object) -> GmTool | None:
        """The tool with a form of its own at this address, or None."""
        found = (t for t in self.gm_tools if t.read is not None and t.path == path)
        return next(found, None)

    def actions(self) -> dict[str, str]:
        """Every action these tools play, and where the pages play it."""
        where: dict[str, str] = {}
        if self.difficulty:
            where[self.difficulty] = DIFFICULTY_WHERE
        for tool in self.gm_tools:
            where[tool.action] = tool.played_at
        if self.panel is not None:
            for move in self.panel.moves.values():
                where[move.action] = self.panel.where
            if self.panel.roll is not None:
                where[self.panel.roll.action] = self.panel.roll.where
        return where

    def partials(self) -> tuple[str, ...]:
        """The partial names these tools render (each must exist for the game)."""
        names = [t.partial for t in self.gm_tools if t.partial]
        if self.panel is not None:
            names.append(self.panel.partial)
            if self.panel.roll is not None and self.panel.roll.fields:
                names.append(self.panel.roll.fields)
        return tuple(names)


NO_TOOLS = GameTools()
