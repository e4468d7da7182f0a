"""Sign up, log in, log out, change password, display name."""

from django.urls import reverse

from accounts.models import User


def test_signup_logs_in_and_shows_display_name(client, db):
    response = client.post(
        reverse("signup"),
        {
            "username": "river",
            "display_name": "River",
            "password1": "two by two, hands of blue",
            "password2": "two by two, hands of blue",
        },
        follow=True,
    )
    assert response.context["user"].is_authenticated
    assert "River" in response.content.decode()


def test_signup_errors_save_nothing(client, db):
    response = client.post(
        reverse("signup"),
        {"username": "river", "password1": "abc", "password2": "abd"},
    )
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not User.objects.filter(username="river").exists()


def test_login_logout_and_password_change(client, make_user):
    make_user("jayne")
    assert (
        client.post(
            reverse("login"), {"username": "jayne", "password": "correct horse battery"}
        ).status_code
        == 302
    )
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "correct horse battery",
            "new_password1": "vera is my favourite gun",
            "new_password2": "vera is my favourite gun",
        },
    )
    assert response.status_code == 302
    client.post(reverse("logout"))
    assert client.get(reverse("campaign_list")).status_code == 302
    assert client.login(username="jayne", password="vera is my favourite gun")


def test_wrong_password_is_refused_with_a_message(client, make_user):
    make_user("jayne")
    response = client.post(reverse("login"), {"username": "jayne", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_display_name_change(client_for, make_user):
    user = make_user("inara")
    c = client_for(user)
    c.post(reverse("profile"), {"display_name": "Inara Serra"})
    user.refresh_from_db()
    assert user.shown_name == "Inara Serra"
    too_long = c.post(reverse("profile"), {"display_name": "x" * 41})
    assert "at most 40 characters" in too_long.content.decode()
