"""A second step before an action that cannot be taken back.

The first POST (a button on an ordinary page) only answers a page that asks "are you
sure?"; its button posts again with `confirm=yes`, and only that one acts. It needs no
JavaScript, works by keyboard, and a stray click or a replayed form changes nothing.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRM_FIELD = "confirm"


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get(CONFIRM_FIELD) == "yes"


def ask(
    request: HttpRequest,
    *,
    campaign,
    membership,
    question: str,
    consequence: str,
    button: str,
    cancel_url: str,
) -> HttpResponse:
    context = {
        "campaign": campaign,
        "membership": membership,
        "question": question,
        "consequence": consequence,
        "button": button,
        "cancel_url": cancel_url,
        "action": request.path,
    }
    return render(request, "campaigns/confirm.html", context)
