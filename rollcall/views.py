"""The rules pages, rendered from rules.registry so they cannot drift from the code."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules.kit import mechanics
from rules.registry import SYSTEMS


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "rules/index.html",
        {
            "systems": SYSTEMS.values(),
            "common_ground": mechanics.COMMON_GROUND,
        },
    )


def rules_system(request: HttpRequest, system: str) -> HttpResponse:
    game = SYSTEMS.get(system)
    if game is None:
        raise Http404("No such game system")
    decisions: dict[str, list[str]] = {}
    for mechanic_id, text in game.all_decisions():
        decisions.setdefault(mechanic_id, []).append(text)
    rows = [(m, decisions.get(m.id, [])) for m in game.mechanics]
    actions = [a for a in game.actions.values()]
    return render(
        request,
        "rules/system.html",
        {"game": game, "rows": rows, "actions": actions, "systems": SYSTEMS.values()},
    )
