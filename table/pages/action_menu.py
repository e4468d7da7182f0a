"""Which of a game's actions the table page offers as forms under "More actions", and
where the others are played.

An action is left out when the page already has a real control for it (the pool
builder, the GM dashboard's opposition and points, the tools and panel hooks the game
declares: its difficulty, its dashboard blocks, its panel box's moves and the roll on a
side's turn; the card menu's quick actions); `control_of` names it, and the page says
where. Every other action gets a form when each of its fields is plain
(a number, a switch, a choice, a die, a line of text) or one the game declares a
picker for (rules.kit.ui.FieldControl, table/pages/action_forms.py): nobody types JSON.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.kit.actions import Action
from table.acting.state import handler_for
from table.pages.forms import plain_fields

# Actions with a control of their own on the dashboard, whatever the game.
DASHBOARD_ACTIONS = {
    "give_points": "the GM dashboard's points",
}


def control_of(game, action: Action, *, gm: bool = True) -> str:
    """Where the page plays the action with a control of its own, or "". The roll card's
    menu is the GM's: a player takes such an action from its form where the game
    declares one for players (its UI's player_fields)."""
    name = action.name
    if name in DASHBOARD_ACTIONS:
        return DASHBOARD_ACTIONS[name]
    tools = game.tools.actions()  # the game's GM tools and panel hooks (rules.kit.tools)
    if name in tools:
        return tools[name]
    if name in game.ui.played_elsewhere:
        return game.ui.played_elsewhere[name]
    if name in game.ui.card_actions:
        if not gm and name in game.ui.player_fields:
            return ""
        return "the roll card's menu" if gm else "the GM's roll card menu"
    if name == game.ui.opposition.action:
        return "the GM dashboard's Roll opposition"
    if game.builder is not None and name == game.builder.roll_action:
        return "the pool builder"
    return ""


def field_controls(game, action: Action, *, gm: bool = True) -> Mapping:
    """The pickers the game declares for the action's nested fields (a player's own
    for an action the GM takes from the roll card's menu)."""
    if not gm and action.name in game.ui.player_fields:
        return game.ui.player_fields[action.name]
    return game.ui.action_fields.get(action.name, {})


def has_form(game, action: Action, *, gm: bool = True) -> bool:
    return plain_fields(action, field_controls(game, action, gm=gm))


def more_actions(game, *, gm: bool = True) -> tuple[list[Action], list[tuple[Action, str]]]:
    """(offered as forms, (action, where it is played) for those with their own
    control), in the game's order. For the GM, an action the game declares pickers for
    is offered even beside its own control (a GM side without a GM character plays it
    so); a player gets no form beside a control, and nothing of the GM's own actions.
    An action with neither is in neither list."""
    offered: list[Action] = []
    elsewhere: list[tuple[Action, str]] = []
    for action in game.actions.values():
        if not gm and handler_for(game, action.name).gm_only:
            continue
        where = control_of(game, action, gm=gm)
        declared = gm and action.name in game.ui.action_fields
        if where and not declared:
            elsewhere.append((action, where))
        elif has_form(game, action, gm=gm):
            offered.append(action)  # a control elsewhere may miss a case (a GM side)
    return offered, elsewhere
