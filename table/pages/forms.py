"""Forms for table actions.

`ActionForm` is built from a rules Action's schema: plain fields for numbers,
switches, choices, dice and text. A field the schema leaves nested (a pool, a
roller, a list of people, state the table keeps) is asked for as the game declares
it (rules.kit.ui.FieldControl) by the pickers of table/pages/action_forms.py, or filled
by the table; nobody types JSON. The hand-made forms below cover what the GM does
most: opposition pools, difficulty, plot points, scenes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms

from rules.kit.actions import Action
from rules.kit.dice import SIZES

DIE_CHOICES = [("", "—")] + [(f"d{s}", f"d{s}") for s in SIZES]
VISIBILITY_CHOICES = [
    ("public", "Public: everyone sees it"),
    ("gm", "Secret: GMs only"),
]
PLAYER_VISIBILITY_CHOICES = [
    ("public", "Public: everyone sees it"),
    ("blind", "Blind: only the GM sees it until revealed"),
]


def _bounds(spec: Mapping) -> tuple[int | None, int | None]:
    lo, hi = spec.get("min"), spec.get("max")
    return (lo if isinstance(lo, int) else None, hi if isinstance(hi, int) else None)


RULE_ID = re.compile(r"\s*\(?\b[A-Z]{3}-\d+\b(?:,\s*[A-Z]{3}-\d+\b)*\)?:?")
SNAKE_WORD = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def in_words(text: str) -> str:
    """A schema's text as a form shows it: rule IDs left to the rules link beside the
    form's title, keys ("very_difficult") read as words."""
    text = RULE_ID.sub("", text).strip()
    return SNAKE_WORD.sub(lambda m: m.group(0).replace("_", " "), text)


def _help(spec: Mapping) -> str:
    parts = []
    for key in ("meaning", "help", "bounds"):
        value = spec.get(key)
        if isinstance(value, str) and value:
            parts.append(in_words(value))
    return " — ".join(p for p in parts if p)[:300]


def _kind(spec: object) -> str:
    if not isinstance(spec, Mapping):
        return "json"
    kind = str(spec.get("type", "")).lower().removesuffix(" or null")
    if kind in ("int", "integer"):
        return "int"
    if kind in ("bool", "boolean"):
        return "bool"
    if kind == "choice" and spec.get("choices"):
        return "choice"
    if kind == "die":
        return "die"
    if kind in ("string", "text"):
        return "text"
    return "json"


def plain_fields(action: Action, controls: Mapping[str, Any] | None = None) -> bool:
    """Whether every field of the action has a control of its own (a number, a switch,
    a choice, a die, a line of text, or a picker the game declares in `controls`)."""
    controls = controls or {}
    return all(_kind(spec) != "json" or name in controls for name, spec in action.schema.items())


class ActionForm(forms.Form):
    """A form for one rules action, from its schema; `request()` gives the rules request."""

    def __init__(
        self,
        action: Action,
        *args: Any,
        gm: bool = False,
        controls: Mapping[str, Any] | None = None,
        words: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.action = action
        self.kinds: dict[str, str] = {}
        super().__init__(*args, **kwargs)
        example = dict(action.example or {})
        for name, spec in action.schema.items():
            kind = _kind(spec)
            if kind == "json" or name in (controls or {}):
                continue  # a picker of table/pages/action_forms.py, or filled by the table
            self.kinds[name] = kind
            said = (words or {}).get(name)  # the game's words (rules.kit.ui.FieldWords)
            label = (said and said.label) or name.replace("_", " ").capitalize()
            help_text = (said and said.help) or (_help(spec) if isinstance(spec, Mapping) else "")
            named = dict(said.choices) if said else {}
            # A form starts from the rule's defaults; the documented example is a hint
            # (a placeholder), never a value someone could send without meaning to.
            initial = spec.get("default") if isinstance(spec, Mapping) else None
            hint = example.get(name)
            if kind == "int":
                lo, hi = _bounds(spec)
                field: forms.Field = forms.IntegerField(
                    required=False, min_value=lo, max_value=hi, initial=initial
                )
            elif kind == "bool":
                field = forms.BooleanField(required=False, initial=bool(initial))
            elif kind == "choice":
                choices = [("", "—")] + [
                    (str(c), named.get(str(c)) or str(c).replace("_", " ")) for c in spec["choices"]
                ]
                field = forms.ChoiceField(required=False, choices=choices, initial=initial)
            elif kind == "die":
                field = forms.ChoiceField(required=False, choices=DIE_CHOICES, initial=initial)
            else:
                field = forms.CharField(required=False, max_length=300, initial=initial)
            if (
                kind in ("int", "text")
                and isinstance(hint, str | int)
                and not isinstance(hint, bool)
            ):
                field.widget.attrs["placeholder"] = str(hint)
            field.label = label
            field.help_text = help_text
            self.fields[name] = field
        self.fields["visibility"] = forms.ChoiceField(
            choices=VISIBILITY_CHOICES if gm else PLAYER_VISIBILITY_CHOICES,
            initial="public",
            required=False,
        )

    def request(self) -> dict[str, Any]:
        """The rules request: fields left empty are left out (the rules apply defaults)."""
        out: dict[str, Any] = {}
        for name, kind in self.kinds.items():
            value = self.cleaned_data.get(name)
            if kind == "bool":
                if value:
                    out[name] = True
                continue
            if value is None or value == "":
                continue
            out[name] = value
        return out

    @property
    def visibility(self) -> str:
        return self.cleaned_data.get("visibility") or "public"


def parse_dice_line(text: str) -> list[dict[str, str]]:
    """ "d8 Armed thugs, d6 Cramped bay, d6" -> pool entries; raises ValueError with a message."""
    entries = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        die, _, name = part.partition(" ")
        die = die.lower()
        if not die.startswith("d"):
            die = f"d{die}"
        base = die.split("+")[0]
        if base not in {f"d{s}" for s in SIZES}:
            raise ValueError(f"{part[:30]}: start each die with its size, like d8")
        entries.append({"die": die, "trait": name.strip()[:80]})
    if not entries:
        raise ValueError("Give at least one die, like: d8 Armed thugs, d6")
    if len(entries) > 40:
        raise ValueError("At most 40 dice.")
    return entries


def dice_from_pickers(sizes: list[str], names: list[str]) -> list[dict[str, str]]:
    """The dashboard's dice pickers (repeated die / die_name fields) -> pool entries;
    rows left at "—" are skipped. Raises ValueError with a message."""
    known = {f"d{s}" for s in SIZES}
    entries = []
    for index, size in enumerate(sizes):
        size = str(size).strip().lower()
        if not size:
            continue
        if size not in known:
            raise ValueError(f"{size[:12]}: pick a die size from d4 to d12.")
        name = str(names[index]).strip()[:80] if index < len(names) else ""
        entries.append({"die": size, "trait": name})
    return entries


class GmPoolForm(forms.Form):
    """Roll opposition: a pool of named dice (Cortex family) or a rating (d10 systems)."""

    dice = forms.CharField(
        max_length=800,
        required=False,
        label="Dice",
        help_text="Comma-separated, each a size and a name: d8 Armed thugs, d6 Cramped bay",
    )
    name = forms.CharField(max_length=80, required=False, label="Who rolls")
    skill = forms.IntegerField(required=False, min_value=0, max_value=15, label="Skill")
    attribute = forms.IntegerField(required=False, min_value=0, max_value=30, label="Attribute")
    visibility = forms.ChoiceField(choices=VISIBILITY_CHOICES, initial="public")

    def clean_dice(self) -> list[dict[str, str]]:
        text = self.cleaned_data.get("dice", "")
        if not text.strip():
            return []
        try:
            return parse_dice_line(text)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error

    def clean(self) -> dict[str, Any]:
        """The picked dice, then any typed ones (the text field older pages post)."""
        data = super().clean()
        getlist = getattr(self.data, "getlist", None)
        if getlist is None or "dice" in self.errors:
            return data
        try:
            picked = dice_from_pickers(getlist("die"), getlist("die_name"))
        except ValueError as error:
            self.add_error(None, str(error))
            return data
        data["dice"] = picked + list(data.get("dice") or [])
        if len(data["dice"]) > 40:
            self.add_error(None, "At most 40 dice.")
        return data


class NumberForm(forms.Form):
    value = forms.IntegerField(min_value=0, max_value=99, label="Difficulty")


class PlotPointsForm(forms.Form):
    sheet = forms.IntegerField(label="Character")
    amount = forms.IntegerField(min_value=1, max_value=10, initial=1, label="Plot points")


class SceneForm(forms.Form):
    title = forms.CharField(max_length=120, label="Scene title")
    description = forms.CharField(
        max_length=4000, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
