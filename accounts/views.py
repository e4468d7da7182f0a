from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from . import ratelimit
from .forms import LoginForm, ProfileForm, SignupForm

TOO_MANY_LOGINS = "Too many failed log-ins. Try again in {wait}."
TOO_MANY_SIGNUPS = "Too many sign-ups from your network. Try again in {wait}."


class LoginView(auth_views.LoginView):
    """Django's log-in, refusing (429) a username + address or an address that failed
    too often lately (accounts/ratelimit.py). While locked, the password is not even
    checked; a successful log-in clears that username's count for the address."""

    form_class = LoginForm
    redirect_authenticated_user = True
    locked_for = 0

    def _ident(self) -> tuple[str, str]:
        username = str(self.request.POST.get("username", ""))[:300]
        return ratelimit.login_ident(self.request, username), ratelimit.client_ip(self.request)

    def post(self, request, *args, **kwargs):
        user_key, ip = self._ident()
        self.locked_for = max(
            ratelimit.login_user_limit().retry_after(user_key),
            ratelimit.login_ip_limit().retry_after(ip),
        )
        return super().post(request, *args, **kwargs)

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        if self.locked_for:
            kwargs["refusal"] = TOO_MANY_LOGINS.format(wait=ratelimit.minutes(self.locked_for))
        return kwargs

    def form_invalid(self, form):
        if not self.locked_for:
            user_key, ip = self._ident()
            wait = max(
                ratelimit.login_user_limit().hit(user_key),
                ratelimit.login_ip_limit().hit(ip),
            )
            if wait:
                self.locked_for = wait
                form.add_error(None, TOO_MANY_LOGINS.format(wait=ratelimit.minutes(wait)))
        response = super().form_invalid(form)
        if self.locked_for:
            response.status_code = 429
            response["Retry-After"] = str(self.locked_for)
        return response

    def form_valid(self, form):
        user_key, _ = self._ident()
        ratelimit.login_user_limit().reset(user_key)
        return super().form_valid(form)


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; an address that made too many accounts or sign-up attempts
    lately is refused (429) until its window closes."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    next_url = request.POST.get("next", "") if request.method == "POST" else ""
    if request.method == "POST":
        ip = ratelimit.client_ip(request)
        wait = max(
            ratelimit.signup_limit().retry_after(ip),
            ratelimit.signup_attempt_limit().retry_after(ip),
        )
        if wait:
            form = SignupForm(initial={"username": request.POST.get("username", "")})
            context = {
                "form": form,
                "next": next_url,
                "refusal": TOO_MANY_SIGNUPS.format(wait=ratelimit.minutes(wait)),
            }
            response = render(request, "accounts/signup.html", context, status=429)
            response["Retry-After"] = str(wait)
            return response
        ratelimit.signup_attempt_limit().hit(ip)
        if form.is_valid():
            user = form.save()
            ratelimit.signup_limit().hit(ip)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.shown_name}!")
            if url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
                return redirect(next_url)
            return redirect("home")
    context = {"form": form, "next": next_url or request.GET.get("next", "")}
    return render(request, "accounts/signup.html", context)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Display name saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})
