from django import forms

from accounts.text import ShownTextField

from .models import Campaign, Invite, Role, Scene


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ("name", "description", "system")
        labels = {"system": "Game system"}
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}
        field_classes = {"name": ShownTextField, "description": ShownTextField}


class CampaignEditForm(forms.ModelForm):
    """The system is fixed once sheets exist, so editing leaves it alone."""

    class Meta:
        model = Campaign
        fields = ("name", "description", "player_whispers")
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}
        field_classes = {"name": ShownTextField, "description": ShownTextField}


class SceneForm(forms.ModelForm):
    class Meta:
        model = Scene
        fields = ("title", "description")
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        field_classes = {"title": ShownTextField, "description": ShownTextField}


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


class InviteForm(forms.Form):
    """A new invite: its role, and which other campaigns of the same GM it covers."""

    role = forms.ChoiceField(choices=Invite.JOINABLE_ROLES, initial=Role.PLAYER)
    extra_campaigns = forms.ModelMultipleChoiceField(
        queryset=Campaign.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Also invite to",
    )

    def __init__(self, *args, others=(), **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["extra_campaigns"]
        field.queryset = Campaign.objects.filter(pk__in=[c.pk for c in others])
        field.label_from_instance = lambda c: f"{c.name} ({c.get_system_display()})"
        if not others:  # nothing to tick; a campaign posted anyway is refused
            field.widget = forms.MultipleHiddenInput()
