"""Settings: embedded by default, strict in production."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args, **env):
    clean = {
        k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_check_deploy_is_clean_with_production_environment():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="k" * 10 + "production-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="rollcall.example.com",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "env, message",
    [
        ({"DEBUG": "false", "ALLOWED_HOSTS": "x.example"}, "SECRET_KEY must be set"),
        ({"DEBUG": "false", "SECRET_KEY": "s" * 60}, "ALLOWED_HOSTS must be set"),
    ],
)
def test_production_refuses_to_start_without_secrets(env, message):
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_database_follows_environment():
    """No DATABASE_URL: embedded SQLite in WAL mode with IMMEDIATE transactions."""
    db = settings.DATABASES["default"]
    if os.environ.get("DATABASE_URL"):
        assert db["ENGINE"] == "django.db.backends.postgresql"
        return
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    assert "busy_timeout" in db["OPTIONS"]["init_command"]


def database_settings(**env) -> dict:
    """settings.DATABASES["default"] as a fresh process builds it from `env` (no connection
    is made)."""
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default'], default=str))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"CONN_MAX_AGE", "DB_POOL_MAX"}}
    clean.update(env, DJANGO_SETTINGS_MODULE="rollcall.settings")
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


POSTGRES = "postgres://rollcall@db.example:5432/rollcall"


@pytest.mark.parametrize(
    "env, pool",
    [
        ({}, {"min_size": 2, "max_size": 10, "timeout": 10}),
        ({"DB_POOL_MAX": "4", "DB_POOL_MIN": "1"}, {"min_size": 1, "max_size": 4, "timeout": 10}),
        ({"DB_POOL_MAX": "0"}, None),  # behind PgBouncer, say
        ({"CONN_MAX_AGE": "60"}, None),  # persistent connections instead; Django has no both
    ],
)
def test_postgresql_connections_are_pooled_unless_turned_off(env, pool):
    db = database_settings(DATABASE_URL=POSTGRES, **env)
    assert db["OPTIONS"].get("pool") == pool
    assert db["CONN_HEALTH_CHECKS"] is True


def test_channel_layer_follows_environment():
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if os.environ.get("REDIS_URL"):
        assert backend == "channels_redis.pubsub.RedisPubSubChannelLayer"
    else:
        assert backend == "channels.layers.InMemoryChannelLayer"
