"""What campaigns tells the apps above it, without importing them.

campaigns sits below sheets and table (table -> sheets -> campaigns -> rules): it never
imports them. Where a change here has to reach them, it sends one of these signals,
and the app above connects its receiver in its AppConfig.ready() (table.writing.receivers).

- `scene_started`, `scene_ended` (campaign, scene, user): sent by
  campaigns.services.start_scene / end_scene inside the transaction that changes the
  scene, so the table logs the change in that same transaction. A receiver's
  exception rolls the scene change back with it: the log and the scenes never
  disagree.
- `html_for_members` (campaign_id, html, audience): a fragment of HTML for the open
  pages of a campaign's members, sent once the transaction that changed what it shows
  commits (`send_html_on_commit`). The table, which holds the members' sockets,
  delivers it. `audience` is "all" (every member) or "gm" (the GMs only).
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

scene_started = Signal()
scene_ended = Signal()
html_for_members = Signal()

AUDIENCES = ("all", "gm")


def send_html_on_commit(campaign_id: int, html: str, audience: str = "all") -> None:
    """Send `html` to the members' open pages after the current transaction commits (at
    once outside one); nothing is sent if it rolls back."""
    if audience not in AUDIENCES:
        raise ValueError(f"audience must be one of {AUDIENCES}, not {audience!r}")
    transaction.on_commit(
        lambda: html_for_members.send(
            sender=None, campaign_id=campaign_id, html=html, audience=audience
        ),
        robust=True,
    )
