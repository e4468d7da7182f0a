"""Where friends reach this server: its network addresses, and the links `make run` prints.

Read from the standard library and the kernel only, with no packet sent and no internet
needed. Imported by the settings, so nothing here may use Django's settings.
`python -m rollcall.reach` prints the addresses for HOST, PORT and PUBLIC_URL.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import struct
from pathlib import Path
from urllib.parse import urlsplit

LOCAL_NAMES = ["127.0.0.1", "localhost", "[::1]"]
WILDCARDS = {"0.0.0.0", "::", "[::]", ""}  # noqa: S104 - names of "every address", compared
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address
# A documentation address (TEST-NET-1): connecting a UDP socket to it sends nothing, but
# makes the kernel pick the address its route to other networks leaves from.
ROUTE_PROBE = ("192.0.2.1", 9)


def is_wildcard(host: str) -> bool:
    return host.strip() in WILDCARDS


def is_loopback(host: str) -> bool:
    """A name or address only this machine answers to (0.0.0.0 too: no other machine can
    open it)."""
    bare = host.strip().strip("[]").lower()
    if bare in {"localhost", "0.0.0.0", "::", ""} or bare.endswith(".localhost"):  # noqa: S104
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def machine_names() -> list[str]:
    """The machine's own name, and its mDNS name (name.local), without asking DNS."""
    name = socket.gethostname().lower()
    return [name, f"{name.split('.')[0]}.local"] if name else []


def lan_addresses() -> list[str]:
    """The IPv4 addresses other machines on this one's networks can reach it at: the one
    its route outwards leaves from first, then every interface's; loopback and link-local
    ones left out. Only when those find none is the host name looked up, which may ask
    DNS and wait on it."""
    found = [a for a in (*_routed_address(), *_interface_addresses()) if _reachable(a)]
    if not found:
        found = [a for a in _hostname_addresses() if _reachable(a)]
    return _unique(found)


def machine_addresses() -> list[str]:
    """Every address of this machine's interfaces, IPv6 too (bracketed, as in a Host)."""
    found = [*lan_addresses(), *_interface_addresses()]
    with contextlib.suppress(OSError):
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            digits = line.split()[0]
            address = ipaddress.IPv6Address(int(digits, 16))
            if not address.is_link_local:
                found.append(f"[{address}]")
    return _unique(found)


def _reachable(address: str) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (
        parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified or parsed.is_multicast
    )


def _routed_address() -> list[str]:
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(ROUTE_PROBE)
        return [probe.getsockname()[0]]
    return []


def _interface_addresses() -> list[str]:
    """Each interface's IPv4 address, read from the kernel (Linux); nothing elsewhere."""
    found: list[str] = []
    try:
        import fcntl  # Unix only: elsewhere the routed and host name's addresses serve

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    packed = struct.pack("256s", name.encode()[:15])
                    answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, packed)
                    found.append(socket.inet_ntoa(answer[20:24]))
    except (ImportError, OSError):
        pass
    return found


def _hostname_addresses() -> list[str]:
    with contextlib.suppress(OSError, UnicodeError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        return [info[4][0] for info in infos]
    return []


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(n for n in names if n))


def friend_hosts(host: str) -> list[str]:
    """The addresses friends reach a server bound to `host` at, best first: the LAN
    addresses and name.local for every address (0.0.0.0, ::), the address itself for
    one on the network, none for loopback."""
    if is_wildcard(host):
        return [*lan_addresses(), *machine_names()[1:]]
    if is_loopback(host):
        return []
    return [host.strip()]


def public_origin(public_url: str | None) -> str:
    """PUBLIC_URL as an origin (scheme://host[:port]), or "" when unset. Anything else is
    refused with a ValueError that says what was expected."""
    if not public_url:
        return ""
    parts = urlsplit(public_url.strip())
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ValueError(f"PUBLIC_URL must start with http:// or https://, not {public_url!r}")
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise ValueError(
            f"PUBLIC_URL is the site's address without a path, e.g. https://table.example, "
            f"not {public_url!r}"
        )
    return f"{parts.scheme}://{parts.netloc}".lower()


def public_host(origin: str) -> str:
    """The host name of an origin, as ALLOWED_HOSTS lists it (IPv6 bracketed)."""
    name = urlsplit(origin).hostname or ""
    return f"[{name}]" if ":" in name else name


def run_banner(host: str, port: str, public_url: str | None) -> str:
    """What `make run` prints: where friends open Rollcall, then where this machine does."""
    origin = public_origin(public_url)
    friends = [f"http://{name}:{port}/" for name in friend_hosts(host)]
    if origin:
        friends.insert(0, f"{origin}/")
    here = f"http://127.0.0.1:{port}/" if is_wildcard(host) or is_loopback(host) else ""
    lines = [""]
    if friends:
        lines.append("  Rollcall is running. Friends open it at:")
        lines += [f"    {url}" for url in friends]
        if here:
            lines.append(f"  On this machine: {here}")
    else:
        lines.append(f"  Rollcall is running at http://{host}:{port}/ (this machine only).")
        lines.append("  To let friends on your network in: HOST=0.0.0.0 make run")
    return "\n".join(lines)


if __name__ == "__main__":
    print(  # noqa: T201 - what `make run` shows
        run_banner(
            os.environ.get("HOST") or "127.0.0.1",
            os.environ.get("PORT") or "8000",
            os.environ.get("PUBLIC_URL"),
        )
    )
