"""Links people open on other machines (invites, the stream overlay): absolute, and on an
address those machines can reach.

PUBLIC_URL wins (behind a proxy or a tunnel). Without it a link uses the address the
page was opened at, unless that is one only this machine knows (127.0.0.1, localhost,
0.0.0.0) while the server listens on the network: then the first of LAN_ADDRESSES.
"""

from __future__ import annotations

import ipaddress

import segno
from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port
from django.utils.safestring import SafeString, mark_safe


def _opened_here_only(request: HttpRequest) -> bool:
    """The page was opened at a name or address no other machine can use."""
    domain, _ = split_domain_port(request.get_host())
    bare = domain.strip("[]")
    if bare in {"localhost", "0.0.0.0", "::"} or bare.endswith(".localhost"):  # noqa: S104
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def site_url(request: HttpRequest, path: str) -> str:
    """`path` as a link friends can open."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL + path
    if _opened_here_only(request) and settings.LAN_ADDRESSES:
        _, port = split_domain_port(request.get_host())
        host = settings.LAN_ADDRESSES[0] + (f":{port}" if port else "")
        return f"{request.scheme}://{host}{path}"
    return request.build_absolute_uri(path)


def works_here_only(request: HttpRequest) -> bool:
    """True when a link built for this page opens on this machine only: no PUBLIC_URL,
    the page opened at a loopback address, and the server listening on no network."""
    return not settings.PUBLIC_URL and _opened_here_only(request) and not settings.LAN_ADDRESSES


def qr_svg(url: str, title: str) -> SafeString:
    """`url` as a QR code, inline SVG markup (no data: URI, which the CSP refuses)."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=4, border=4, title=title, svgclass="qr", lineclass=None)
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S308 - segno's own markup, title escaped
