"""How sheets hears what happens in campaigns, the app below it (which never imports
sheets): wired when the app starts (sheets.apps.SheetsConfig.ready calls connect()).

- the demo campaigns were loaded (campaigns.signals.demo_loaded, inside load_demo's
  transaction): their characters' sheets are filled in (sheets.demo).
"""

from __future__ import annotations

from campaigns import signals as campaign_signals

from .demo import load_demo_sheets


def connect() -> None:
    campaign_signals.demo_loaded.connect(fill_demo_sheets, dispatch_uid="sheets.demo_sheets")


def fill_demo_sheets(sender, *, campaigns, users, demos, **kwargs) -> None:
    load_demo_sheets(campaigns, users, demos)
