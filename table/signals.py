"""Signals the table sends, for apps above it (table never imports them).

`event_appended(sender=TableEvent, event=event)` is sent by table.writing.append.append right
after an event is written, inside the transaction that writes it: a receiver may write
rows of its own in that transaction (they commit, or roll back, with the event), and
must do nothing slow there (no network, no waiting), since the log head is locked.
The event is hidden from players while table.log.visibility.is_hidden(event) says so.
"""

from django.dispatch import Signal

event_appended = Signal()
