"""The pickers of the More-actions forms: what a member may pick from, and the rules
request built from what they picked.

A field the action's schema leaves nested is asked for as the game declares it
(rules.kit.ui.FieldControl): a character's traits ticked and turned into the pool
builder's request (table.pools.builder, the same request the builder's Roll button makes),
dice picked by size, characters picked from a list. Earlier rolls, contests and the
other character are picked from lists too. Every list is what this member may see
(table.log.visibility, table.pages.scene_panel); a name or number that is not on it is refused
with the same words whether it is missing or hidden. The server fills the values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campaigns.models import Campaign, Membership
from rules.kit.builder import form_ints, form_list
from rules.kit.dice import SIZES
from rules.kit.ui import CHARACTER, DICE, KEPT_DICE, PEOPLE, POOL, FieldControl
from sheets.models import Sheet, Trait
from table.log import visibility
from table.models import Kind
from table.pages.forms import dice_from_pickers
from table.pages.scene_panel import visible_events, visible_sheets
from table.pools.builder import build, builder_inputs

RECENT_ROLLS = 30
# What a character picked to roll "like" another takes of its roll (the rest is theirs).
SAME_ROLL = ("kind", "attribute_name", "second_attribute_name", "skill_name", "difficulty")
DICE_ROWS = 3
NO_SUCH_ROLL = "That roll is not in this table's log."
NO_SUCH_CHARACTER = "That character is not at this table."
NO_SUCH_CONTEST = "That contest is not going on in this scene."


class PickError(ValueError):
    """A pick the member may not make; the message is the same for missing and hidden."""


@dataclass
class TraitGroup:
    label: str
    traits: list[tuple[int, str]]  # (trait id, "Name d8")


@dataclass
class Pickers:
    """Everything the More-actions forms offer one member, read once per page."""

    sheets: list[Sheet]  # the characters this member may see
    acting: list[Sheet]  # the characters this member may act for
    rolls: list[tuple[int, str]]  # (seq, "#12 Mal: 2 successes"), newest first
    contests: list[tuple[int, str]]  # (contest id, "#1 Mal against Thugs")
    state: Mapping[str, Any] = field(default_factory=dict)  # the scene as the member sees it
    die_sizes: tuple[str, ...] = tuple(f"d{size}" for size in SIZES)
    picked_roll: int | None = None  # the kept roll whose dice were picked
    traits: dict[int, list[TraitGroup]] = field(default_factory=dict)  # by sheet id
    # The fixed scores a roll may be against (FieldControl.score): ("id:key", "Vamp: Combat").
    scores: list[tuple[str, str]] = field(default_factory=list)
    scores_title: str = ""

    def sheet(self, raw: object, among: list[Sheet] | None = None) -> Sheet:
        wanted = form_ints([raw])
        for sheet in self.sheets if among is None else among:
            if wanted and sheet.pk == wanted[0]:
                return sheet
        raise PickError(NO_SUCH_CHARACTER)


def acting_sheets(campaign: Campaign, membership: Membership, sheets: list[Sheet]) -> list[Sheet]:
    """A GM acts for any character; a player for their own."""
    if membership.is_gm:
        return sheets
    return [s for s in sheets if s.owner_id == membership.user_id]


def recent_rolls(campaign: Campaign, membership: Membership) -> list[tuple[int, str]]:
    """The latest actions this member may see in full (a hidden one is not listed)."""
    audience = visibility.audience_of(membership)
    events = visible_events(campaign, membership).filter(kind=Kind.ACTION, voided=False)
    out = []
    for event in events.order_by("-seq")[: RECENT_ROLLS * 2]:
        if visibility.sees(event, audience, membership.user_id):
            event = visibility.projected(event, audience)
            who = (event.refs or {}).get("character") or {}
            name = who.get("name") if isinstance(who, Mapping) else None
            label = f"#{event.seq} {name + ': ' if name else ''}{event.headline or event.action}"
            out.append((event.seq, label[:120]))
        if len(out) >= RECENT_ROLLS:
            break
    return out


def open_contests(state: Mapping[str, Any]) -> list[tuple[int, str]]:
    out = []
    for key, record in (state.get("contests") or {}).items():
        contest = record.get("contest") if isinstance(record, Mapping) else None
        if not isinstance(contest, Mapping) or contest.get("status") not in (
            "open",
            "stress_pending",
        ):
            continue
        names = [
            str(s.get("name", "")) for s in contest.get("sides") or [] if isinstance(s, Mapping)
        ]
        number = form_ints([record.get("id", key)])
        if number:
            out.append((number[0], f"#{number[0]} {' against '.join(names)}"[:120]))
    return out


def named_params(game, params: tuple[str, ...], state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The table options of `params` that name something the game keeps for the scene
    (a ScenePiece's named_by, rules.kit.scene): each asked as a name, typed or picked
    from those the scene keeps (as the member sees it)."""
    return [
        {"param": piece.named_by, "label": piece.name_label, "names": piece.names(state)}
        for piece in game.scene
        if piece.named_by and piece.named_by in params
    ]


def pickers_for(
    campaign: Campaign, membership: Membership, state: Mapping[str, Any], controls
) -> Pickers:
    """The lists for this member; the traits only when some form ticks traits."""
    sheets = list(visible_sheets(campaign, membership))
    pickers = Pickers(
        sheets=sheets,
        acting=acting_sheets(campaign, membership, sheets),
        rolls=recent_rolls(campaign, membership),
        contests=open_contests(state),
        state=state,
    )
    declared = campaign.game.scores
    if declared is not None and any(c.kind == POOL and c.score for c in controls):
        pickers.scores_title = declared.title
        for sheet in sheets:
            if sheet.kind == Sheet.Kind.NPC and sheet.npc_kind in declared.npc_kinds:
                pickers.scores += [
                    (f"{sheet.pk}:{key}", f"{sheet.name}: {key.title()}") for key in declared.keys
                ]
    builder = campaign.game.builder
    if builder is not None and any(c.kind == POOL for c in controls):
        labels = {g.key: g.label for g in campaign.game.sheet_template.groups}
        traits = Trait.objects.filter(
            sheet__in=[s.pk for s in sheets], group__in=builder.clickable
        ).order_by("sheet_id", "position", "pk")
        by_sheet: dict[int, dict[str, list[tuple[int, str]]]] = {}
        for trait in traits:
            rating = trait.die_label if trait.die else trait.rating
            label = f"{trait.name} {rating}" if rating not in (None, "") else trait.name
            by_sheet.setdefault(trait.sheet_id, {}).setdefault(trait.group, []).append(
                (trait.pk, label)
            )
        for sheet_id, groups in by_sheet.items():
            pickers.traits[sheet_id] = [
                TraitGroup(labels.get(key, key.title()), groups[key])
                for key in builder.clickable
                if key in groups
            ]
    return pickers


@dataclass
class KeptRoll:
    """A roll the scene keeps, as a member may see it, its dice in order."""

    seq: int
    label: str
    dice: list[tuple[int, str]]  # (index, "Agility d8: 6 (total)")
    apart: str = ""  # the die placed by name, not picked (FieldControl.apart)


def kept_rolls(
    state: Mapping[str, Any],
    source: str,
    sheets: list[Sheet],
    apart: str = "",
    control: FieldControl | None = None,
) -> list[KeptRoll]:
    """The rolls kept under `source` in the scene state the member sees, newest first;
    a die flagged `apart` is named beside the list, not in it (it is not picked). With
    the control's `pick_if` / `pick_unless`, only the dice it picks are listed, and a
    roll with none is left out."""
    pick_if = control.pick_if if control is not None else ""
    pick_unless = control.pick_unless if control is not None else ""
    names = {s.pk: s.name for s in sheets}
    out = []
    skip = control.roll_unless if control is not None else ()
    for key, record in (state.get(source) or {}).items():
        seq = form_ints([key])
        dice = record.get("dice") if isinstance(record, Mapping) else None
        if not seq or not isinstance(dice, list):
            continue
        if any(record.get(k) == v for k, v in skip):
            continue
        shown, placed = [], ""
        for index, die in enumerate(dice):
            if not isinstance(die, Mapping):
                continue
            role = f" ({die['role']})" if die.get("role") else ""
            label = f"{die.get('trait', '')} {die.get('die', '')}: {die.get('face', '')}{role}"
            if apart and die.get(apart):
                placed = label
                continue
            if (pick_if and not die.get(pick_if)) or (pick_unless and die.get(pick_unless)):
                continue
            shown.append((index, label))
        if not shown and (pick_if or pick_unless):
            continue
        who = names.get(record.get("sheet"), "GM")
        out.append(KeptRoll(seq[0], f"#{seq[0]} {who}", shown, placed))
    return sorted(out, key=lambda r: -r.seq)


@dataclass
class PickerRow:
    """One nested field of a form as the page draws it."""

    name: str
    key: str  # the form's name for it ("<action>-<field>")
    kind: str
    label: str
    whose: str = "acting"
    sheets: list[tuple[Sheet, list[TraitGroup]]] = field(default_factory=list)  # POOL
    choices: list[Sheet] = field(default_factory=list)  # PEOPLE, CHARACTER, a picked POOL
    rows: range = range(0)  # DICE
    kept: list[KeptRoll] = field(default_factory=list)  # KEPT_DICE
    slots: tuple[tuple[str, int], ...] = ()
    apart: str = ""  # KEPT_DICE: where the die placed by name goes, and the choices
    apart_choices: tuple[tuple[str, str], ...] = ()
    scores: list[tuple[str, str]] = field(default_factory=list)  # POOL: or a fixed score


def picker_rows(action, controls: Mapping[str, FieldControl], pickers: Pickers) -> list[PickerRow]:
    """The pickers of one action's form, in its schema's order (FROM_TABLE fields are the
    table's and are not drawn)."""
    rows = []
    for name in action.schema:
        control = controls.get(name)
        if control is None or control.kind not in (POOL, DICE, PEOPLE, CHARACTER, KEPT_DICE):
            continue
        row = PickerRow(
            name=name,
            key=f"{action.name}-{name}",
            kind=control.kind,
            label=control.label or name.replace("_", " ").capitalize(),
            whose=control.whose,
        )
        if control.kind == POOL:
            among = pickers.sheets if control.whose == "picked" else pickers.acting
            row.sheets = [
                (s, pickers.traits.get(s.pk, [])) for s in among if pickers.traits.get(s.pk)
            ]
            row.choices = [s for s, _ in row.sheets]
            if control.score:
                row.scores = pickers.scores
        elif control.kind == DICE:
            row.rows = range(DICE_ROWS)
        elif control.kind == KEPT_DICE:
            row.kept = kept_rolls(
                pickers.state, control.source, pickers.sheets, control.apart, control
            )
            row.apart, row.apart_choices = control.apart, control.apart_choices
            row.slots = control.slots
        else:
            row.choices = list(pickers.sheets)
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- reading the picks


def field_value(
    campaign: Campaign,
    membership: Membership,
    pickers: Pickers,
    name: str,
    control: FieldControl,
    data: Mapping,
    prefix: str,
    acting: Sheet | None,
    done: Mapping[str, Any] | None = None,
) -> Any:
    """One nested field's value from the member's picks, or None when nothing was
    picked (the rules then say what is missing). Raises PickError."""
    key = f"{prefix}-{name}"
    value: Any = None
    if control.kind == POOL:
        value = _pool_value(campaign, membership, pickers, key, control, data, acting)
    elif control.kind == DICE:
        try:
            entries = dice_from_pickers(
                form_list(data, f"{key}-die"), form_list(data, f"{key}-die_name")
            )
        except ValueError as error:
            raise PickError(str(error)) from error
        value = [{**e, "group": control.group} if control.group else e for e in entries] or None
    elif control.kind == PEOPLE:
        picked = [pickers.sheet(raw) for raw in form_list(data, key)[:20] if str(raw).strip()]
        if control.by_id:
            same = (done or {}).get(control.like) if control.like else None
            rolled = {k: v for k, v in (same or {}).items() if k in SAME_ROLL}
            value = [{**rolled, "sheet_id": s.pk} for s in picked] or None
        else:
            value = [s.name for s in picked] or None
    elif control.kind == CHARACTER:
        raw = str(data.get(key, "") or "").strip()
        value = pickers.sheet(raw).name if raw else None
    elif control.kind == KEPT_DICE:
        value = _kept_dice_value(pickers, key, control, data)
    if value is not None and control.wrap:
        value = {control.wrap: value}
    return value


def _kept_dice_value(pickers: Pickers, key: str, control: FieldControl, data: Mapping) -> Any:
    """{slot: index or [indices]} (or the one index) of dice of one kept roll, whose seq
    is noted in `picked_roll` for the request's table.roll."""
    rolls = kept_rolls(pickers.state, control.source, pickers.sheets, control.apart, control)
    kept = {r.seq: r for r in rolls}
    picked: dict[str, list[int]] = {}
    seqs = set()
    for slot, count in control.slots:
        values = form_list(data, f"{key}-{slot}" if slot else key)[: count + 1]
        for raw in values:
            seq, _, index = str(raw).partition(":")
            seq_n, index_n = form_ints([seq]), form_ints([index])
            roll = kept.get(seq_n[0]) if seq_n else None
            if roll is None or not index_n or index_n[0] not in {i for i, _ in roll.dice}:
                raise PickError(NO_SUCH_ROLL)
            seqs.add(roll.seq)
            picked.setdefault(slot, []).append(index_n[0])
        if slot in picked and len(picked[slot]) != count:
            raise PickError(
                f"Pick {count} {'die' if count == 1 else 'dice'} for the {slot or 'move'}."
            )
    if not picked:
        return None
    if len(seqs) > 1:
        raise PickError("Pick the dice of one roll.")
    pickers.picked_roll = seqs.pop()
    if control.slots == (("", 1),):
        return picked[""][0]
    value = {slot: (v[0] if dict(control.slots)[slot] == 1 else v) for slot, v in picked.items()}
    offered = dict(control.apart_choices)
    chosen = [v for v in form_list(data, f"{key}-{control.apart}") if v in offered]
    if chosen and kept[pickers.picked_roll].apart:
        value[control.apart] = chosen[0]
    return value


def _form_fields(data: Mapping, key: str) -> dict[str, Any]:
    """The form's own plain fields (its goal, a typed difficulty), which the builder reads
    too: a pool ticked on the form is built as the form asks, so it is not refused for a
    goal the form holds (PER-8, PER-9)."""
    prefix = key.partition("-")[0] + "-"
    return {
        k[len(prefix) :]: data.get(k)
        for k in data
        if k.startswith(prefix) and "-" not in k[len(prefix) :]
    }


def _score_value(pickers: Pickers, key: str, data: Mapping) -> dict[str, Any] | None:
    """UNI-5, UNI-8: a fixed score picked instead of a roll, by character and score; the
    table reads the number from that character's sheet."""
    raw = str(data.get(f"{key}-score", "") or "").strip()
    if not raw:
        return None
    if raw not in {value for value, _ in pickers.scores}:
        raise PickError(NO_SUCH_CHARACTER)
    sheet_id, _, score = raw.partition(":")
    return {"sheet_id": int(sheet_id), "score_of": score}


def _pool_value(campaign, membership, pickers, key, control, data, acting) -> Any:
    if control.score:
        score = _score_value(pickers, key, data)
        if score is not None:
            return score
    ticked = form_ints(form_list(data, f"{key}-trait")[:60])
    if control.whose == "picked":
        raw = str(data.get(f"{key}-sheet", "") or "").strip()
        if not raw:
            return None
        sheet = pickers.sheet(raw)
    else:
        if not ticked:
            return None
        if acting is None:
            raise PickError("Choose the character whose traits these are.")
        sheet = acting
    fields = {**_form_fields(data, key), "trait": ticked}
    pool = build(
        campaign, sheet, fields, builder_inputs(campaign, sheet, pickers.state),
        gm=membership.is_gm,
    )  # fmt: skip
    if pool.errors:
        raise PickError(f"{sheet.name}: {pool.errors[0]}")
    if pool.request is None or not pool.selected:
        raise PickError(f"Tick {sheet.name}'s traits for this roll.")
    request = dict(pool.request)
    if control.only:
        return request.get(control.only)
    if control.take:
        request = {k: v for k, v in request.items() if k in control.take}
    if control.sheet_key:
        request[control.sheet_key] = sheet.pk
    return request


def table_params(pickers: Pickers, membership: Membership, campaign: Campaign, data: Mapping):
    """The table options picked on the form (which contest, which earlier roll, the other
    character, the name of something the game keeps for the scene), each checked against
    what this member may see (a name is free text: the transition looks it up)."""
    out: dict[str, Any] = {}
    contest = str(data.get("table_contest", "") or "").strip()
    if contest:
        number = form_ints([contest])
        if not number or number[0] not in {c for c, _ in pickers.contests}:
            raise PickError(NO_SUCH_CONTEST)
        out["contest"] = number[0]
    target = str(data.get("table_target", "") or "").strip()
    if target:
        out["target"] = pickers.sheet(target).pk
    for key in ("roll", "from_seq"):
        raw = str(data.get(f"table_{key}", "") or "").strip()
        if not raw:
            continue
        number = form_ints([raw])
        seq = number[0] if number else None
        audience = visibility.audience_of(membership)
        found = visibility.referenced_event(
            campaign.pk, seq, audience, membership.user_id, voided=False
        )
        if found is None or found.kind != Kind.ACTION:
            raise PickError(NO_SUCH_ROLL)
        out[key] = seq
    if pickers.picked_roll is not None:
        if out.get("roll", pickers.picked_roll) != pickers.picked_roll:
            raise PickError("Those dice are not from the earlier roll picked.")
        out["roll"] = pickers.picked_roll
    for key in sorted({p.named_by for p in campaign.game.scene if p.named_by}):
        raw = " ".join(str(data.get(f"table_{key}", "") or "").split())[:80]
        if raw and key not in out:
            out[key] = raw
    return out


__all__ = [
    "DICE_ROWS",
    "PickerRow",
    "picker_rows",
    "NO_SUCH_CHARACTER",
    "NO_SUCH_ROLL",
    "PickError",
    "Pickers",
    "field_value",
    "named_params",
    "pickers_for",
    "table_params",
]
