"""A small, complete campaign to aim every URL at, built through the apps' own services.

One Serenity campaign with a user per role (GM, the player who owns a sheet, another
player, an observer), a signed-in outsider who runs a campaign of their own (whose
ids the tests feed to the first campaign's URLs), and anonymous visitors.

Requests run inside a savepoint that is rolled back (`rolled_back`), so every role
sees the same starting state and a test can compare the database before and after.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import connection, transaction
from django.test import Client

ROLES = ("gm", "owner", "other", "observer", "outsider", "anonymous")
MEMBER_ROLES = ("gm", "owner", "other", "observer")
PASSWORD = "correct horse battery"
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}

# Tables whose rows are the app's state; sessions and the like are left out.
STATE_APPS = ("accounts", "campaigns", "sheets", "table", "integrations", "api")
# Columns that change without anything the user could see changing.
VOLATILE = {"last_login", "updated_at", "last_used_at"}

FIGHTIN = {"die": "d8", "trait": "Fightin'", "group": "stylins"}


@dataclass
class CampaignData:
    campaign: Any
    sheet: Any
    trait: Any
    trait2: Any
    npc: Any
    planned: Any
    active: Any
    invite: Any
    membership: Any  # a non-GM membership, for the role and remove URLs
    secret_event: Any
    public_event: Any
    contest_id: int | None
    counter: Any
    api_keys: dict[int, str]  # user pk -> that member's API token for the campaign
    api_token: Any  # the owner's token (the revoke URL's)
    overlay: Any  # an overlay link, and its key
    overlay_key: str


@dataclass
class World:
    users: dict[str, Any]
    ours: CampaignData
    theirs: CampaignData  # run by the outsider
    sessions: dict[str, str] = field(default_factory=dict)
    _base: dict | None = None

    # ------------------------------------------------------------------ clients

    def client(self, role: str, **kwargs) -> Client:
        """A client for a role; the session is made once, outside any rolled-back savepoint."""
        client = Client(**kwargs)
        user = self.users[role]
        if user is not None:
            if role not in self.sessions:
                client.force_login(user)
                self.sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
            client.cookies = SimpleCookie()
            client.cookies[settings.SESSION_COOKIE_NAME] = self.sessions[role]
        return client

    def api_auth(self, role: str) -> dict[str, str]:
        """The Authorization header of the role's own API token: a member's for our
        campaign, the outsider's for theirs, none for a visitor."""
        user = self.users[role]
        if user is None:
            return {}
        data = self.theirs if role == "outsider" else self.ours
        return {"HTTP_AUTHORIZATION": f"Bearer {data.api_keys[user.pk]}"}

    def reset(self, client: Client, role: str) -> None:
        """Forget cookies a rolled-back request left (a rotated session, messages)."""
        client.cookies = SimpleCookie()
        if self.users[role] is not None:
            client.cookies[settings.SESSION_COOKIE_NAME] = self.sessions[role]

    # ------------------------------------------------------------------ state

    def base(self) -> dict:
        if self._base is None:
            self._base = snapshot()
        return self._base

    def pks_of_theirs(self) -> dict[str, set]:
        """Rows that belong to the outsider's campaign, by model label."""
        from api.models import ApiToken, OverlayLink
        from campaigns.models import Invite, Membership, Scene
        from sheets.models import Counter, Sheet, Trait
        from table.models import TableEvent

        c = self.theirs.campaign
        return {
            "campaigns.campaign": {c.pk},
            "campaigns.membership": set(
                Membership.objects.filter(campaign=c).values_list("pk", flat=True)
            ),
            "campaigns.invite": set(Invite.objects.filter(campaign=c).values_list("pk", flat=True)),
            "campaigns.scene": set(Scene.objects.filter(campaign=c).values_list("pk", flat=True)),
            "sheets.sheet": set(Sheet.objects.filter(campaign=c).values_list("pk", flat=True)),
            "sheets.trait": set(
                Trait.objects.filter(sheet__campaign=c).values_list("pk", flat=True)
            ),
            "sheets.counter": set(
                Counter.objects.filter(sheet__campaign=c).values_list("pk", flat=True)
            ),
            "table.tableevent": set(
                TableEvent.objects.filter(campaign=c).values_list("pk", flat=True)
            ),
            "api.apitoken": set(
                ApiToken.objects.filter(membership__campaign=c).values_list("pk", flat=True)
            ),
            "api.overlaylink": set(
                OverlayLink.objects.filter(campaign=c).values_list("pk", flat=True)
            ),
        }


def state_models():
    for label in STATE_APPS:
        yield from apps.get_app_config(label).get_models()


def _queries() -> list[tuple[str, str]]:
    """(model label, SELECT of its pk and state columns), raw SQL: no field conversion."""
    out = []
    qn = connection.ops.quote_name
    for model in state_models():
        meta = model._meta
        columns = [f.column for f in meta.concrete_fields if f.attname not in VOLATILE]
        pk = meta.pk.column
        cols = ", ".join(qn(c) for c in [pk, *columns])
        out.append((meta.label_lower, f"SELECT {cols} FROM {qn(meta.db_table)}"))
    return out


def snapshot() -> dict[str, dict]:
    """Every row of every state table, by model label and pk."""
    rows: dict[str, dict] = {}
    with connection.cursor() as cursor:
        for label, sql in _queries():
            cursor.execute(sql)
            rows[label] = {r[0]: r[1:] for r in cursor.fetchall()}
    return rows


def diff(before: dict, after: dict) -> list[str]:
    out = []
    for label in sorted(set(before) | set(after)):
        a, b = before.get(label, {}), after.get(label, {})
        for pk in sorted(set(a) | set(b), key=str):
            if a.get(pk) != b.get(pk):
                kind = "added" if pk not in a else "removed" if pk not in b else "changed"
                out.append(f"{label}#{pk} {kind}")
    return out


def _writes() -> int | None:
    """SQLite counts every row written on the connection: a free "did anything write?"."""
    if connection.vendor != "sqlite":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT total_changes()")
        return cursor.fetchone()[0]


@dataclass
class Outcome:
    response: Any
    changes: list[str]  # rows that differ from the world as built


@contextmanager
def rolled_back(world: World) -> Iterator[list]:
    """Run requests in a savepoint that is rolled back; yields a list that receives the
    changes (against the world as built) made inside it."""
    base = world.base()
    found: list = []
    with transaction.atomic():
        before = _writes()
        try:
            yield found
        except BaseException:
            # the view raised (a 500 in production): report that, not a broken transaction
            transaction.set_rollback(True)
            raise
        after = _writes()
        if before is None or after != before:
            found.extend(diff(base, snapshot()))
        transaction.set_rollback(True)


def request(
    world: World,
    client: Client,
    role: str,
    method: str,
    url: str,
    data=None,
    *,
    htmx=False,
    keep_cookies=False,
    **extra,
) -> Outcome:
    """One request in a rolled-back savepoint; `changes` lists the rows it changed."""
    headers = {**(HTMX if htmx else {}), **extra}
    if not keep_cookies:
        world.reset(client, role)
    with rolled_back(world) as changes:
        response = getattr(client, method.lower())(url, data or {}, **headers)
    _clear_card_cache()
    return Outcome(response, changes)


def _clear_card_cache() -> None:
    """table.reading.rendering caches cards by event pk; rolled-back events reuse pks."""
    from table.reading import rendering

    rendering.clear_cache()


# ---------------------------------------------------------------------- building


def _campaign(gm, name, members: list[tuple[Any, str]]) -> CampaignData:
    """A campaign run by `gm` with (user, role) members; the first player owns the sheet,
    the last member's membership is the one the member URLs act on."""
    from api import access
    from campaigns import services
    from campaigns.models import Membership
    from sheets import services as sheets
    from sheets.models import Counter
    from table.writing import actions

    campaign = services.create_campaign(gm, name=name, description="", system="serenity")
    memberships = [
        Membership.objects.create(campaign=campaign, user=user, role=role) for user, role in members
    ]
    owner = next(u for u, r in members if r == "player")
    sheet = sheets.create_sheet(campaign, name="Mal", kind="pc", owner=owner)
    trait = sheets.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
    trait2 = sheets.add_trait(sheet, "stylins", {"name": "Finaglin'", "die": "d6"}, {})
    npc = sheets.create_sheet(campaign, name="Niska", kind="npc")
    sheets.add_trait(npc, "stylins", {"name": "Plottin'", "die": "d10"}, {})
    invite = services.create_invite(campaign, gm, "player")
    active = services.create_scene(campaign, title="The docks", description="")
    services.start_scene(campaign, active.pk, gm)
    planned = services.create_scene(campaign, title="The train job", description="")
    public_event = actions.perform(campaign, owner, "roll", {"pool": [FIGHTIN]}, sheet_id=sheet.pk)
    secret_event = actions.perform(
        campaign,
        gm,
        "roll",
        {"pool": [{"die": "d8", "trait": "Thugs", "group": "situation"}]},
        visibility="gm",
    )
    started = actions.perform(
        campaign,
        gm,
        "contest_start",
        {
            "sides": [
                {"sheet_id": sheet.pk, "goal": "walk out with the cargo"},
                {"name": "Niska's thugs", "goal": "take Mal prisoner"},
            ],
            "first": 0,
        },
    )
    api_keys, api_tokens = {}, {}
    for membership in Membership.objects.filter(campaign=campaign):
        token, text = access.create_token(membership, f"{membership.user.username}'s bot")
        api_keys[membership.user_id], api_tokens[membership.user_id] = text, token
    overlay, overlay_key = access.create_overlay(campaign, gm, "Stream")
    return CampaignData(
        campaign=campaign,
        sheet=sheet,
        trait=trait,
        trait2=trait2,
        npc=npc,
        planned=planned,
        active=active,
        invite=invite,
        membership=memberships[-1],
        secret_event=secret_event,
        public_event=public_event,
        contest_id=(started.params or {}).get("contest"),
        counter=Counter.objects.get(sheet=sheet, key="plot_points"),
        api_keys=api_keys,
        api_token=api_tokens[owner.pk],
        overlay=overlay,
        overlay_key=overlay_key,
    )


def build(make_user) -> World:
    users = {
        "gm": make_user("gina", "Gina the GM"),
        "owner": make_user("pete", "Pete"),
        "other": make_user("paula", "Paula"),
        "observer": make_user("olive", "Olive"),
        "outsider": make_user("oscar", "Oscar"),
        "anonymous": None,
    }
    ours = _campaign(  # the member URLs act on the observer's membership
        users["gm"],
        "Firefly Nights",
        [(users["owner"], "player"), (users["other"], "player"), (users["observer"], "observer")],
    )
    theirs = _campaign(users["outsider"], "Elsewhere", [(make_user("sam", "Sam"), "player")])
    return World(users=users, ours=ours, theirs=theirs)


def today() -> str:
    return dt.date.today().isoformat()
