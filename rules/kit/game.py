"""The Game interface: what the engines (campaigns, sheets, table, the rules pages) know of
a game, read from its package.

A game package under `rules/` exposes, in its `__init__`: SLUG, NAME, PREFIX (of its
rules IDs), SOURCE, MECHANICS, SHEET_TEMPLATE, ACTIONS, DECISIONS (the app's readings
where rules.md is silent, by mechanic ID) and ODDS_DECISIONS (the odds' readings). It
may also expose TABLE (its actions' transitions at the table, by action name: see
rules.kit.table), BUILDER (its pool builder: rules.kit.builder), POINTS (the counter the GM gives outside a roll, plot points unless it
says otherwise) and SESSION_FLAGS (sheet flags a new session clears, by group).
`game_from_package` turns them into one GameSystem; `rules.registry` holds them by slug.

A package may also declare, each with a default for a game that does not:
ODDS (its odds queries, `rules.kit.odds_queries`; default: none, said in words), UI
(what the pages show of it, a `rules.kit.ui.GameUi`; default: the generic pages),
TEMPLATES (the folder of its template partials; default: games/<slug>), SCORES
(scores computed on some sheets, a `rules.kit.ui.SheetScores`; default: none) and
DEMO (its demo campaign, a `rules.kit.demo.DemoCampaign`; default: none), ORDER (how
a scene's action order goes, a `rules.kit.order.OrderRules`; default: popcorn), READY
(what a sheet still needs before it can roll, in the game's words; default: one trait
with a die or a rating) and STARTERS (starter sheets a player picks and edits; default:
none): `rules.kit.starting`; FOUNDRY (how it reads a Foundry VTT actor of the Cortex
Prime system, `rules.kit.foundry`; default: it reads none), START_HERE (its "Start
here" page, a `rules.kit.starting.StartHere`; default: one from its sheet template),
SCENE (what it keeps for the scene, each key a `rules.kit.scene.ScenePiece`: how a void
gives it back, its words, how the scene panel shows it; default: nothing of its own) and
TOOLS (the GM dashboard's tools and the scene panel's hooks, a `rules.kit.tools.GameTools`;
default: none).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType

from .actions import Action
from .builder import PoolBuilder
from .demo import DemoCampaign
from .errors import RulesError
from .foundry import FoundryReading
from .mechanics import Mechanic
from .odds_queries import NO_ODDS, OddsQueries
from .order import DEFAULT_ORDER, OrderRules
from .scene import ScenePiece, cuts
from .sheet import SheetTemplate
from .starting import ReadyCheck, Starter, StartHere, default_ready, default_start_here
from .table import Points, Transition
from .tools import NO_TOOLS, GameTools
from .ui import DEFAULT_TEMPLATES, DEFAULT_UI, GameUi, Partials, SheetScores


@dataclass(frozen=True)
class GameSystem:
    slug: str
    name: str
    module: ModuleType
    sheet_template: SheetTemplate
    actions: dict[str, Action]
    mechanics: tuple[Mechanic, ...]
    source: str
    decisions: dict[str, tuple[str, ...]]
    table: Mapping[str, Transition] = field(default_factory=dict)
    points: Points = Points()
    session_flags: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    builder: PoolBuilder | None = None
    # Optional declarations: a package without them gets these defaults.
    odds: OddsQueries = NO_ODDS
    ui: GameUi = DEFAULT_UI
    partials: Partials = Partials(DEFAULT_TEMPLATES)
    scores: SheetScores | None = None
    demo: DemoCampaign | None = None
    order: OrderRules = DEFAULT_ORDER
    ready: ReadyCheck | None = None
    starters: tuple[Starter, ...] = ()
    foundry: FoundryReading | None = None
    start_here: StartHere | None = None
    scene: tuple[ScenePiece, ...] = ()
    tools: GameTools = NO_TOOLS

    def missing_to_roll(self, traits) -> tuple[str, ...]:
        """What the sheet still needs for a legal pool, in the game's words; () when ready."""
        check = self.ready or default_ready(self.sheet_template)
        return tuple(check(traits))

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


def game_from_package(package: ModuleType) -> GameSystem:
    """One game as the engines see it, from the names its package exposes."""
    return GameSystem(
        slug=package.SLUG,
        name=package.NAME,
        module=package,
        sheet_template=package.SHEET_TEMPLATE,
        actions=dict(package.ACTIONS),
        mechanics=tuple(package.MECHANICS),
        source=package.SOURCE,
        decisions=_decisions(package),
        table=dict(getattr(package, "TABLE", {})),
        points=getattr(package, "POINTS", Points()),
        session_flags=dict(getattr(package, "SESSION_FLAGS", {})),
        builder=getattr(package, "BUILDER", None),
        odds=getattr(package, "ODDS", NO_ODDS),
        ui=getattr(package, "UI", DEFAULT_UI),
        partials=Partials(getattr(package, "TEMPLATES", f"games/{package.SLUG}")),
        scores=getattr(package, "SCORES", None),
        demo=getattr(package, "DEMO", None),
        order=getattr(package, "ORDER", DEFAULT_ORDER),
        ready=getattr(package, "READY", None) or default_ready(package.SHEET_TEMPLATE),
        starters=tuple(getattr(package, "STARTERS", ())),
        foundry=getattr(package, "FOUNDRY", None),
        start_here=getattr(package, "START_HERE", None)
        or default_start_here(package.SHEET_TEMPLATE),
        scene=_scene(package),
        tools=getattr(package, "TOOLS", NO_TOOLS),
    )


def _scene(package: ModuleType) -> tuple[ScenePiece, ...]:
    """Its scene pieces (a key cut two ways is refused)."""
    pieces = tuple(getattr(package, "SCENE", ()))
    cuts(pieces)
    return pieces


def _decisions(package: ModuleType) -> dict[str, tuple[str, ...]]:
    """The game's own decisions, then its odds' decisions."""
    merged: dict[str, list[str]] = {k: list(v) for k, v in package.DECISIONS.items()}
    for mechanic_id, texts in package.ODDS_DECISIONS.items():
        merged.setdefault(mechanic_id, []).extend(texts)
    return {k: tuple(v) for k, v in merged.items()}
