from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from . import ratelimit
from .models import User
from .text import ROLE_NAME_REFUSED, ShownTextField, imitates_a_role

TOO_MANY_LOGINS = "Too many failed log-ins. Try again in {wait}."


USERNAME_IS_A_ROLE = (
    "A username cannot look like a role (“GM”, “Admin”, “Narrator”…): the table shows it "
    "when there is no display name. Choose another one."
)
NEEDS_A_DISPLAY_NAME = (
    "Your username reads like a role, and the table shows it when there is no display "
    "name: choose a display name."
)


class DisplayNameChecks:
    """A display name others read: hidden characters taken out (accounts.text), and
    refused when it would pass for a role; left empty, the username is shown instead, so
    then it is the username that must not. Every form that sets one uses this."""

    def clean_display_name(self) -> str:
        name = self.cleaned_data.get("display_name", "")
        if name and imitates_a_role(name):
            raise forms.ValidationError(ROLE_NAME_REFUSED, code="role_name")
        username = self.cleaned_data.get("username") or getattr(self.instance, "username", "")
        if not name and username and imitates_a_role(username):
            raise forms.ValidationError(NEEDS_A_DISPLAY_NAME, code="role_name")
        return name


class SignupForm(DisplayNameChecks, UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name")
        field_classes = {**UserCreationForm.Meta.field_classes, "display_name": ShownTextField}

    def clean_username(self) -> str:
        username = super().clean_username()
        if imitates_a_role(username):
            raise forms.ValidationError(USERNAME_IS_A_ROLE, code="role_name")
        return username


class ThrottledLogin:
    """A log-in form (Django's AuthenticationForm or the admin's) that counts failures per
    username + client address and per address (accounts/ratelimit.py). While either is
    locked it refuses before any password is checked, with `locked_for` set to the
    seconds to wait; the view answers 429 then (accounts.views.refuse_when_locked). A
    successful log-in clears that username's count for the address, not the address's."""

    locked_for = 0

    def _idents(self) -> tuple[str, str]:
        username = str(self.data.get("username", ""))[:300]
        return ratelimit.login_ident(self.request, username), ratelimit.client_ip(self.request)

    def _refusal(self) -> forms.ValidationError:
        wait = ratelimit.minutes(self.locked_for)
        return forms.ValidationError(TOO_MANY_LOGINS.format(wait=wait), code="rate_limited")

    def _failed(self, user_key: str, ip: str) -> None:
        self.locked_for = max(
            ratelimit.login_user_limit().hit(user_key), ratelimit.login_ip_limit().hit(ip)
        )

    def clean(self):
        user_key, ip = self._idents()
        self.locked_for = max(
            ratelimit.login_user_limit().retry_after(user_key),
            ratelimit.login_ip_limit().retry_after(ip),
        )
        if self.locked_for:
            raise self._refusal()
        try:
            cleaned = super().clean()
        except forms.ValidationError as error:
            self._failed(user_key, ip)
            raise forms.ValidationError(
                [*error.error_list, *([self._refusal()] if self.locked_for else [])]
            ) from None
        if self._errors:  # a missing or junk field: counted like a wrong password
            self._failed(user_key, ip)
            if self.locked_for:
                self.add_error(None, self._refusal())
        else:
            ratelimit.login_user_limit().reset(user_key)
        return cleaned


class LoginForm(ThrottledLogin, AuthenticationForm):
    """The site's log-in form."""


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    """The admin's log-in form, counted with the site's."""


class ProfileForm(DisplayNameChecks, forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name",)
        field_classes = {"display_name": ShownTextField}
