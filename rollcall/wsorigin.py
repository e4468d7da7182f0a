"""Who may open the table's websocket: pages of this site only, scheme and port included.

A page on another site can make the browser open a socket to the table with the user's
cookie (cross-site websocket hijacking); browsers always send that page's Origin. The
handshake is accepted when the Origin is this very site, `scheme://host[:port]` as the
request reached it, the rule Django's CSRF check applies to form posts:

- the Host header must be one of ALLOWED_HOSTS;
- the Origin must be that host with the same port, and https exactly when the socket is
  secure (wss, or a trusted TLS proxy's X-Forwarded-Proto: SECURE_PROXY_SSL_HEADER);
- or the Origin is one of CSRF_TRUSTED_ORIGINS (exactly, or `https://*.example.com`).

Everything else, a missing Origin included, is refused before the socket is accepted.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin1")
    return None


def _secure(scope) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    meta_name, secure_value = proxy
    name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
    value = _header(scope, name)
    return value is not None and value.split(",", 1)[0].strip() == secure_value


def own_origin(scope) -> str | None:
    """`scheme://host[:port]` of this request, if its Host is an allowed one."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return f"{'https' if _secure(scope) else 'http'}://{host.lower()}"


def trusted(origin: str) -> bool:
    """In CSRF_TRUSTED_ORIGINS, as Django's CSRF check reads them."""
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    for allowed in settings.CSRF_TRUSTED_ORIGINS:
        if "*" not in allowed:
            continue
        pattern = urlsplit(allowed)
        if pattern.scheme == parts.scheme and is_same_domain(
            parts.netloc, pattern.netloc.replace("*", "", 1)
        ):
            return True
    return False


def origin_allowed(scope) -> bool:
    origin = _header(scope, b"origin")
    if not origin:
        return False
    origin = origin.strip().lower()
    return origin == own_origin(scope) or trusted(origin)


class SameOriginOnly:
    """ASGI middleware for websockets: hands the connection on only from an allowed
    Origin (origin_allowed), else closes it before it is accepted."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
