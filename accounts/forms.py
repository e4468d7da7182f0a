from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from .models import User


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name")


class LoginForm(AuthenticationForm):
    """The log-in form; with a `refusal` it refuses before any password is checked."""

    def __init__(self, *args, refusal: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.refusal = refusal

    def clean(self):
        if self.refusal:
            raise forms.ValidationError(self.refusal, code="rate_limited")
        return super().clean()


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name",)
