"""Safe defaults that depend on the install: its own SECRET_KEY, and the hosts it serves.

Imported by the settings, so nothing here may use Django's settings.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from rollcall.reach import LOCAL_NAMES, is_wildcard, machine_addresses, machine_names


def install_secret_key(path: Path) -> str:
    """The SECRET_KEY kept in `path`, made on first use: random, readable by its owner only.

    Several processes may start at once (daphne workers, test workers): the key is written
    to a private file first and linked into place, so each one reads the same whole key.
    """
    key = _read_key(path)
    if key is not None:
        return key
    fresh = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(secrets.token_urlsafe(50) + "\n")
    try:
        os.link(fresh, path)
    except FileExistsError:
        pass  # another process made it first: use theirs
    except OSError:  # a file system without hard links
        if not path.exists():
            os.replace(fresh, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(fresh)
    key = _read_key(path)
    if key is None:
        raise ImproperlyConfigured(f"Could not keep a SECRET_KEY in {path}")
    return key


def _read_key(path: Path) -> str | None:
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    if len(key) < 50:
        raise ImproperlyConfigured(
            f"{path} holds no usable SECRET_KEY: delete it to have a new one made "
            "(everyone is logged out), or set SECRET_KEY"
        )
    return key


def served_hosts(host: str) -> list[str]:
    """ALLOWED_HOSTS for a server bound to `host`: the loopback names for a loopback
    address; for every address (0.0.0.0, ::) those, the machine's name and name.local and
    its own addresses; otherwise the address or name itself."""
    host = host.strip()
    if is_wildcard(host):
        return _unique([*LOCAL_NAMES, *machine_names(), *machine_addresses()])
    bare = host.strip("[]")
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        return _unique([host.lower(), *(LOCAL_NAMES if host.lower() == "localhost" else [])])
    if address.is_loopback:
        return list(LOCAL_NAMES)
    return [f"[{address}]" if address.version == 6 else str(address)]


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(n for n in names if n))
