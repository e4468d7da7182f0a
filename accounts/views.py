from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from . import arrival, ratelimit
from .forms import LoginForm, ProfileForm, SignupForm

TOO_MANY_SIGNUPS = "Too many sign-ups from your network. Try again in {wait}."
CLEAR_SITE_DATA = '"cache", "storage"'


def refuse_when_locked(response: HttpResponse) -> HttpResponse:
    """A log-in page answered while its form is locked (forms.ThrottledLogin) is a 429
    with Retry-After, so scripts and proxies see the refusal as well as people."""
    form = (getattr(response, "context_data", None) or {}).get("form")
    wait = getattr(form, "locked_for", 0)
    if wait:
        response.status_code = 429
        response["Retry-After"] = str(wait)
    return response


class LoginView(auth_views.LoginView):
    """Django's log-in, throttled by its form (forms.ThrottledLogin). On the way to a page
    that welcomes newcomers (an invite), it says what that page is and offers a sign-up
    form beside the log-in (accounts/arrival.py)."""

    form_class = LoginForm
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        return refuse_when_locked(super().post(request, *args, **kwargs))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["welcome"] = arrival.welcome(self.get_redirect_url())
        if context["welcome"]:
            context["signup_form"] = SignupForm(auto_id="signup_%s")
        return context

    def form_valid(self, form):
        response = super().form_valid(form)
        landing = arrival.arrive(self.request, self.get_redirect_url())
        return redirect(landing) if landing else response


class LogoutView(auth_views.LogoutView):
    """Django's log-out, and the browser told to forget what it kept of the pages (its
    cache, and the site's storage: a shared device keeps no whisper once someone logs
    out). Cookies are left alone: the CSRF cookie serves the next log-in."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = CLEAR_SITE_DATA
        return response


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; an address that made too many accounts or sign-up attempts
    lately is refused (429) until its window closes. Accounts made from a live invite
    link do not count toward the first."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    next_url = request.POST.get("next", "") if request.method == "POST" else ""
    next_url = next_url or request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
        next_url = ""
    welcome = arrival.welcome(next_url)
    if request.method == "POST":
        ip = ratelimit.client_ip(request)
        # A live invite's newcomers often share one address (a household, a club, one
        # tunnel): they are not counted against the per-address account limit. Posts,
        # theirs included, still are, which stops a scripted flood through a leaked link.
        invited = welcome is not None
        wait = max(
            0 if invited else ratelimit.signup_limit().retry_after(ip),
            ratelimit.signup_attempt_limit().retry_after(ip),
        )
        if wait:
            form = SignupForm(initial={"username": request.POST.get("username", "")})
            context = {
                "form": form,
                "next": next_url,
                "welcome": welcome,
                "refusal": TOO_MANY_SIGNUPS.format(wait=ratelimit.minutes(wait)),
            }
            response = render(request, "accounts/signup.html", context, status=429)
            response["Retry-After"] = str(wait)
            return response
        ratelimit.signup_attempt_limit().hit(ip)
        if form.is_valid():
            user = form.save()
            if not invited:
                ratelimit.signup_limit().hit(ip)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.shown_name}!")
            if next_url:
                # A URL, never a view name: redirect() would try to reverse a `next` like "-1".
                return HttpResponseRedirect(arrival.arrive(request, next_url) or next_url)
            return redirect("home")
    context = {"form": form, "next": next_url, "welcome": welcome}
    return render(request, "accounts/signup.html", context)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Display name saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})
