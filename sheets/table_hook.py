"""The door from a sheet edit to the table's roll log.

Plot points, stress and the other table-owned fields of a sheet (`table_owned` in the
game's rules.kit.sheet.SheetTemplate) change only through the roll log, so a GM's edit of
one on the sheet page must become a logged table event. The table app sits above
sheets and imports it, never the other way round: it registers its writer here when
it starts (table.apps.TableConfig.ready), and sheets.services calls whatever is
registered.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured

from .models import Counter, Sheet, Trait


class TableWriter(Protocol):
    """Writes a table-owned change as a logged event, in the caller's transaction.

    Each method raises sheets.services.SheetError for a refused value and
    sheets.services.Conflict when the row moved on since `version` (the version the
    editor loaded; None when adding a trait).
    """

    def set_counter(self, sheet: Sheet, user: Any, key: str, value: int, version: int) -> Counter:
        """Set the counter; returns its row as it now is."""
        ...

    def set_die(
        self,
        sheet: Sheet,
        user: Any,
        group: str,
        name: str,
        die: str | None,
        version: int | None,
    ) -> Trait | None:
        """Set a trait's die ("d8", "d12+d6"); None clears a fixed trait's die and removes
        any other trait; version None adds a trait. Returns the row, None once removed."""
        ...


_writer: TableWriter | None = None


def register(writer: TableWriter) -> None:
    global _writer
    _writer = writer


def writer() -> TableWriter:
    if _writer is None:
        raise ImproperlyConfigured(
            "No table writer is registered: table-owned sheet fields need the table app."
        )
    return _writer
