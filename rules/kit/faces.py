"""Where faces come from: drawn from the server's generator, or replayed from a log.

Resolvers ask a FaceSource for each face as they need it, so chains of any
length (UNI-6, UNI-7) record every face drawn, and replaying with too few or
too many faces is an error rather than a guess.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from random import Random

from .errors import FaceError

SYSTEM_RANDOM = secrets.SystemRandom()


class FaceSource:
    faces: list[int]

    def draw(self, size: int) -> int:
        raise NotImplementedError

    def draw_many(self, sizes: Sequence[int]) -> list[int]:
        return [self.draw(s) for s in sizes]


class DrawnFaces(FaceSource):
    """Draws fresh faces and records them; the only place table randomness comes from."""

    def __init__(self, rng: Random | None = None) -> None:
        self.rng = rng if rng is not None else SYSTEM_RANDOM
        self.faces = []

    def draw(self, size: int) -> int:
        face = self.rng.randint(1, size)
        self.faces.append(face)
        return face


class RecordedFaces(FaceSource):
    """Replays logged faces in order, checking each fits the die it is read for."""

    def __init__(self, faces: object) -> None:
        if not isinstance(faces, list | tuple):
            raise FaceError("faces must be a list of whole numbers")
        self.faces = list(faces)
        self.position = 0

    def draw(self, size: int) -> int:
        if self.position >= len(self.faces):
            raise FaceError(
                f"not enough faces: the roll needs more than the {len(self.faces)} recorded"
            )
        face = self.faces[self.position]
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= size:
            raise FaceError(f"face #{self.position + 1} ({face!r}) cannot come up on a d{size}")
        self.position += 1
        return face

    def finish(self) -> None:
        if self.position != len(self.faces):
            extra = len(self.faces) - self.position
            raise FaceError(f"{extra} recorded face(s) were not used by this roll")
