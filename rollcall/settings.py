"""Rollcall settings: one file, configured from the environment.

With no environment variables at all Rollcall runs embedded: SQLite in WAL mode
and the in-memory channel layer, one daphne process. DATABASE_URL selects
PostgreSQL and REDIS_URL the Redis pub/sub channel layer (docs/deploy.md).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from rollcall.install import install_secret_key, served_hosts
from rollcall.reach import friend_hosts, public_host, public_origin

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def env_bool(name: str, default: bool) -> bool:
    value = env_str(name)
    if value is None:
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int) -> int:
    value = env_str(name)
    return default if value is None else int(value)


def env_list(name: str, default: list[str]) -> list[str]:
    value = env_str(name)
    return default if value is None else [v.strip() for v in value.split(",") if v.strip()]


# Off unless asked for (DEBUG=1): Django's debug pages show settings and source code to
# whoever triggers an error.
DEBUG = env_bool("DEBUG", False)

# The embedded database's file; the generated SECRET_KEY is kept beside it.
SQLITE_PATH = Path(env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")))

SECRET_KEY = env_str("SECRET_KEY") or install_secret_key(
    Path(env_str("SECRET_KEY_FILE", str(SQLITE_PATH) + ".secret-key"))
)

# The address daphne listens on (`make run` passes its HOST on); the hosts that reach it
# by that address are allowed. An explicit ALLOWED_HOSTS wins (behind a proxy: the
# public name).
HOST = env_str("HOST", "127.0.0.1")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", served_hosts(HOST))
# The address friends open, behind a proxy or a tunnel (https://table.example): invite,
# overlay and Discord links are built on it, and its host is allowed. Unset, links are
# built on the address the page was opened at, or on the first of LAN_ADDRESSES when
# that is one only this machine knows (campaigns/links.py).
try:
    PUBLIC_URL = public_origin(env_str("PUBLIC_URL"))
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
if PUBLIC_URL and public_host(PUBLIC_URL) not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(public_host(PUBLIC_URL))
# Where friends on the network reach this server, best first (rollcall/reach.py): the
# machine's LAN addresses and name.local when it listens on every address, none when it
# listens on loopback only.
LAN_ADDRESSES = friend_hosts(HOST)

# Games kept outside rules/ (a package exposing what rules.kit.game reads), by module path,
# registered at start beside the five built in: "ROLLCALL_EXTRA_GAMES=mygames.dragons".
EXTRA_GAMES = env_list("ROLLCALL_EXTRA_GAMES", [])

INSTALLED_APPS = [
    "daphne",
    "rollcall.apps.AdminConfig",  # Django's admin, its log-in throttled (rollcall/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "django_htmx",
    "template_partials",
    "accounts",
    "campaigns",
    "sheets",
    "table",
    "integrations",
    "api",
]

MIDDLEWARE = [
    "rollcall.middleware.RejectUnknownHostMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "rollcall.middleware.HtmxLoginRedirectMiddleware",
    "rollcall.middleware.RejectNulCharactersMiddleware",
    "rollcall.middleware.PrivateAnswersMiddleware",
]

ROOT_URLCONF = "rollcall.urls"
WSGI_APPLICATION = "rollcall.wsgi.application"
ASGI_APPLICATION = "rollcall.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {
        # The roll card only (table/reading/jinja.py says why); found in <app>/jinja2/, and the
        # games' parts of it in templates/games/<slug>/*.jinja.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "table.reading.jinja.environment"},
    },
]

DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=env_int("CONN_MAX_AGE", 0), conn_health_checks=True
        )
    }
    # PostgreSQL connections come from a pool in each process: each HTTP request runs in
    # a thread of its own, and without a pool each one opened (and at its end closed) a
    # connection of its own, a new server process with cold caches (docs/deploy.md).
    # DB_POOL_MAX=0 turns it off (behind PgBouncer, say); so does CONN_MAX_AGE > 0,
    # which Django does not combine with a pool.
    POOL_MAX = env_int("DB_POOL_MAX", 10)
    if (
        DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
        and POOL_MAX > 0
        and DATABASES["default"]["CONN_MAX_AGE"] == 0
    ):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(env_int("DB_POOL_MIN", 2), POOL_MAX),
            "max_size": POOL_MAX,
            "timeout": env_int("DB_POOL_TIMEOUT", 10),
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_PATH),
            "OPTIONS": {
                # IMMEDIATE takes the write lock when a transaction starts, so two
                # spends queue up instead of failing with "database is locked".
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;"
                    "PRAGMA synchronous=NORMAL;"
                    "PRAGMA busy_timeout=20000;"
                    "PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    # Pub/sub delivers each group message once per subscribed process and keeps
    # no per-channel queues: measured faster and lossless here (docs/deploy.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 1000}}
    }
    # Room for every table's socket registry and action budget (table.live.limits) and the
    # campaigns' "no Discord hooks" marks (integrations.outbox) at 1,000 tables x 8:
    # with Django's default of 300 entries, culling dropped them under load, and every
    # roll then asked the database for its campaign's hooks again.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 200_000},
        }
    }

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# With DEBUG off whitenoise serves the files `collectstatic` gathered here under hashed
# names, cached for good by browsers; `make run` runs collectstatic before daphne.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
DATA_UPLOAD_MAX_MEMORY_SIZE = 512 * 1024

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from <body hx-headers>, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Served over HTTPS through a proxy that sets X-Forwarded-Proto (docs/deploy.md):
# BEHIND_TLS_PROXY=1 turns on the redirect to HTTPS, HSTS and secure cookies, each of
# which its own variable can turn off again. Off by default: `make run` serves plain HTTP.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", BEHIND_TLS_PROXY)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", BEHIND_TLS_PROXY)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", BEHIND_TLS_PROXY)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if BEHIND_TLS_PROXY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", BEHIND_TLS_PROXY)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", BEHIND_TLS_PROXY)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Other origins whose pages may post forms and open the table's websocket (the site's
# own origin always may), e.g. https://rollcall.example.com:8443
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
if PUBLIC_URL and PUBLIC_URL not in CSRF_TRUSTED_ORIGINS:
    CSRF_TRUSTED_ORIGINS.append(PUBLIC_URL)

# Content-Security-Policy on every response (django-csp): scripts, styles, images and
# connections from this origin only; no inline script, handler or style attribute, no
# eval. htmx's own indicator style is off (templates/base.html, htmx-config).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}

# Table limits (docs/protocol.md)
TABLE_SOCKET_RATE = env_int("TABLE_SOCKET_RATE", 20)  # messages per TABLE_SOCKET_WINDOW seconds
TABLE_SOCKET_WINDOW = env_int("TABLE_SOCKET_WINDOW", 10)
TABLE_MAX_MESSAGE_BYTES = env_int("TABLE_MAX_MESSAGE_BYTES", 16 * 1024)
TABLE_REPLAY_LIMIT = env_int("TABLE_REPLAY_LIMIT", 500)
# Rendered roll cards kept in each process (table/reading/rendering.py), bounded by size.
TABLE_CARD_CACHE_BYTES = env_int("TABLE_CARD_CACHE_BYTES", 8 * 1024 * 1024)
# bytes daphne may hold for a socket whose peer stops reading (rollcall/wslimits.py); 0: off
TABLE_SOCKET_MAX_BUFFER = env_int("TABLE_SOCKET_MAX_BUFFER", 1024 * 1024)
# One user at one table, over all their sockets and HTTP requests (table/live/limits.py, counted
# in the default cache): sockets kept open (a newer one closes the oldest; a sheet page
# holds one too) and actions per TABLE_USER_WINDOW seconds. 0: no limit.
TABLE_SOCKETS_PER_USER = env_int("TABLE_SOCKETS_PER_USER", 6)
TABLE_USER_RATE = env_int("TABLE_USER_RATE", 20)
TABLE_USER_WINDOW = env_int("TABLE_USER_WINDOW", 20)
TABLE_SOCKET_OPENS = env_int("TABLE_SOCKET_OPENS", 12)  # per session per TABLE_USER_WINDOW

# Sheets one member may make in a campaign (sheets/limits.py): every member's pages list
# the sheets, so one member cannot bloat everyone's. GMs keep the GM characters. 0: no limit.
SHEETS_PER_PLAYER = env_int("SHEETS_PER_PLAYER", 8)
SHEETS_PER_GM = env_int("SHEETS_PER_GM", 60)

# Portraits (sheets/portraits.py): uploads decoded at once in one process, and the
# seconds an upload waits for its turn before it is told the server is busy.
PORTRAIT_DECODES = env_int("PORTRAIT_DECODES", 2)
PORTRAIT_DECODE_WAIT = env_int("PORTRAIT_DECODE_WAIT", 5)

# --- Log-in and sign-up throttling (accounts/ratelimit.py, docs/reliability.md) -------
# Counted in the default cache above: process memory when embedded, Redis with
# REDIS_URL, so every daphne process shares the counts.
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)  # per username + client address
LOGIN_IP_FAILURE_LIMIT = env_int("LOGIN_IP_FAILURE_LIMIT", 20)  # per client address
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 5 * 60)  # seconds
# A household or a club behind one address should not meet these; a script does.
SIGNUP_LIMIT = env_int("SIGNUP_LIMIT", 20)  # accounts created per address, invites aside
SIGNUP_ATTEMPT_LIMIT = env_int("SIGNUP_ATTEMPT_LIMIT", 60)  # sign-up posts per address
SIGNUP_WINDOW = env_int("SIGNUP_WINDOW", 60 * 60)  # seconds
# How many reverse proxies in front of daphne append the client's address to
# X-Forwarded-For (nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for).
# 0 (the default): the header is ignored and the client address is REMOTE_ADDR, so a
# client reaching daphne directly cannot pick a new address for each guess. Behind such
# a proxy use 1, or every visitor shares the proxy's address and its limits.
TRUSTED_PROXY_HOPS = env_int("TRUSTED_PROXY_HOPS", 0)
# --- end of log-in and sign-up throttling -----------------------------------------------

# --- Discord webhooks (integrations/, docs/integrations.md) -----------------------------
# Webhook URLs are stored encrypted with a key derived from this (default: SECRET_KEY;
# changing it makes the stored URLs unreadable, and the GM is asked to paste them again).
DISCORD_WEBHOOK_KEY = env_str("DISCORD_WEBHOOK_KEY")
# Deliver from a thread of the daphne process (`make run` turns it on); in production run
# `manage.py discord_worker` as a process of its own instead (docs/deploy.md).
DISCORD_WORKER_IN_SERVER = env_bool("DISCORD_WORKER_IN_SERVER", False)
DISCORD_POLL_SECONDS = float(env_str("DISCORD_POLL_SECONDS", "1"))  # idle worker's pause
DISCORD_TIMEOUT_SECONDS = float(env_str("DISCORD_TIMEOUT_SECONDS", "10"))  # one request
# A worker holds a hook this long per message; a killed worker's hook is taken over after.
DISCORD_LEASE_SECONDS = float(env_str("DISCORD_LEASE_SECONDS", "60"))
DISCORD_BACKOFF_SECONDS = float(env_str("DISCORD_BACKOFF_SECONDS", "2"))  # first retry
DISCORD_BACKOFF_MAX_SECONDS = float(env_str("DISCORD_BACKOFF_MAX_SECONDS", "300"))
# Tests only: webhook URLs under this base (e.g. http://127.0.0.1:8765/) are accepted too,
# so a local receiver can stand in for Discord. Never set it in production.
DISCORD_TEST_WEBHOOK_BASE = env_str("DISCORD_TEST_WEBHOOK_BASE")
# --- end of Discord webhooks ---------------------------------------------------------------
# --- API tokens, the stream overlay (api/, docs/integrations.md) -------------------
# Requests per API token (and page loads per overlay link) per API_TOKEN_WINDOW seconds,
# counted in the default cache like the log-in limits; past it, 429 with Retry-After.
API_TOKEN_RATE = env_int("API_TOKEN_RATE", 120)
API_TOKEN_WINDOW = env_int("API_TOKEN_WINDOW", 60)
API_TOKENS_PER_MEMBER = env_int("API_TOKENS_PER_MEMBER", 10)  # live tokens, per campaign
OVERLAY_LINKS_PER_CAMPAIGN = env_int("OVERLAY_LINKS_PER_CAMPAIGN", 10)
# A quiet stream reads again and sends a keep-alive comment every this many seconds,
# and ends after API_STREAM_SECONDS (clients resume with Last-Event-ID).
API_STREAM_KEEPALIVE = env_int("API_STREAM_KEEPALIVE", 15)
API_STREAM_SECONDS = env_int("API_STREAM_SECONDS", 3600)
# --- end of API tokens and the stream overlay -----------------------------------------
