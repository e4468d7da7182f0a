"""Deliver queued Discord messages until stopped (SIGTERM or Ctrl-C): the production
worker, a process of its own beside daphne (docs/deploy.md). Several may run at once:
each hook is served by one of them at a time."""

from __future__ import annotations

import signal

from django.core.management.base import BaseCommand

from integrations.worker import Worker


class Command(BaseCommand):
    help = "Post the campaigns' queued Discord messages, in order (docs/integrations.md)."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="post what is due now, then exit")
        parser.add_argument("--name", default=None, help="this worker's name in its leases")

    def handle(self, *args, once: bool = False, name: str | None = None, **options):
        worker = Worker(name)
        if once:
            while worker.run_once():
                pass
            return
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: worker.stop())
        self.stdout.write(f"Discord worker {worker.owner} running; SIGTERM or Ctrl-C stops it.")
        self.stdout.flush()
        worker.run()
