"""Forms for creating and importing sheets; every value check is in sheets.validation."""

from __future__ import annotations

from django import forms

from campaigns.models import Campaign, Membership

from . import exchange, foreign, services
from . import validation as v


class SheetCreateForm(forms.Form):
    name = forms.CharField(
        widget=forms.TextInput(attrs={"maxlength": v.MAX_NAME, "autocomplete": "off"}),
        help_text="The character's name (1 to 80 characters).",
    )
    kind = forms.ChoiceField(
        choices=[(v.KIND_PC, "Player character"), (v.KIND_NPC, "GM character")],
        initial=v.KIND_PC,
        label="Kind of character",
    )
    owner = forms.TypedChoiceField(coerce=int, required=False, label="Played by")
    npc_kind = forms.ChoiceField(required=False, label="GM character kind")
    hidden = forms.BooleanField(
        required=False, label="Hidden from players", help_text="Only GMs see a hidden GM character."
    )

    def __init__(self, *args, campaign: Campaign, membership: Membership, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.membership = membership
        self.template = v.template_for(campaign.system)
        if membership.is_gm:
            self.fields["owner"].choices = services.member_choices(campaign)
            self.fields["owner"].initial = membership.user_id
            kinds = [(k, v.NPC_KIND_LABELS.get(k, k)) for k in self.template.npc_kinds]
            if kinds:
                self.fields["npc_kind"].choices = [("", "— choose —"), *kinds]
                self.fields["npc_kind"].help_text = "Only for GM characters."
            else:
                del self.fields["npc_kind"]
        else:
            for name in ("kind", "owner", "npc_kind", "hidden"):
                del self.fields[name]

    def clean_name(self) -> str:
        try:
            return v.clean_name(self.cleaned_data["name"])
        except v.FieldError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self):
        data = super().clean()
        if not self.membership.is_gm:
            data["kind"] = v.KIND_PC
            data["owner"] = self.membership.user_id
            data["npc_kind"] = ""
            data["hidden"] = False
            return data
        kind = data.get("kind", v.KIND_PC)
        try:
            data["npc_kind"] = v.clean_npc_kind(self.template, kind, data.get("npc_kind", ""))
        except v.FieldError as error:
            self.add_error("npc_kind" if "npc_kind" in self.fields else None, str(error))
        if kind == v.KIND_PC:
            if not data.get("owner"):
                self.add_error("owner", "Choose who plays this character.")
            data["hidden"] = False
        else:
            data["owner"] = None
        return data


class ImportForm(forms.Form):
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        label="Sheet JSON",
        help_text="Paste an exported sheet, or choose a file below.",
    )
    file = forms.FileField(required=False, label="…or a .json file")
    owner = forms.TypedChoiceField(
        coerce=int, required=False, label="Played by (for player characters)"
    )

    def __init__(self, *args, campaign: Campaign, membership: Membership, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.membership = membership
        self.problems: list[v.Problem] = []
        self.checked: exchange.CleanSheet | None = None
        self.report: foreign.Report | None = None
        if membership.is_gm:
            self.fields["owner"].choices = services.member_choices(campaign)
            self.fields["owner"].initial = membership.user_id
        else:
            del self.fields["owner"]

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        raw = upload.read(exchange.MAX_BYTES + 1) if upload else data.get("text", "")
        try:
            doc = exchange.parse_json(raw)
            options = {
                "may_import_npc": self.membership.is_gm,
                "keep_table_values": self.membership.is_gm,
            }
            read = foreign.read_foreign(doc, self.campaign.system, **options)
            if read is not None:
                self.checked, self.report = read
            else:
                self.checked = exchange.check_document(doc, self.campaign.system, **options)
        except v.SheetProblems as error:
            self.problems = error.problems
            raise forms.ValidationError(
                f"Nothing was imported: {len(error.problems)} problem"
                f"{'' if len(error.problems) == 1 else 's'} to fix."
            ) from None
        if self.checked.kind == v.KIND_PC:
            data["owner"] = data.get("owner") if self.membership.is_gm else self.membership.user_id
            if not data["owner"]:
                self.add_error("owner", "Choose who plays this character.")
        return data
