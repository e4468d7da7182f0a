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
        fields = ("name", "description")
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
    role = forms.ChoiceField(choices=Invite.JOINABLE_ROLES, initial=Role.PLAYER)
