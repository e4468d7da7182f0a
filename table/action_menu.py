"""Which of a game's actions the table page offers as forms under "More actions".

An action is left out when the page already has a real control for it (the pool
builder, the GM dashboard's opposition, difficulty, bonus dice, points and contest
controls, the card menu's quick actions), or when one of its fields is a nested
shape (a pool, a contest's state, a list of people) that only its own control
builds: nobody at the table types JSON. Those are still played, from their
controls, the sheet page or the API; the page names them.
"""

from __future__ import annotations

from rules.kit.actions import Action

from .forms import plain_fields

# Actions with a control of their own on the dashboard, whatever the game.
DASHBOARD_ACTIONS = frozenset(
    {"set_difficulty", "grant_bonus_dice", "give_points", "contest_start"}
)


def has_own_control(game, action: Action) -> bool:
    if action.name in DASHBOARD_ACTIONS or action.name in game.ui.card_actions:
        return True
    if action.name == game.ui.opposition.action:
        return True
    return game.builder is not None and action.name == game.builder.roll_action


def more_actions(game) -> tuple[list[Action], list[Action]]:
    """(offered as plain forms, played from their own controls), in the game's order."""
    offered: list[Action] = []
    elsewhere: list[Action] = []
    for action in game.actions.values():
        if has_own_control(game, action) or not plain_fields(action):
            elsewhere.append(action)
        else:
            offered.append(action)
    return offered, elsewhere
