"""Waking a worker of this process as soon as a message is queued.

A worker in another process (manage.py discord_worker) finds new rows on its next poll
(DISCORD_POLL_SECONDS); one running in this process (the thread `make run` starts) is
woken at once when the queueing transaction commits.
"""

from __future__ import annotations

import threading

queued = threading.Event()


def wake_workers() -> None:
    queued.set()
