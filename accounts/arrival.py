"""What the page a log-in leads to says and does for a newcomer.

A view may carry two functions, called with its URL's arguments: `welcome()`, what the
log-in and sign-up pages show a visitor on their way to it (an invite names its
campaign, game and GM), and `arrive(request)`, run right after the log-in or sign-up,
which answers where to go instead (an invite joins and lands at the table). accounts
imports no app above it: it finds them by resolving the `next` URL.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from django.http import HttpRequest
from django.urls import Resolver404, resolve


def _hook(next_url: str, name: str) -> Callable[..., Any] | None:
    if not next_url:
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    hook = getattr(match.func, name, None)
    return partial(hook, **match.kwargs) if hook else None


def welcome(next_url: str) -> dict | None:
    hook = _hook(next_url, "welcome")
    return hook() if hook else None


def arrive(request: HttpRequest, next_url: str) -> str | None:
    hook = _hook(next_url, "arrive")
    return hook(request) if hook else None
