"""A table socket lives no longer than the session it was opened with: when a session
ends (logout, or its row is deleted some other way), its sockets close with 4401
(table.broadcast.close_session). The user's other sessions keep theirs."""

from __future__ import annotations

import threading

from django.contrib.auth import SESSION_KEY
from django.db import transaction
from django.utils import timezone

_last = threading.local()  # the key a logout in this thread has already announced


def close_sockets_of(user_id: object, session_key: str | None) -> None:
    """Close the session's sockets in every campaign of the user, once committed."""
    from campaigns.models import Membership
    from table import broadcast

    try:
        user_id = int(user_id)  # the session stores it as text
    except (TypeError, ValueError):
        return
    if not session_key:
        return
    campaign_ids = list(
        Membership.objects.filter(user_id=user_id).values_list("campaign_id", flat=True)
    )
    if campaign_ids:
        transaction.on_commit(
            lambda: broadcast.close_session(campaign_ids, session_key), robust=True
        )


def on_logout(sender, request, user, **kwargs) -> None:
    """user_logged_out, sent before the session is flushed."""
    session = getattr(request, "session", None)
    session_key = getattr(session, "session_key", None)
    if not session_key:
        return
    user_id = getattr(user, "pk", None) or session.get(SESSION_KEY)
    _last.key = session_key
    close_sockets_of(user_id, session_key)


def on_session_deleted(sender, instance, **kwargs) -> None:
    """A session row deleted without the logout signal: a stale password hash (Django
    flushes that session before logout() runs, which then sees nobody), a log-in as
    someone else, a key cycled by a password change, the admin. Expired rows
    (clearsessions) are skipped: decoding each of them is not worth it."""
    if getattr(_last, "key", None) == instance.session_key:
        _last.key = None
        return
    if instance.expire_date <= timezone.now():
        return
    close_sockets_of(instance.get_decoded().get(SESSION_KEY), instance.session_key)
