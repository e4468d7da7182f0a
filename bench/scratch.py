"""What the benches set up for a run and throw away after it: the production settings
they run under, and a scratch PostgreSQL database for the runs on services (--services).

bench/table_load.py, bench/soak.py and bench/db_pool.py share these; they sit below
all three, so no bench imports another in a circle.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse, urlunparse

# Production settings (DEBUG off), for the bench process and the server alike.
SETTINGS_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",
}


def scratch_name(url: str) -> str:
    """A fresh database's name, from the name in `url` (bench_scale -> bench_scale_1a2b3c4d;
    rollcall_soak_... when the URL names the server's own postgres database). Never one
    starting with "test": Django's test runs create and drop test_* databases, and CI
    runs on the same server may be using them at the same time."""
    base = urlparse(url).path.lstrip("/")
    if not base or base in ("postgres", "template0", "template1"):
        base = "rollcall_soak"
    if base.lower().startswith("test"):
        base = f"bench_{base}"
    return f"{base[:50]}_{secrets.token_hex(4)}"


def _admin(url: str):
    """An autocommit connection to the server of `url`: to its own database, or to the
    server's postgres database when that one does not exist (a URL naming the branch's
    scratch databases, not a database made beforehand)."""
    import psycopg

    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            raise
        return psycopg.connect(
            urlunparse(urlparse(url)._replace(path="/postgres")), autocommit=True
        )


def fresh_database(url: str) -> tuple[str, str]:
    """Create an empty database on the server of `url`; (its URL, its name)."""
    name = scratch_name(url)
    with _admin(url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunparse(urlparse(url)._replace(path=f"/{name}")), name


def spread_campaign_ids() -> None:
    """Start the fresh database's campaign ids at a random point: the channel layer's
    group names carry the id, and other runs may share the Redis."""
    os.environ.update(SETTINGS_ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from campaigns.models import Campaign

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)",
            [Campaign._meta.db_table, random.randrange(10**6, 10**9)],
        )


def drop_database(url: str, name: str) -> None:
    with _admin(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def seeded_demo(folder: Path, seed: str, *args: str) -> tuple[dict, dict]:
    """The demo on a fresh SQLite database in `folder`, its static files collected, then
    `seed` (Python that calls django.setup() itself) run on it with `args`: (the
    environment a server on that database runs in, what the seed printed last, as JSON).
    The page-weight bench and the README's screenshots start from it."""
    root = Path(__file__).resolve().parents[1]
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        **SETTINGS_ENV,
        "SQLITE_PATH": str(folder / "demo.sqlite3"),
        "STATIC_ROOT": str(folder / "static"),
        "DJANGO_SETTINGS_MODULE": "rollcall.settings",
        "PYTHONPATH": str(root),
    }
    py = sys.executable
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"], ["load_demo"]):
        subprocess.run(
            [py, "manage.py", *command, "-v", "0"],
            cwd=root, env=env, check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    made = subprocess.run(
        [py, "-c", seed, *args], cwd=root, env=env, check=True, capture_output=True, text=True
    )
    return env, json.loads(made.stdout.strip().splitlines()[-1])
