"""The shape every system's actions share, and the two ways to run one.

`resolve(action, request, faces)` replays recorded faces; `roll(action,
request, rng)` draws them. Both call the same resolver, so a logged roll
always resolves again to the same outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from .errors import FaceError
from .faces import DrawnFaces, FaceSource, RecordedFaces
from .requests import require_mapping

Outcome = dict[str, Any]
Resolver = Callable[[Mapping, FaceSource], Outcome]


@dataclass(frozen=True)
class Action:
    """One thing a player or GM can do in a system.

    `rolls` is False for state changes without dice (stress steps, Bank moves,
    contest bookkeeping); those must be resolved with no faces.
    `schema` describes the request fields in plain data for docs and forms;
    `example` with `example_faces` resolves to the outcome shown in docs/rules-api.md.
    """

    name: str
    title: str
    resolver: Resolver
    rules: tuple[str, ...]
    schema: Mapping[str, Any] = field(default_factory=dict)
    example: Mapping[str, Any] = field(default_factory=dict)
    example_faces: tuple[int, ...] = ()
    rolls: bool = True


@dataclass(frozen=True)
class Rolled:
    faces: list[int]
    outcome: Outcome


def _run(action: Action, request: object, source: FaceSource) -> Outcome:
    req = require_mapping(request)
    outcome = action.resolver(req, source)
    if not isinstance(outcome, dict) or not isinstance(outcome.get("explanation"), str):
        raise TypeError(f"{action.name} returned an outcome without an explanation")
    return outcome


def resolve(action: Action, request: object, faces: object = ()) -> Outcome:
    source = RecordedFaces(faces)
    if not action.rolls and source.faces:
        raise FaceError(f"{action.title} does not roll dice, so it takes no faces")
    outcome = _run(action, request, source)
    source.finish()
    return outcome


def roll(action: Action, request: object, rng: Random | None = None) -> Rolled:
    source = DrawnFaces(rng)
    outcome = _run(action, request, source)
    return Rolled(faces=list(source.faces), outcome=outcome)
