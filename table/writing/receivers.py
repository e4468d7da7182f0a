"""How the table hears what happens in the apps below it.

The table sits on top (table -> sheets -> campaigns -> rules; accounts below them all):
it imports those apps, never the other way round. What they announce reaches it through
signals and one registration, all wired here when the app starts
(table.apps.TableConfig.ready calls connect()):

- a scene started or ended (campaigns.signals.scene_started / scene_ended, sent inside
  the scene change's transaction): logged at the table in that same transaction;
- HTML for the members' open pages (campaigns.signals.html_for_members, after a
  commit; the sheet pages' live updates, sheets.live): sent to their sockets;
- a membership changed (post_save / post_delete of campaigns.models.Membership): that
  user's sockets re-check their role at once;
- a session ended (django's user_logged_out, or its row deleted some other way): its
  sockets close with 4401; the user's other sessions keep theirs;
- a GM's sheet edit of a table-owned field (sheets.table_hook): a logged table action.
"""

from __future__ import annotations

import threading

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from campaigns import signals as campaign_signals
from campaigns.models import Membership
from sheets import table_hook
from table.live import broadcast
from table.writing import actions
from table.writing.sheet_writes import TableSheetWriter


def connect() -> None:
    """Connect every receiver once (each has a dispatch_uid) and register the writer."""
    table_hook.register(TableSheetWriter())
    campaign_signals.scene_started.connect(log_scene_started, dispatch_uid="table.scene_started")
    campaign_signals.scene_ended.connect(log_scene_ended, dispatch_uid="table.scene_ended")
    campaign_signals.html_for_members.connect(send_html, dispatch_uid="table.html_for_members")
    post_save.connect(membership_changed, sender=Membership, dispatch_uid="table.member_saved")
    post_delete.connect(membership_changed, sender=Membership, dispatch_uid="table.member_gone")
    user_logged_out.connect(on_logout, dispatch_uid="table.sockets.logout")
    post_delete.connect(on_session_deleted, sender=Session, dispatch_uid="table.sockets.session")


# --------------------------------------------------------------------------- campaigns


def log_scene_started(sender, *, campaign, scene, user=None, **kwargs) -> None:
    actions.scene_started(campaign, scene, user)


def log_scene_ended(sender, *, campaign, scene, user=None, **kwargs) -> None:
    actions.scene_ended(campaign, scene, user)


def send_html(sender, *, campaign_id: int, html: str, audience: str = "all", **kwargs) -> None:
    broadcast.send_html(campaign_id, html, audience)


def membership_changed(sender, instance, **kwargs) -> None:
    """A role change or a removal reaches that user's open sockets at once."""
    campaign_id, user_id = instance.campaign_id, instance.user_id
    transaction.on_commit(lambda: broadcast.notify_member(campaign_id, user_id), robust=True)


# --------------------------------------------------------------------------- sessions
#
# A table socket lives no longer than the session it was opened with: when a session
# ends (logout, or its row is deleted some other way), its sockets close with 4401
# (broadcast.close_session). The user's other sessions keep theirs.

_last = threading.local()  # the key a logout in this thread has already announced


def close_sockets_of(user_id: object, session_key: str | None) -> None:
    """Close the session's sockets in every campaign of the user, once committed."""
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
