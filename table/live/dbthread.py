"""The database thread the table's sockets read and write in.

Socket consumers and the broadcast hubs live on the event loop; their database work
runs in Django's one database thread (sync_to_async, thread-sensitive), which keeps
its connections between messages instead of opening one per message.
"""

from __future__ import annotations

import time

from asgiref.sync import sync_to_async
from django.db import connections

IDLE_CHECK_SECONDS = 30.0  # a connection unused this long is checked before it is used


def keep_connections() -> None:
    """Keep this thread's database connections between messages; close broken ones.

    Reopening a SQLite connection (and checkpointing its WAL on close) for every
    message would cost several times what a roll does. A kept connection that sat idle
    may have been dropped meanwhile (a database restart, a firewall's idle timeout):
    one round trip finds out before an action relies on it, or that action would fail."""
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        idle = now - getattr(conn, "table_last_used", now)
        conn.table_last_used = now
        if conn.errors_occurred or idle >= IDLE_CHECK_SECONDS:
            if conn.is_usable():
                conn.errors_occurred = False
            else:
                conn.close()


def in_db_thread(func):
    """Run `func` in Django's one database thread, like channels' database_sync_to_async,
    but keeping the connection between messages (see keep_connections)."""

    def call(*args, **kwargs):
        keep_connections()
        return func(*args, **kwargs)

    return sync_to_async(call, thread_sensitive=True)
