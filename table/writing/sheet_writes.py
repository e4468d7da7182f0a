"""The table's side of sheets.table_hook: a GM's sheet edit of a table-owned field
(plot points, stress, ...) is run as the table action "set_counter" or "set_die"
through actions.perform_in, so it is locked, checked, logged, voidable and broadcast
like any other action, in the sheet edit's own transaction.

Registered by table.apps.TableConfig.ready. Refusals come back as the sheet's own
errors (SheetError beside the field, Conflict when the row moved on), so the sheet
page shows them as it shows any other.
"""

from __future__ import annotations

from typing import Any

from sheets import services
from sheets.models import Counter, Sheet, Trait
from table.acting.state import StaleSheetValue
from table.models import Visibility
from table.writing import actions


def _visibility(sheet: Sheet) -> str:
    """A hidden GM character's changes stay with the GMs, as its sheet does."""
    return Visibility.GM if sheet.hidden else Visibility.PUBLIC


class TableSheetWriter:
    def set_counter(self, sheet: Sheet, user: Any, key: str, value: int, version: int) -> Counter:
        request = {"counter": key, "value": value, "table": {"version": version}}
        try:
            actions.perform_in(
                sheet.campaign_id,
                user,
                "set_counter",
                request,
                sheet_id=sheet.pk,
                visibility=_visibility(sheet),
            )
        except StaleSheetValue:
            raise services.Conflict(Counter.objects.get(sheet=sheet, key=key)) from None
        except actions.ActionError as error:
            raise services.SheetError({"value": str(error)}) from None
        return Counter.objects.get(sheet=sheet, key=key)

    def set_die(
        self,
        sheet: Sheet,
        user: Any,
        group: str,
        name: str,
        die: str | None,
        version: int | None,
    ) -> Trait | None:
        options: dict[str, Any] = {"new": True} if version is None else {"version": version}
        request = {"group": group, "trait": name, "die": die, "table": options}
        try:
            event = actions.perform_in(
                sheet.campaign_id,
                user,
                "set_die",
                request,
                sheet_id=sheet.pk,
                visibility=_visibility(sheet),
            )
        except StaleSheetValue:
            current = Trait.objects.filter(sheet=sheet, group=group, name=name).first()
            if current is None:
                raise services.Gone() from None
            raise services.Conflict(current) from None
        except actions.ActionError as error:
            raise services.SheetError({"die": str(error)}) from None
        return Trait.objects.filter(sheet=sheet, group=group, name=event.request["trait"]).first()
