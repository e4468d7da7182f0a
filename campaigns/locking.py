"""One lock order for every transaction, and a bounded retry for what still collides.

Every transaction that locks rows takes them in this order (docs/reliability.md,
"One lock order"), and never a lock earlier in the list after a later one:

1. the campaign row, FOR NO KEY UPDATE: campaign-level changes only (scenes, invites,
   members). NO KEY: inserting an event, a scene or a sheet that refers to the
   campaign takes a KEY SHARE lock on it, which FOR UPDATE would block and NO KEY
   UPDATE does not;
2. the campaign's log head (table.writing.actions): every change of table state, and the only
   lock a roll takes on its campaign;
3. the running scene's state, then the session state;
4. earlier events (a reveal's or void's target);
5. a sheet row, FOR NO KEY UPDATE, then its traits and counters.

SQLite has no row locks: each transaction takes the database's write lock at BEGIN
(IMMEDIATE), so transactions simply take turns. On PostgreSQL a deadlock or a
serialization failure that still happens (between a sheet edit that locked its sheet
and then goes through the table, say) is retried a bounded number of times from the
outermost transaction, and if it keeps failing the user reads "the table was busy",
never "the database is unreachable".
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import OperationalError, connection

log = logging.getLogger(__name__)

RETRIES = 4
# PostgreSQL's SQLSTATEs for a deadlock and for a serialization failure.
CONFLICT_STATES = frozenset({"40P01", "40001"})
T = TypeVar("T")


class Busy(Exception):
    """A transaction kept colliding with others; nothing was done."""

    def __init__(self) -> None:
        super().__init__("The table was busy and nothing was done: try again.")


def is_conflict(error: BaseException) -> bool:
    """A deadlock or serialization failure: the transaction was rolled back whole, so
    running it again is safe."""
    cause = error.__cause__ or error
    return getattr(cause, "sqlstate", None) in CONFLICT_STATES


def retry_conflicts(func: Callable[..., T]) -> Callable[..., T]:
    """Run `func` (which opens its own transaction) again after a deadlock or a
    serialization failure, up to RETRIES times with a short random pause; then raise
    Busy. Inside an outer transaction there is nothing to retry: the outer one was
    rolled back too, so the error goes to whoever opened it."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> T:
        if connection.in_atomic_block:
            return func(*args, **kwargs)
        for attempt in range(RETRIES + 1):
            try:
                return func(*args, **kwargs)
            except OperationalError as error:
                if not is_conflict(error):
                    raise
                log.warning("%s collided (%s), attempt %d", func.__name__, error, attempt + 1)
                if attempt == RETRIES:
                    raise Busy() from error
                time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))
        raise AssertionError("unreachable")

    return run
