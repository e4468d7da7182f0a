"""Starter sheets: a game's archetypes (its STARTERS, `rules.kit.starting.Starter`) made
into a new sheet the player then edits. A starter is written in the import format and
goes through the importer's checks, so it can never hold what the form would refuse."""

from __future__ import annotations

from campaigns.models import Campaign, Membership
from rules.kit.starting import Starter
from rules.registry import get_system

from . import validation as v
from .exchange import FORMAT, VERSION, check_document, import_sheet
from .models import Sheet


def starters_for(system: str) -> tuple[Starter, ...]:
    return get_system(system).starters


def create_from_starter(
    campaign: Campaign,
    starter: Starter,
    *,
    name: str,
    kind: str,
    owner=None,
    npc_kind: str = "",
    hidden: bool = False,
    creator: Membership | None = None,
) -> Sheet:
    """A new sheet filled from the starter; refused at the creator's cap (limits.AtSheetCap)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "system": campaign.system,
        **starter.document(),
        "name": name,
        "kind": kind,
    }
    if kind == v.KIND_NPC:
        document.update(npc_kind=npc_kind, hidden=hidden)
    clean = check_document(document, campaign.system, may_import_npc=kind == v.KIND_NPC)
    return import_sheet(campaign, clean, owner=owner, creator=creator)
