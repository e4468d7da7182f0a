"""Settings: embedded by default, strict in production."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


# Variables these tests set themselves: the shell's are left out.
OWN_VARS = {
    "DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "ALLOWED_HOSTS", "HOST", "SQLITE_PATH",
    "BEHIND_TLS_PROXY", "TRUSTED_PROXY_HOPS", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "CSRF_TRUSTED_ORIGINS", "PUBLIC_URL",
}  # fmt: skip


def run_manage(*args, **env):
    clean = {k: v for k, v in os.environ.items() if k not in OWN_VARS}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True
    )


# docs/deploy.md's production environment, behind nginx terminating TLS.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k" * 10 + "production-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "rollcall.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://rollcall.example.com",
    "BEHIND_TLS_PROXY": "true",
    "TRUSTED_PROXY_HOPS": "1",
}


def test_check_deploy_is_clean_with_production_environment():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


def test_check_deploy_is_clean_with_the_key_made_for_the_install(tmp_path):
    """No SECRET_KEY given: the one generated beside the database passes Django's check
    of a key's length and variety."""
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        **env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_without_tls_settings_names_what_is_missing():
    """Served over plain HTTP (make run), the TLS settings are off, and the check says so:
    they are not on by accident where they would lock a local user out."""
    env = {k: v for k, v in PRODUCTION.items() if k != "BEHIND_TLS_PROXY"}
    result = run_manage("check", "--deploy", **env)
    for code in ("W004", "W008", "W012", "W016"):
        assert code in result.stderr + result.stdout


def settings_of(*names: str, **env) -> dict:
    """Settings as a fresh process builds them from `env` (and none of the shell's own)."""
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}, default=str))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in OWN_VARS}
    clean.update(env, DJANGO_SETTINGS_MODULE="rollcall.settings")
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    if result.returncode:
        raise RuntimeError(result.stderr)
    return json.loads(result.stdout)


def test_with_no_environment_debug_is_off(tmp_path):
    got = settings_of("DEBUG", "SECURE_SSL_REDIRECT", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert got == {"DEBUG": False, "SECURE_SSL_REDIRECT": False}
    assert settings_of("DEBUG", DEBUG="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))["DEBUG"]


def test_the_secret_key_is_made_once_per_install_beside_the_database(tmp_path):
    database = tmp_path / "db.sqlite3"
    first = settings_of("SECRET_KEY", SQLITE_PATH=str(database))["SECRET_KEY"]
    kept = tmp_path / "db.sqlite3.secret-key"
    assert kept.read_text().strip() == first
    assert len(first) >= 50
    assert kept.stat().st_mode & 0o777 == 0o600  # its owner's only
    assert settings_of("SECRET_KEY", SQLITE_PATH=str(database))["SECRET_KEY"] == first
    other = settings_of("SECRET_KEY", SQLITE_PATH=str(tmp_path / "other.sqlite3"))
    assert other["SECRET_KEY"] != first  # another install, another key
    given = settings_of("SECRET_KEY", SQLITE_PATH=str(database), SECRET_KEY="s" * 60)
    assert given["SECRET_KEY"] == "s" * 60


def test_processes_starting_together_share_one_key(tmp_path):
    """Daphne workers or test workers starting at once: each reads the same whole key."""
    code = "from pathlib import Path; import sys; from rollcall.install import install_secret_key; print(install_secret_key(Path(sys.argv[1])))"
    kept = tmp_path / "key"
    starts = [
        subprocess.Popen([sys.executable, "-c", code, str(kept)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]  # fmt: skip
    keys = {p.communicate(timeout=60)[0].strip() for p in starts}
    assert keys == {kept.read_text().strip()}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key"]  # no temporary left over


def test_a_spoilt_key_file_stops_the_start_with_a_reason(tmp_path):
    (tmp_path / "db.sqlite3.secret-key").write_text("short\n")
    with pytest.raises(RuntimeError, match="holds no usable SECRET_KEY"):
        settings_of("SECRET_KEY", SQLITE_PATH=str(tmp_path / "db.sqlite3"))


@pytest.mark.parametrize(
    "host, allowed",
    [
        (None, ["127.0.0.1", "localhost", "[::1]"]),
        ("127.0.0.1", ["127.0.0.1", "localhost", "[::1]"]),
        ("::1", ["127.0.0.1", "localhost", "[::1]"]),
        ("192.0.2.7", ["192.0.2.7"]),
        ("rollcall.example.com", ["rollcall.example.com"]),
    ],
)
def test_allowed_hosts_follow_the_host_served(tmp_path, host, allowed):
    env = {"SQLITE_PATH": str(tmp_path / "db.sqlite3")}
    if host is not None:
        env["HOST"] = host
    assert settings_of("ALLOWED_HOSTS", **env)["ALLOWED_HOSTS"] == allowed


def test_every_address_allows_the_machines_names_and_no_wildcard(tmp_path):
    import socket

    got = settings_of("ALLOWED_HOSTS", HOST="0.0.0.0", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    hosts = got["ALLOWED_HOSTS"]
    assert {"127.0.0.1", "localhost", socket.gethostname().lower()} <= set(hosts)
    assert "*" not in hosts and not any(h.startswith(".") for h in hosts)


def test_an_explicit_allowed_hosts_wins(tmp_path):
    got = settings_of(
        "ALLOWED_HOSTS", HOST="0.0.0.0", ALLOWED_HOSTS="table.example, 192.0.2.9",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )  # fmt: skip
    assert got["ALLOWED_HOSTS"] == ["table.example", "192.0.2.9"]


def test_every_address_friends_are_given_is_allowed(tmp_path):
    got = settings_of(
        "ALLOWED_HOSTS", "LAN_ADDRESSES", HOST="0.0.0.0", SQLITE_PATH=str(tmp_path / "db.sqlite3")
    )
    assert set(got["LAN_ADDRESSES"]) <= set(got["ALLOWED_HOSTS"])
    assert not {"127.0.0.1", "localhost", "0.0.0.0", "[::1]"} & set(got["LAN_ADDRESSES"])
    assert any(name.endswith(".local") for name in got["LAN_ADDRESSES"])
    alone = settings_of("LAN_ADDRESSES", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert alone["LAN_ADDRESSES"] == []


@pytest.mark.parametrize("allowed", [None, "rollcall.internal"])
def test_public_url_is_allowed_and_trusted(tmp_path, allowed):
    env = {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "PUBLIC_URL": "https://Table.example:8443/"}
    if allowed:
        env["ALLOWED_HOSTS"] = allowed
    got = settings_of("PUBLIC_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", **env)
    assert got["PUBLIC_URL"] == "https://table.example:8443"
    assert "table.example" in got["ALLOWED_HOSTS"]
    assert got["CSRF_TRUSTED_ORIGINS"] == ["https://table.example:8443"]


@pytest.mark.parametrize("bad", ["table.example", "ftp://table.example", "https://t.example/rc/"])
def test_a_public_url_that_is_no_site_address_is_refused_at_start(tmp_path, bad):
    with pytest.raises(RuntimeError, match="PUBLIC_URL"):
        settings_of("PUBLIC_URL", PUBLIC_URL=bad, SQLITE_PATH=str(tmp_path / "db.sqlite3"))


def test_forwarded_for_is_not_trusted_unless_configured(tmp_path):
    """Even with the production settings: only TRUSTED_PROXY_HOPS says a proxy is there."""
    env = {k: v for k, v in PRODUCTION.items() if k != "TRUSTED_PROXY_HOPS"}
    assert settings_of("TRUSTED_PROXY_HOPS", **env)["TRUSTED_PROXY_HOPS"] == 0


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
