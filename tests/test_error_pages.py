"""The 400, 403, 404, 500 and CSRF failure pages look like Rollcall and say what to do
next, with DEBUG off; the 500 page needs neither the database nor the user."""

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import Client, RequestFactory
from django.urls import path, reverse

from rollcall import urls as project_urls
from rollcall import views

pytestmark = pytest.mark.urls(__name__)


def _broken(request):
    raise RuntimeError("a bug")


def _suspicious(request):
    raise SuspiciousOperation("junk")


def _denied(request):
    raise PermissionDenied("Only the GM can do that.")


urlpatterns = [
    *project_urls.urlpatterns,
    path("test-broken/", _broken),
    path("test-suspicious/", _suspicious),
    path("test-denied/", _denied),
]
handler400 = project_urls.handler400
handler500 = project_urls.handler500


@pytest.fixture(autouse=True)
def debug_off(settings):
    settings.DEBUG = False


def _page(response) -> str:
    return response.content.decode()


def _looks_like_rollcall(body: str) -> None:
    assert '<a class="brand" href="/">Rollcall</a>' in body
    assert "css/app.css" in body
    assert "Server Error" not in body and "Bad Request (400)" not in body


@pytest.mark.django_db
def test_page_not_found_tells_a_visitor_to_log_in(client):
    response = client.get("/no-such-page/")
    body = _page(response)
    assert response.status_code == 404
    _looks_like_rollcall(body)
    assert "Page not found" in body
    assert f'href="{reverse("login")}?next=/no-such-page/"' in body
    assert "ask your GM for a fresh invite link" in body


@pytest.mark.django_db
def test_page_not_found_takes_a_member_back_to_their_campaigns(client_for, player):
    body = _page(client_for(player).get("/no-such-page/"))
    assert f'href="{reverse("campaign_list")}"' in body
    assert "Go to your campaigns" in body


@pytest.mark.django_db
def test_not_allowed_says_why_and_to_ask_the_gm(client_for, player):
    response = client_for(player).get("/test-denied/")
    body = _page(response)
    assert response.status_code == 403
    _looks_like_rollcall(body)
    assert "Only the GM can do that." in body
    assert "ask the campaign's GM" in body


@pytest.mark.django_db
def test_an_expired_form_says_to_reload_and_send_again(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("campaign_create"), {"name": "x"})
    body = _page(response)
    assert response.status_code == 403
    _looks_like_rollcall(body)
    assert "The form has expired" in body
    assert "reload the page, and send the form again" in body
    assert "CSRF verification failed" not in body


def test_a_bad_request_says_nothing_was_saved():
    client = Client(raise_request_exception=False)
    response = client.get("/test-suspicious/")
    body = _page(response)
    assert response.status_code == 400
    _looks_like_rollcall(body)
    assert "Nothing was saved" in body
    assert "Back button" in body


def test_a_server_error_says_what_to_do_and_reads_no_database():
    """No django_db mark: any query from the handler would fail the test."""
    client = Client(raise_request_exception=False)
    response = client.get("/test-broken/")
    body = _page(response)
    assert response.status_code == 500
    _looks_like_rollcall(body)
    assert "Something went wrong on Rollcall's side" in body
    assert "tell your GM or whoever runs this Rollcall" in body


class _Explodes:
    def __getattr__(self, name):
        raise AssertionError(f"the 500 page read request.user.{name}")


def test_the_server_error_page_does_not_touch_the_user():
    request = RequestFactory().get("/")
    request.user = _Explodes()
    request.session = _Explodes()
    response = views.server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_the_server_error_page_falls_back_when_its_template_fails(settings):
    """Static files without a manifest: {% static %} raises; the fallback is sent."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    settings.STATIC_ROOT = "/nonexistent-static-root"
    response = views.server_error(RequestFactory().get("/"))
    body = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on Rollcall's side" in body
    assert 'href="/"' in body


@pytest.mark.django_db
def test_a_paste_with_a_nul_character_gets_the_bad_request_page(client_for, player):
    response = client_for(player).post("/c/1/sheets/import/", {"text": '{"name": "M\x00al"}'})
    body = _page(response)
    assert response.status_code == 400
    _looks_like_rollcall(body)
    assert "holds a NUL character" in body
    assert "paste again from a plain text editor" in body
