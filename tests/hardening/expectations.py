"""Who may do what at every URL: the expectation table the permission matrix checks.

One row per (URL, method). A row says, for each role, what the answer must be:
a status, or LOGIN (sent to log in). `changes` says whether an allowed request
must change the database (so an allowed request is known to have really done
something) — a refused one must never change it.

Roles: gm; owner (the player whose character the sheet URLs point at); other (a
second player); observer; outsider (signed in, runs a campaign of their own);
anonymous.

Rules the table must follow (checked by test_url_matrix.py):
- every URL the resolver knows has a row; a row for an unknown URL fails too;
- outsiders get 404 on every campaign URL (its existence is not disclosed);
- anonymous visitors are sent to log in: a redirect, or for fragments requested by
  htmx a 401 with HX-Redirect (rollcall.middleware.HtmxLoginRedirectMiddleware);
- observers never succeed at a state-changing POST in the campaign (leaving it is
  theirs to do, and so are their own API tokens);
- the read-only API answers a token, not a session (`api` rows): each member sends
  their own token for the campaign, the outsider one of their own campaign's (404, as
  for any campaign URL), a visitor none (401).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .urls import build_url, discover
from .world import ROLES, CampaignData, World

LOGIN = "login"  # a 302 to the login page
LOGIN_HX = "login-hx"  # 401 with HX-Redirect to the login page
ADMIN_LOGIN = "admin-login"  # a 302 to the admin's login page

Status = int | str


@dataclass(frozen=True)
class Want:
    status: Status
    changes: bool = False

    def __repr__(self) -> str:
        return f"{self.status}{'*' if self.changes else ''}"


@dataclass(frozen=True)
class Row:
    key: str  # URL name (or route for unnamed patterns)
    method: str
    page: dict[str, Want]
    htmx: dict[str, Want] | None = None  # None: a full page only, not asked for by htmx
    data: Callable[[World], dict] = field(default=lambda w: {})
    url: Callable[[CampaignData], dict] | None = None  # URL parameters other than the defaults
    query: str = ""
    campaign: bool = True  # a URL inside a campaign (outsiders: 404)
    state_changing: bool = False  # a POST meant to change something
    self_service: bool = False  # changes only the asker's own membership (leave, tokens)
    api: bool = False  # authenticates with the role's API token (World.api_auth)


def W(status: Status, changes: bool = False) -> Want:
    return Want(status, changes)


def _roles(gm, owner, other, observer, outsider, anonymous) -> dict[str, Want]:
    return dict(
        gm=gm, owner=owner, other=other, observer=observer, outsider=outsider, anonymous=anonymous
    )


def everyone(ok: Want) -> dict[str, Want]:
    return _roles(ok, ok, ok, ok, ok, ok)


def signed_in(ok: Want) -> dict[str, Want]:
    return _roles(ok, ok, ok, ok, ok, W(LOGIN))


def members(ok: Want, anon: Status = LOGIN) -> dict[str, Want]:
    return _roles(ok, ok, ok, ok, W(404), W(anon))


def players(ok: Want, anon: Status = LOGIN) -> dict[str, Want]:
    return _roles(ok, ok, ok, W(403), W(404), W(anon))


def editors(ok: Want, anon: Status = LOGIN) -> dict[str, Want]:
    """The sheet's owner and the GMs."""
    return _roles(ok, ok, W(403), W(403), W(404), W(anon))


def gms(ok: Want, anon: Status = LOGIN) -> dict[str, Want]:
    return _roles(ok, W(403), W(403), W(403), W(404), W(anon))


# ---------------------------------------------------------------------- data for the forms


def _new_user(w: World) -> dict:
    return {
        "username": "river",
        "display_name": "River",
        "password1": "two by two, hands of blue",
        "password2": "two by two, hands of blue",
    }


def _import_doc(w: World) -> dict:
    import json

    doc = {
        "format": "rollcall-sheet",
        "version": 1,
        "system": "serenity",
        "name": "Imported",
        "kind": "pc",
        "traits": {"stylins": [{"name": "Fightin'", "die": "d8"}]},
    }
    return {"text": json.dumps(doc), "owner": w.users["owner"].pk}


class _Picture:
    """An upload for the portrait rows that reads whole every time: the matrix sends one
    row's data for every role and mode, and a real file would be empty after the first
    read (the upload would then be refused and change nothing)."""

    name = "face.png"
    content_type = "image/png"

    def __init__(self, data: bytes) -> None:
        self._data = data

    def read(self, *_args) -> bytes:
        return self._data


def _portrait(w: World) -> dict:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (40, 30), "#884422").save(out, "PNG")
    return {"portrait": _Picture(out.getvalue())}


def _pool(w: World) -> dict:
    return {"trait": [str(w.ours.trait.pk)], "clicked": ""}


# ---------------------------------------------------------------------- the table

ROWS: list[Row] = [
    # --- public pages and accounts -----------------------------------------------------
    Row("home", "GET", _roles(*[W(302)] * 5, W(200)), campaign=False),
    Row("rules_index", "GET", everyone(W(200)), campaign=False),
    Row("rules_system", "GET", everyone(W(200)), campaign=False),
    Row("rules_start", "GET", everyone(W(200)), campaign=False),
    Row("signup", "GET", _roles(*[W(302)] * 5, W(200)), campaign=False),
    Row("signup", "POST", _roles(*[W(302)] * 5, W(302, True)), data=_new_user, campaign=False),
    Row("login", "GET", _roles(*[W(302)] * 5, W(200)), campaign=False),
    Row(
        "login",
        "POST",
        _roles(*[W(302)] * 5, W(302)),
        data=lambda w: {"username": "gina", "password": "correct horse battery"},
        campaign=False,
    ),
    Row("logout", "POST", everyone(W(302)), campaign=False),
    Row("password_change", "GET", signed_in(W(200)), campaign=False),
    Row(
        "password_change",
        "POST",
        signed_in(W(302, True)),
        data=lambda w: {
            "old_password": "correct horse battery",
            "new_password1": "vera is my favourite gun",
            "new_password2": "vera is my favourite gun",
        },
        campaign=False,
    ),
    Row("password_change_done", "GET", signed_in(W(200)), campaign=False),
    Row("profile", "GET", signed_in(W(200)), campaign=False),
    Row(
        "profile",
        "POST",
        signed_in(W(302, True)),
        data=lambda w: {"display_name": "Someone new"},
        campaign=False,
    ),
    # --- campaigns -----------------------------------------------------------------------
    Row("campaign_list", "GET", signed_in(W(200)), campaign=False),
    Row("campaign_create", "GET", signed_in(W(200)), campaign=False),
    Row(
        "campaign_create",
        "POST",
        signed_in(W(302, True)),  # anyone signed in may start a campaign of their own
        data=lambda w: {"name": "New game", "description": "", "system": "serenity"},
        campaign=False,
    ),
    Row("campaign_home", "GET", members(W(200))),
    Row("campaign_edit", "GET", gms(W(200))),
    Row(
        "campaign_edit",
        "POST",
        gms(W(302, True)),
        data=lambda w: {"name": "Renamed", "description": "x"},
        state_changing=True,
    ),
    Row("members", "GET", gms(W(200))),
    Row(
        "member_role",
        "POST",
        gms(W(302, True)),
        data=lambda w: {"role": "player"},
        state_changing=True,
    ),
    Row(
        "member_remove",
        "POST",
        gms(W(302, True)),
        data=lambda w: {"confirm": "yes"},  # the confirmed step: the first only asks
        state_changing=True,
    ),
    Row(
        "leave",
        "POST",
        # the only GM may not leave (refused, nothing changes); anyone else leaves
        _roles(W(302), W(302, True), W(302, True), W(302, True), W(404), W(LOGIN)),
        data=lambda w: {"confirm": "yes"},  # the confirmed step: the first only asks
        state_changing=True,
        self_service=True,
    ),
    Row(
        "invite_create",
        "POST",
        gms(W(302, True)),
        data=lambda w: {"role": "player"},
        state_changing=True,
    ),
    Row(
        "invite_revoke",
        "POST",
        gms(W(302, True)),
        data=lambda w: {"confirm": "yes"},  # the confirmed step: the first only asks
        state_changing=True,
    ),
    Row("invite_regenerate", "POST", gms(W(302, True)), state_changing=True),
    # An invite link is for people outside the campaign: they see it and join.
    Row("join", "GET", signed_in(W(200)), campaign=False),
    Row(
        "join",
        "POST",
        _roles(W(302), W(302), W(302), W(302), W(302, True), W(LOGIN)),
        campaign=False,
    ),
    Row("scenes", "GET", members(W(200))),
    Row(
        "scenes",
        "POST",
        gms(W(302, True)),
        data=lambda w: {"title": "New scene"},
        state_changing=True,
    ),
    Row(
        "scene_start",
        "POST",
        gms(W(302, True)),
        url=lambda c: {"scene_id": c.planned.pk},
        state_changing=True,
    ),
    Row("scene_end", "POST", gms(W(302, True)), state_changing=True),
]


def _sheet_rows() -> list[Row]:
    """Sheets answer htmx too: edits with the fragment (200), anonymous with 401."""

    def r(key, method, who, page, hx, *, changes=False, data=lambda w: {}, **kw):
        return Row(
            key,
            method,
            who(W(page, changes)),
            who(W(hx, changes), anon=LOGIN_HX),
            data=data,
            state_changing=method == "POST",
            **kw,
        )

    return [
        r("sheet_list", "GET", members, 200, 200),
        r("sheet_create", "GET", players, 200, 200),
        r(
            "sheet_create",
            "POST",
            players,
            302,
            302,
            changes=True,
            data=lambda w: {"name": "New", "kind": "pc", "owner": w.users["owner"].pk},
        ),
        r("sheet_import", "GET", players, 200, 200),
        r("sheet_import", "POST", players, 302, 302, changes=True, data=_import_doc),
        r("sheet_detail", "GET", members, 200, 200),
        # Without a report of the asker's own import in their session: to the sheet.
        r("sheet_imported", "GET", members, 302, 302),
        r("sheet_guide", "GET", editors, 200, 200),
        r("sheet_export", "GET", members, 200, 200),
        r("sheet_head", "GET", members, 200, 200),
        r(
            "sheet_head",
            "POST",
            editors,
            302,
            200,
            changes=True,
            data=lambda w: {"name": "Renamed", "notes": "", "version": w.ours.sheet.version},
        ),
        # The portrait is an image, never a fragment: full requests only. Every upload is a
        # change (a new picture and a new portrait_version, even for the same file); the
        # world's sheet has no portrait, so removing one changes nothing there.
        Row("sheet_portrait", "GET", members(W(200))),
        Row(
            "sheet_portrait_upload",
            "POST",
            editors(W(302, True)),
            data=_portrait,
            state_changing=True,
        ),
        Row("sheet_portrait_remove", "POST", editors(W(302)), state_changing=True),
        r("sheet_scores", "GET", members, 200, 200),
        # a Serenity sheet has no Ability Scores: an editor is let in, then refused (422)
        r(
            "sheet_scores",
            "POST",
            editors,
            302,
            422,
            data=lambda w: {"override_combat": "12", "version": w.ours.sheet.version},
        ),
        r("sheet_delete", "GET", editors, 200, 200),
        r("sheet_delete", "POST", editors, 302, 302, changes=True),
        r("sheet_counter", "GET", members, 200, 200),
        # Plot points change at the table: the GM's edit is a logged action; the owner is
        # refused (the page comes back with the reason, htmx gets 403) and nothing changes.
        Row(
            "sheet_counter",
            "POST",
            _roles(W(302, True), W(302), W(403), W(403), W(404), W(LOGIN)),
            _roles(W(200, True), W(403), W(403), W(403), W(404), W(LOGIN_HX)),
            data=lambda w: {"value": "2", "version": w.ours.counter.version},
            state_changing=True,
        ),
        r("sheet_group", "GET", members, 200, 200),
        r(
            "trait_add",
            "POST",
            editors,
            302,
            200,
            changes=True,
            data=lambda w: {"name": "Fixin'", "die": "d6"},
        ),
        r("trait", "GET", members, 200, 200),
        r(
            "trait",
            "POST",
            editors,
            302,
            200,
            changes=True,
            data=lambda w: {"field": "name", "name": "Shootin'", "version": w.ours.trait.version},
        ),
        r(
            "trait_step",
            "POST",
            editors,
            302,
            200,
            changes=True,
            data=lambda w: {"direction": "up", "version": w.ours.trait.version},
        ),
        r(
            "trait_move",
            "POST",
            editors,
            302,
            200,
            changes=True,
            data=lambda w: {"direction": "down"},
        ),
        r(
            "trait_delete",
            "POST",
            editors,
            302,
            200,
            changes=True,
            data=lambda w: {"version": w.ours.trait.version},
        ),
    ]


def _table_rows() -> list[Row]:
    """The table answers htmx with fragments (200) and plain posts with a redirect (302);
    anonymous htmx requests get 401 with HX-Redirect, full pages the login redirect."""

    def r(key, method, who, page, hx=None, *, changes=False, data=lambda w: {}, **kw):
        return Row(
            key,
            method,
            who(W(page, changes)),
            None if hx is None else who(W(hx, changes), anon=LOGIN_HX),
            data=data,
            **kw,
        )

    def builder(ok: Want, anon: Status = LOGIN) -> dict[str, Want]:
        # GMs build for any character, players only for their own
        return _roles(ok, ok, W(403), W(403), W(404), W(anon))

    def for_own(status: int, anon: Status = LOGIN) -> dict[str, Want]:
        # Players act for their own characters only: another player's action on Mal is
        # let through to table.writing.actions, which refuses it with a message (nothing changes).
        return _roles(W(status, True), W(status, True), W(status), W(403), W(404), W(anon))

    post = {"state_changing": True}
    return [
        r("table", "GET", members, 200),
        r("table_events", "GET", members, 200, 200, query="?before=99"),
        r("table_scene", "GET", members, 200, 200),
        r("odds", "GET", members, 200, 200, query="?pool=d8,d6&target=7"),
        r("odds", "POST", members, 200, 200, data=lambda w: {"pool": "d8,d6"}),
        Row("table_pool", "GET", builder(W(200)), builder(W(200), LOGIN_HX)),
        Row("table_pool", "POST", builder(W(200)), builder(W(200), LOGIN_HX), data=_pool),
        Row(
            "table_pool_roll",
            "POST",
            builder(W(302, True)),
            builder(W(200, True), LOGIN_HX),
            data=_pool,
            **post,
        ),
        Row(
            "table_say",
            "POST",
            players(W(302, True)),
            players(W(200, True), LOGIN_HX),
            data=lambda w: {"speak": "ooc", "text": "Shiny."},
            **post,
        ),
        Row(
            "table_act",
            "POST",
            for_own(302),
            for_own(200, LOGIN_HX),
            url=lambda c: {"action_name": "stress"},
            data=lambda w: {"stress-type": "Afraid", "stress-die": "d6", "sheet": w.ours.sheet.pk},
            **post,
        ),
        r(
            "table_quick",
            "POST",
            gms,
            302,
            200,
            changes=True,
            url=lambda c: {"action_name": "activate_complication"},
            data=lambda w: {"sheet": w.ours.sheet.pk, "complication": "Hurt"},
            **post,
        ),
        r("table_reveal", "POST", gms, 302, 200, changes=True, **post),
        r(
            "table_void",
            "POST",
            gms,
            302,
            200,
            changes=True,
            url=lambda c: {"event_id": c.public_event.pk},
            data=lambda w: {"reason": "a misclick"},
            **post,
        ),
        r(
            "table_gm_roll",
            "POST",
            gms,
            302,
            200,
            changes=True,
            data=lambda w: {"dice": "d8 Thugs", "visibility": "public"},
            **post,
        ),
        r(
            "table_gm_contest",
            "POST",
            gms,
            302,
            200,
            changes=True,
            data=lambda w: {
                "a_sheet": w.ours.sheet.pk,
                "a_goal": "escape",
                "b_name": "Thugs",
                "b_goal": "catch",
            },
            **post,
        ),
        r(
            # A game's GM tool that reads its own form, at its address: the world's
            # game opens a contest there (the same view as table_gm_contest).
            "table_gm_tool",
            "POST",
            gms,
            302,
            200,
            changes=True,
            url=lambda c: {"address": "contest"},
            data=lambda w: {
                "a_sheet": w.ours.sheet.pk,
                "a_goal": "escape",
                "b_name": "Thugs",
                "b_goal": "catch",
            },
            **post,
        ),
        r(
            "table_gm_scene",
            "POST",
            gms,
            302,
            200,
            changes=True,
            data=lambda w: {"op": "new", "title": "Next"},
            **post,
        ),
        r(
            "table_gm_points",
            "POST",
            gms,
            302,
            200,
            changes=True,
            data=lambda w: {"sheet": w.ours.sheet.pk, "amount": 1},
            **post,
        ),
        r("table_act_form", "GET", players, 200, 200, url=lambda c: {"action_name": "benefit"}),
        # A card move the world's game does not declare: refused by role first (the
        # observer), then as no such move (tests/table/test_card_moves.py and its
        # neighbours play the moves that exist, and their refusals).
        Row(
            "table_move",
            "POST",
            _roles(W(404), W(404), W(404), W(403), W(404), W(LOGIN)),
            _roles(W(404), W(404), W(404), W(403), W(404), W(LOGIN_HX)),
            url=lambda c: {"action_name": "bank_move"},
            **post,
        ),
        Row(
            "table_move_pick",
            "GET",
            _roles(W(404), W(404), W(404), W(403), W(404), W(LOGIN)),
            _roles(W(404), W(404), W(404), W(403), W(404), W(LOGIN_HX)),
            url=lambda c: {"action_name": "resist"},
            query="?seq=1",
        ),
        r(
            "table_gm_points_each",
            "POST",
            gms,
            302,
            200,
            changes=True,
            data=lambda w: {"who": "all", "amount": 1},
            **post,
        ),
        Row(
            "table_contest",
            "POST",
            for_own(302),
            for_own(200, LOGIN_HX),
            data=lambda w: {"contest": w.ours.contest_id, "op": "give_in"},
            **post,
        ),
        Row(
            # A move of the game's panel box, at its address (the same view as
            # table_contest): the world's game gives in to its contest there.
            "table_panel_move",
            "POST",
            for_own(302),
            for_own(200, LOGIN_HX),
            url=lambda c: {"address": "contest"},
            data=lambda w: {"contest": w.ours.contest_id, "op": "give_in"},
            **post,
        ),
        Row(
            # The GM starts the scene's action order; a player's start reaches
            # table.writing.actions, which refuses it with a message (nothing changes).
            "table_order",
            "POST",
            _roles(W(302, True), W(302), W(302), W(403), W(404), W(LOGIN)),
            _roles(W(200, True), W(200), W(200), W(403), W(404), W(LOGIN_HX)),
            data=lambda w: {"op": "start", "sheets": [w.ours.sheet.pk]},
            **post,
        ),
        # The GM adds to a player's pool in progress (a cache entry, never table state).
        r("table_live_pool", "POST", gms, 302, 200, data=lambda w: {"op": "add", "die": "1:x:y"}),
        r("table_export_scene", "GET", members, 200),
        r("table_export_session", "GET", members, 200, url=lambda c: {"fmt": "json"}),
        r("table_verify", "GET", gms, 200),
    ]


def _integration_rows() -> list[Row]:
    """The GM's Discord page (integrations/): GMs only, like every GM page. The world has
    no hook, so the test message is refused with a message and changes nothing."""
    url = "https://discord.com/api/webhooks/123456789012345678/" + "A" * 68
    post = {"state_changing": True}
    return [
        Row("discord_settings", "GET", gms(W(200))),
        Row(
            "discord_settings",
            "POST",
            gms(W(302, True)),
            data=lambda w: {"op": "save", "audience": "public", "public-url": url},
            **post,
        ),
        Row("discord_test", "POST", gms(W(302)), data=lambda w: {"audience": "public"}, **post),
    ]


def _api_rows() -> list[Row]:
    """The read-only API (by token), the token page, the stream overlay (by its secret
    link) and the installable shell (api/)."""

    def by_token(ok: Want) -> dict[str, Want]:
        return _roles(ok, ok, ok, ok, W(404), W(401))

    overlay = {"url": lambda c: {"key": c.overlay_key}, "campaign": False}
    return [
        Row("api:campaign", "GET", by_token(W(200)), api=True),
        Row("api:events", "GET", by_token(W(200)), query="?after=1&limit=5", api=True),
        # the secret roll: a GM's token reads it; to anyone else it is as missing as none
        Row("api:event", "GET", _roles(W(200), *[W(404)] * 4, W(401)), api=True),
        Row(
            "api:event",
            "GET",
            by_token(W(200)),
            url=lambda c: {"seq": c.public_event.seq},
            api=True,
        ),  # fmt: skip
        Row("api:scene", "GET", by_token(W(200)), api=True),
        Row("api:session", "GET", by_token(W(200)), api=True),
        Row("api:sheets", "GET", by_token(W(200)), api=True),
        Row("api:stream", "GET", by_token(W(200)), query="?after=0", api=True),
        Row("api_docs", "GET", everyone(W(200)), campaign=False),
        Row("api_schema", "GET", everyone(W(200)), campaign=False),
        Row("api_not_found", "GET", everyone(W(404)), campaign=False),
        Row("api_tokens", "GET", members(W(200))),
        Row(
            "api_tokens",
            "POST",
            members(W(200, True)),  # every member makes their own (shown once, on the page)
            data=lambda w: {"name": "Dice bot"},
            state_changing=True,
            self_service=True,
        ),
        Row(
            "api_token_revoke",
            "POST",
            # the owner's own token; to anyone else it does not exist
            _roles(W(404), W(302, True), W(404), W(404), W(404), W(LOGIN)),
            data=lambda w: {"confirm": "yes"},  # the confirmed step: the first only asks
            state_changing=True,
            self_service=True,
        ),
        Row(
            "overlay_create",
            "POST",
            gms(W(200, True)),
            data=lambda w: {"name": "Friday stream"},
            state_changing=True,
        ),
        Row(
            "overlay_revoke",
            "POST",
            gms(W(302, True)),
            data=lambda w: {"confirm": "yes"},  # the confirmed step: the first only asks
            state_changing=True,
        ),
        Row("overlay", "GET", everyone(W(200)), **overlay),
        Row("overlay_stream", "GET", everyone(W(200)), **overlay),
        Row("pwa_manifest", "GET", everyone(W(200)), campaign=False),
        Row("pwa_worker", "GET", everyone(W(200)), campaign=False),
        Row("pwa_offline", "GET", everyone(W(200)), campaign=False),
    ]


ROWS += _sheet_rows() + _table_rows() + _integration_rows() + _api_rows()


# ---------------------------------------------------------------------- the admin

ADMIN_MODULES = ("django.contrib.admin.", "django.contrib.auth.admin.")


def is_admin_generated(pattern) -> bool:
    """Patterns the admin site makes for itself (one set per registered model), and its
    own views (rollcall/admin.py: the log-in)."""
    from django.contrib.admin import AdminSite

    callback = pattern.callback
    module = getattr(callback, "__module__", "")
    admin_site = getattr(callback, "admin_site", None) or getattr(callback, "model_admin", None)
    if isinstance(getattr(callback, "__self__", None), AdminSite):
        admin_site = callback.__self__
    return pattern.namespace == "admin" and (
        module.startswith(ADMIN_MODULES) or admin_site is not None or module.startswith("django.")
    )


def admin_rows(patterns) -> list[Row]:
    """No role of the app is staff: the admin sends every one of them to its login page."""
    rows = []
    for p in patterns:
        if not is_admin_generated(p):
            continue
        if p.key == "admin:login":
            rows.append(Row(p.key, "GET", everyone(W(200)), campaign=False))
            continue
        if p.key == "admin:logout":  # sends non-staff to the admin's index, logs no one out
            rows.append(Row(p.key, "GET", everyone(W(302)), campaign=False))
            rows.append(Row(p.key, "POST", everyone(W(302)), campaign=False))
            continue
        rows.append(Row(p.key, "GET", everyone(W(ADMIN_LOGIN)), campaign=False))
        rows.append(Row(p.key, "POST", everyone(W(ADMIN_LOGIN)), campaign=False))
    return rows


# ---------------------------------------------------------------------- shared by the tests

PATTERNS = discover()
ALL_ROWS = ROWS + admin_rows(PATTERNS)
REFUSED = (LOGIN, LOGIN_HX, ADMIN_LOGIN, 403, 404, 405)
PREFERRED = {"login": "anonymous"}  # signed-in users are only sent on from the log-in page


def row_url(world: World, row: Row) -> str:
    """The concrete URL a row is about, with the world's ids (and the row's overrides)."""
    pattern = next(p for p in PATTERNS if p.key == row.key)
    overrides = row.url(world.ours) if row.url else {}
    return build_url(world, pattern, overrides) + row.query


def allowed(want: Want) -> bool:
    return want.status not in REFUSED


def best_role(row: Row) -> str:
    """A role the row lets in (one whose request changes something, when there is one)."""
    if row.key in PREFERRED:
        return PREFERRED[row.key]
    wants = row.page
    for role in ROLES:
        if allowed(wants[role]) and wants[role].changes:
            return role
    return next((r for r in ROLES if allowed(wants[r])), "gm")
