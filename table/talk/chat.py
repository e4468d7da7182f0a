"""Talk at the table: chat lines in the log, and `/roll` from the chat line.

`say()` is what the socket's "say" message and the chat form's POST call. A line is
trimmed and checked here (never empty, at most MAX_TEXT characters), then written
through table.writing.actions.chat_in like every other event. A line that starts with `/roll`
is a roll instead: the pool is named by the traits of the speaker's character, built
by the game's own pool builder (rules.kit.builder.build, as clicking the same traits
does) and rolled by the builder's Roll button's own function (table.pools.rolls.roll_pool),
with the dice the GM added to the roll while it was built.

    /roll Fightin' + Mean + Pistol          traits of the character, by name
    /roll Guns, Agility, Big Score           commas work as well as "+"
    /roll Fightin' + Mean secret             GM only: behind the screen
    /roll Fightin' + Mean blind              a player's roll for the GM's eyes
    /roll Swordplay: disarm the guard        after a colon, the goal (Personae asks
                                             for one; a contest move takes it too)

Names are matched as the table matches names (rules.kit.table.norm: case, spacing and
curly quotes do not count); a scene or session Asset is named the same way. A name the
character does not have is refused, naming it, and nothing is logged.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts.text import shown_text
from rules.kit.table import norm
from rules.kit.ui import whole_number
from table.models import TableEvent, Visibility
from table.pools import rolls
from table.pools.builder import build, playable_sheets, sheet_for_builder
from table.reading.reads import membership_of
from table.writing import actions
from table.writing.actions import ActionError

MAX_TEXT = 1000
ROLL_COMMAND = "/roll"
MODES = actions.CHAT_MODES
ROLL_VISIBILITY = {"secret": Visibility.GM, "blind": Visibility.BLIND}
SEPARATORS = re.compile(r"\s*[+,]\s*")
WHISPER_TO = "whisper:"


def speaker(data) -> tuple[str, int | None]:
    """The chat form's "speak" ("ic:<sheet id>", "ooc", "whisper" or "whisper:<user id>"),
    or "mode" and "sheet_id" sent apart: (mode, sheet id or None)."""
    speak = str(data.get("speak") or "")
    if speak.startswith("ic:"):
        return "ic", whole_number(speak[3:], digits=18)
    if speak.startswith(WHISPER_TO):
        return "whisper", None
    if speak:
        return speak, None
    sheet_id = data.get("sheet_id")
    if isinstance(sheet_id, int) and not isinstance(sheet_id, bool):
        return str(data.get("mode") or "ooc"), sheet_id
    return str(data.get("mode") or "ooc"), whole_number(sheet_id, digits=18)


def to_of(data) -> int | None:
    """Whom a whisper is for: the user id in "whisper:<user id>" (the chat form's
    "speak") or in "to" (the socket's "say"); None for the GM. A malformed id names
    nobody (0), so it is refused as a missing player, never sent to the GM instead."""
    speak = str(data.get("speak") or "")
    if speak.startswith(WHISPER_TO):
        return whole_number(speak[len(WHISPER_TO) :], digits=18) or 0
    raw = data.get("to")
    if raw in (None, ""):
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    return whole_number(raw, digits=18) or 0


def clean_text(text: object) -> str:
    """The line as it is logged: without hidden characters (accounts.text.shown_text: no
    control codes or direction overrides reach the others' cards or the export), trimmed,
    never empty, at most MAX_TEXT characters (it is HTML-escaped wherever it is shown)."""
    if not isinstance(text, str):
        raise ActionError("Write something to say.")
    text = shown_text(text).strip()
    if not text:
        raise ActionError("Write something to say: the line is empty.")
    if len(text) > MAX_TEXT:
        raise ActionError(f"That line is too long: at most {MAX_TEXT} characters.")
    return text


def is_roll(text: str) -> bool:
    first = text.split(maxsplit=1)[0] if text else ""
    return first.casefold() == ROLL_COMMAND


def say(
    campaign_id: int,
    user,
    mode: object,
    text: object,
    *,
    sheet_id: int | None = None,
    expect: tuple[str, int] | None = None,
    to: int | None = None,
) -> TableEvent:
    """One line from the chat box: talk, or a `/roll`. Raises ActionError (nothing is
    logged) for an empty or too long line, an unknown mode, a character the speaker
    does not control, a trait the character does not have, or a whisper to someone the
    speaker may not whisper to (table.acting.whispers)."""
    line = clean_text(text)
    if is_roll(line):
        return roll_line(campaign_id, user, line, sheet_id=sheet_id, expect=expect)
    if mode not in MODES:
        raise ActionError("Say how: in character (ic), out of character (ooc) or whisper.")
    return actions.chat_in(
        campaign_id, user, mode=str(mode), text=line, sheet_id=sheet_id, expect=expect, to=to
    )


def parse_roll(line: str) -> tuple[list[str], str, str]:
    """`/roll A + B, C secret: win` -> (["A", "B", "C"], "gm", "win"): the names, the
    visibility a last word "secret" or "blind" asks for, and the goal after a colon."""
    body = line.split(maxsplit=1)[1] if len(line.split(maxsplit=1)) > 1 else ""
    body, _, goal = body.partition(":")
    words = body.rsplit(maxsplit=1)
    chosen = Visibility.PUBLIC
    if words and words[-1].casefold() in ROLL_VISIBILITY:
        chosen = ROLL_VISIBILITY[words[-1].casefold()]
        body = words[0] if len(words) > 1 else ""
    names = [name.strip() for name in SEPARATORS.split(body) if name.strip()]
    return names, chosen, goal.strip()


def roll_form(
    names: list[str], traits: list, clickable: tuple[str, ...], assets: list, character: str
) -> dict[str, Any]:
    """The builder's form data for named traits: the traits' ids in the order named
    (clicking them == naming them), and the table Assets named."""
    by_name: dict[str, Any] = {}
    for trait in traits:
        if trait.group in clickable:
            by_name.setdefault(norm(trait.name), trait)
    asset_names = {norm(name): name for name, _, _ in assets}
    ids: list[int] = []
    table_assets: list[str] = []
    for name in names:
        key = norm(name)
        if key in by_name:
            ids.append(by_name[key].pk)
        elif key in asset_names:
            table_assets.append(asset_names[key])
        else:
            raise ActionError(f"{character} has no trait called “{name[:60]}”.")
    return {"trait": ids, "table_asset": table_assets}


def click_through(campaign, sheet, named: dict[str, Any], inputs, *, gm: bool):
    """Click the named traits one after another, as a player does in the builder (a
    click may bring or replace others: a skill its attribute, a Refinement its
    Stylin'): (the builder's form data, the pool it builds)."""
    data: dict[str, Any] = {**named, "trait": []}
    pool = build(campaign, sheet, data, inputs, gm=gm)
    for trait_id in named["trait"]:
        if trait_id in data["trait"]:
            continue
        data = {**data, "trait": [*data["trait"], trait_id], "clicked": trait_id}
        pool = build(campaign, sheet, data, inputs, gm=gm)
        data["trait"] = list(pool.selected)
    data.pop("clicked", None)
    return data, pool


def roll_line(
    campaign_id: int,
    user,
    line: str,
    *,
    sheet_id: int | None = None,
    expect: tuple[str, int] | None = None,
) -> TableEvent:
    """`/roll` with a pool named by traits: clicked through the game's builder, then
    rolled by table.pools.rolls.roll_pool, as the pool builder's Roll button is (with the dice
    the GM added to the roll while it was built)."""
    membership = membership_of(campaign_id, user)
    if membership is None:
        raise actions.NotMember("You are not a member of this campaign.")
    campaign = membership.campaign
    builder = campaign.game.builder
    if builder is None:
        raise ActionError(
            f"{campaign.game.name} has no pool builder, so /roll has nothing to build."
        )
    if sheet_id is None:
        own = playable_sheets(campaign, membership, user)
        if len(own) != 1:
            raise ActionError("Choose the character who rolls: pick “IC as …” beside the line.")
        sheet_id = own[0].pk
    try:
        sheet = sheet_for_builder(campaign, membership, user, sheet_id)
    except Http404 as error:
        raise ActionError("No such character in this campaign.") from error
    except PermissionDenied as error:
        raise ActionError("You can only roll for your own characters.") from error
    names, chosen, goal = parse_roll(line)
    if not names:
        raise ActionError("Name the traits to roll: /roll Trait + Trait + Trait.")
    table = rolls.read_table(campaign, membership, sheet)
    inputs = table.inputs
    named = roll_form(names, inputs.traits, builder.clickable, inputs.assets, sheet.name)
    if goal:
        named["goal"] = goal
    data, _ = click_through(campaign, sheet, named, inputs, gm=membership.is_gm)
    rolled = rolls.roll_pool(
        campaign,
        membership,
        user,
        sheet,
        data,
        visibility=chosen,
        table=table,
        expect=expect,
        empty="Those traits make no pool to roll.",
    )
    return rolled.event
