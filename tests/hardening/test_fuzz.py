"""Fuzz every form and htmx endpoint with hypothesis: random field names and values, huge
strings, wrong types, raw bodies, and ids from another campaign, as every role.

What must hold for every request:
- the answer is never a server error (an exception in a view fails the test with it);
- a refused request (4xx) changes nothing;
- an observer or an outsider changes nothing in the campaign (except leaving it);
- nothing of the other campaign changes unless its own GM (the outsider) asks there;
- a GET never changes anything.

Each request runs in a rolled-back savepoint, so examples do not depend on one another.
The number of requests made is printed at the end of the run ("hardening figures").
"""

from __future__ import annotations

import html
import json
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .expectations import PATTERNS, ROWS, Row, best_role, row_url
from .urls import _param_values, build_url
from .world import World, request

pytestmark = pytest.mark.django_db

FUZZ_ROWS = [r for r in ROWS if r.method == "POST" or r.query or r.htmx is not None]
FUZZ_ROLES = ("gm", "gm", "owner", "owner", "other", "observer", "outsider", "anonymous")


def _serenity_action_fields() -> list[str]:
    from rules.registry import get_system

    game = get_system("serenity")
    return [f"{a.name}-{field}" for a in game.actions.values() for field in a.schema] + [
        f"{a.name}-visibility" for a in game.actions.values()
    ]


KNOWN_FIELDS = """
    username password password1 password2 display_name old_password new_password1
    new_password2 next name description system role title
    kind owner npc_kind hidden hidden_present notes version field reply die rating parent
    link flags_present flag_signature flag_heritage flag_combat direction delta value text
    file override_combat override_brains override_muscle
    sheet trait clicked target visibility plot_points as_contest goal pool side vs big_hero
    skill attribute modifier difficulty dice amount reason complication index seq ones
    contest op type benefit scene first a_sheet b_sheet a_name b_name a_goal b_goal before
    challenged table_contest table_target table_roll table_from_seq table_task table_chase
    table_tracker vs_skill vs_attribute vs_modifier vs_score bonus_dice modifiers
"""
FIELD_NAMES = sorted(set(KNOWN_FIELDS.split()) | set(_serenity_action_fields()))

DIGITS = ["²", "٣", "①", "𝟘", "½", "Ⅻ", "-0", "+1", " 7 ", "0x10", "1_000", "1e3", "٣٣"]
SPECIAL = [
    "", " ", "0", "-1", "1", "2", "12", "99999", "-99999", str(2**31), str(2**63), str(2**64),
    str(10**30), "-" + str(10**30), "nan", "inf", "-inf", "1e309", "true", "false", "on",
    "null", "None", "[]", "{}", '{"a":', "[1,2", '{"pool": [{"die": "d8"}]}',
    '{"pool": "d8"}', '[{"die": "d12", "trait": "x", "group": "stylins"}]', "d4", "d6", "d8",
    "d10", "d12", "d7", "d0", "d-4", "d12+d6", "d12+d12", "2d6", "d8 Thugs", "d8 Thugs, d99",
    "up", "down", "left", "gm", "player", "observer", "public", "blind", "npc", "pc", "boss",
    "give_in", "stress", "new", "start", "end", "Afraid", "\x00", "\x00\x00abc", "<script>",
    "'; DROP TABLE", "../../etc/passwd", "%00", "\u202e", "\ufeff", "😀" * 10, "ǅ" * 100,
    "2024-02-30", "9999-12-31",
]  # fmt: skip


def ids_of(world: World) -> list[str]:
    out = []
    for c in (world.ours, world.theirs):
        for obj in (c.campaign, c.sheet, c.trait, c.trait2, c.npc, c.planned, c.active, c.invite,
                    c.membership, c.secret_event, c.public_event, c.counter):  # fmt: skip
            out.append(str(obj.pk))
        out.append(str(c.contest_id))
    out += [str(u.pk) for u in world.users.values() if u is not None]
    return out


def values(world: World):
    huge = st.builds(
        lambda ch, n: ch * n,
        st.sampled_from(["x", "9", "é", "d8,", "{", "\x00", "ǅ"]),
        st.sampled_from([300, 4_001, 65_000, 300_000, 600_000]),
    )
    special, ids = st.sampled_from(SPECIAL), st.sampled_from(ids_of(world))
    scalar = st.one_of(
        special,
        special,
        st.sampled_from(DIGITS),  # what str.isdigit() accepts and int() may not
        ids,
        ids,
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.text(max_size=40),
        st.text(max_size=40),
        huge,  # one value in ten
    )
    return st.one_of(scalar, st.lists(scalar, min_size=0, max_size=4))


def field_names():
    return st.one_of(st.sampled_from(FIELD_NAMES), st.text(min_size=1, max_size=20))


def _values(world: World):
    if not hasattr(world, "fuzz_values"):  # building strategies costs more than drawing
        world.fuzz_values = values(world)
    return world.fuzz_values


def forms(world: World):
    """Random forms: known and random field names, junk values."""
    return st.dictionaries(field_names(), _values(world), max_size=8)


def mutated(world: World, row: Row):
    """The row's valid form with some fields junked, some dropped and some added: the
    valid path with one bad value reaches deeper than junk alone."""
    valid = row.data(world)
    names = sorted(valid)
    junk = _values(world)
    return st.tuples(
        st.dictionaries(st.sampled_from(names) if names else field_names(), junk, max_size=3),
        st.lists(st.sampled_from(names), max_size=2) if names else st.just([]),
        st.dictionaries(field_names(), junk, max_size=3),
    ).map(lambda parts: _apply(valid, *parts))


def _apply(valid: dict, changed: dict, dropped: list, added: dict) -> dict:
    out = {**valid, **added, **changed}
    for name in dropped:
        out.pop(name, None)
    return out


# ---------------------------------------------------------------------- the invariants


def theirs_changed(world: World, changes: list[str], pks: dict) -> list[str]:
    out = []
    for change in changes:
        label, _, rest = change.partition("#")
        pk = rest.split(" ")[0]
        if label in pks and any(str(p) == pk for p in pks[label]):
            out.append(change)
    return out


def check(
    world: World,
    pks: dict,
    row: Row | None,
    role: str,
    method: str,
    url: str,
    outcome,
    *,
    campaign_is_theirs=False,
):
    response, changes = outcome.response, outcome.changes
    status = response.status_code
    where = f"{method} {url} as {role}: {status}"
    assert status < 500, where
    if status >= 400:
        assert not changes, f"{where} refused but changed {changes}"
    if method == "GET":
        assert not changes, f"{where}: a GET changed {changes}"
    in_campaign = row is None or row.campaign
    self_service = row is not None and row.self_service
    if role in ("observer", "outsider", "anonymous") and in_campaign and not self_service:
        if not (role == "outsider" and campaign_is_theirs):
            assert not changes, f"{where}: {role} changed {changes}"
    if not (role == "outsider" and campaign_is_theirs):
        touched = theirs_changed(world, changes, pks)
        assert not touched, f"{where}: changed the other campaign's {touched}"


def _send(world, clients, role, method, url, body, htmx, raw):
    if raw is None:
        return request(world, clients[role], role, method, url, body, htmx=htmx)
    content_type, payload = raw
    return request(
        world, clients[role], role, method, url, payload, htmx=htmx, content_type=content_type
    )


RAW_PAYLOADS = [
    b"{}",
    b"[]",
    b"null",
    b'{"name": 1}',
    b"a=1&a=2&version=x",
    b"--zz\r\n",
    b"%ff%fe=%00",
]
# The test client re-encodes bodies sent with another charset, so those get ASCII payloads.
RAW_BODIES = st.one_of(
    st.tuples(
        st.sampled_from(
            [
                "application/json",
                "text/plain",
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=zz",
                "multipart/form-data",
            ]
        ),
        st.one_of(st.binary(max_size=200), st.sampled_from(RAW_PAYLOADS)),
    ),
    st.tuples(
        st.sampled_from(
            ["application/x-www-form-urlencoded; charset=utf-16", "text/plain; charset=latin-1"]
        ),
        st.sampled_from(RAW_PAYLOADS),
    ),
)


# ---------------------------------------------------------------------- the tests

FIELD_EXAMPLES = 450
URL_EXAMPLES = 500
# The same examples on every run (reproducible in CI); HARDENING_FUZZ_RANDOM=1 explores anew.
DERANDOMIZE = os.environ.get("HARDENING_FUZZ_RANDOM") != "1"


@settings(
    max_examples=FIELD_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=DERANDOMIZE,
    print_blob=True,
)
@given(data=st.data())
def test_fuzz_every_form_and_fragment(world, figures, data):
    """Random forms (and now and then a raw body) to every POST and fragment URL, with
    real ids of both campaigns among the values. Each example sends its form to the row
    it was made for and to a second row, as another role."""
    clients = _clients(world)
    pks = _theirs(world)
    row = data.draw(st.sampled_from(FUZZ_ROWS), label="row")
    if data.draw(st.booleans(), label="start from the valid form"):
        body = data.draw(mutated(world, row), label="form")
    else:
        body = data.draw(forms(world), label="form")
    raw = data.draw(st.none() | st.none() | st.none() | RAW_BODIES, label="raw body")
    second = data.draw(st.sampled_from(FUZZ_ROWS), label="second row")
    for target in (row, second):
        role = data.draw(st.sampled_from(FUZZ_ROLES), label="role")
        htmx = data.draw(st.booleans(), label="htmx")
        _fuzz_one(world, clients, pks, target, role, htmx, dict(body), raw)
        figures["fuzz requests (random forms)"] += 1


def _fuzz_one(world, clients, pks, row, role, htmx, body, raw):
    url = row_url(world, row)
    if "file" in body and row.method == "POST":
        body["file"] = SimpleUploadedFile(
            "sheet.json", str(body["file"]).encode("utf-8", "replace")
        )
    if row.method == "GET":
        raw = None
        query = "&".join(  # a URL is short: servers refuse long ones before Django sees them
            f"{k}={str(v)[:2000]}"
            for k, vs in body.items()
            for v in (vs if isinstance(vs, list) else [vs])
        )
        url = url.split("?")[0] + "?" + _quote(query)
        body = {}
    outcome = _send(world, clients, role, row.method, url, body, htmx, raw)
    check(world, pks, row, role, row.method, url, outcome)


@settings(
    max_examples=URL_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=DERANDOMIZE,
    print_blob=True,
)
@given(data=st.data())
def test_fuzz_every_url_parameter(world, figures, data):
    """Every URL pattern with its parameters swapped for other campaigns' ids, zero,
    huge numbers and junk text, GET and POST, as every role."""
    clients = _clients(world)
    pks = _theirs(world)
    pattern = data.draw(st.sampled_from([p for p in PATTERNS if p.params]), label="pattern")
    role = data.draw(st.sampled_from(FUZZ_ROLES), label="role")
    method = data.draw(st.sampled_from(["GET", "POST"]), label="method")
    htmx = data.draw(st.booleans(), label="htmx")
    theirs = _param_values(world, world.theirs)
    overrides = {}
    for name in pattern.params:
        choice = data.draw(
            st.sampled_from(["ours", "theirs", "junk"]) if name != "url" else st.just("ours"),
            label=f"{name} from",
        )
        if choice == "theirs":
            overrides[name] = theirs[name]
        elif choice == "junk":
            overrides[name] = data.draw(_junk_param(name, world), label=name)
    try:
        url = build_url(world, pattern, overrides)
    except Exception:  # noqa: BLE001 - the converter refused the value: not a URL
        return
    body = data.draw(forms(world), label="form") if method == "POST" else {}
    outcome = request(world, clients[role], role, method, url, body, htmx=htmx)
    figures["fuzz requests (URL parameters)"] += 1
    row = next((r for r in ROWS if r.key == pattern.key), None)
    campaign_is_theirs = overrides.get("campaign_id") == world.theirs.campaign.pk
    check(world, pks, row, role, method, url, outcome, campaign_is_theirs=campaign_is_theirs)


# Fields each view reads beyond the ones its valid form (expectations.py) fills in.
EXTRA_FIELDS = {
    "signup": ["next"],
    "login": ["next"],
    "sheet_create": ["npc_kind", "hidden"],
    "sheet_head": ["hidden", "hidden_present", "npc_kind", "owner"],
    "sheet_scores": ["override_brains", "override_muscle"],
    "sheet_counter": ["delta"],
    "trait_add": ["rating", "notes", "parent", "link", "flag_signature"],
    "trait": ["reply", "die", "rating", "notes", "parent", "link", "flags_present"],
    "table_events": ["before"],
    "odds": ["sheet", "target", "side", "vs", "plot_points", "big_hero"],
    "table_pool": ["target", "plot_points", "visibility", "as_contest", "goal"],
    "table_pool_roll": ["target", "plot_points", "visibility", "as_contest", "goal"],
    "table_act": [
        "stress-stress",
        "stress-visibility",
        "table_contest",
        "table_target",
        "table_roll",
    ],
    "table_gm_roll": ["name", "skill", "attribute"],
    "table_gm_contest": ["b_sheet", "a_name", "first"],
    "table_gm_tool": ["b_sheet", "a_name", "first"],
    "table_gm_scene": ["scene", "description"],
    "table_contest": ["type", "benefit", "target"],
    "table_panel_move": ["type", "benefit", "target"],
}


def sweep_values(world: World, name: str) -> list:
    """A short list of bad values for one field, with the other campaign's id of its kind."""
    theirs = world.theirs
    foreign = {
        "owner": world.users["outsider"].pk,
        "contest": theirs.contest_id,
        "scene": theirs.planned.pk,
        "trait": theirs.trait.pk,
        "clicked": theirs.trait.pk,
        "parent": theirs.trait.pk,
        "link": theirs.trait.pk,
    }.get(name, theirs.sheet.pk)
    return [
        "", "²", "-1", "0", "2147483648", str(10**23), "x" * 5000, "\x00<b>😀",
        str(foreign), ["1", "2", "x"], "d7",
    ]  # fmt: skip


def test_fuzz_each_field_with_each_bad_value(world, figures):
    """Systematic: every field of every form and fragment (its valid form's fields and
    the others its view reads), one at a time, set to each bad value, the rest valid; as
    a role the row lets in, alternately as a form post and an htmx request."""
    clients = _clients(world)
    pks = _theirs(world)
    problems = []
    for row in FUZZ_ROWS:
        valid = row.data(world)
        role = best_role(row)
        for name in [*valid, *EXTRA_FIELDS.get(row.key, [])]:
            for n, bad in enumerate(sweep_values(world, name)):
                body = {**valid, name: bad}
                htmx = row.htmx is not None and n % 2 == 1
                try:
                    _fuzz_one(world, clients, pks, row, role, htmx, body, None)
                except AssertionError as failure:
                    problems.append(f"{name}={str(bad)[:20]!r}: {failure}".splitlines()[0])
                except Exception as error:  # noqa: BLE001 - a view raised: a 500 in production
                    url = row_url(world, row)
                    problems.append(
                        f"{row.method} {url} as {role} with {name}={str(bad)[:20]!r}: "
                        f"{type(error).__name__}: {error}"[:300]
                    )
                figures["fuzz requests (field sweep)"] += 1
    assert not problems, "\n" + "\n".join(problems)


def _junk_param(name: str, world: World):
    if name.endswith("_id") or name in ("id",):
        return st.one_of(
            st.sampled_from([0, 1, 2**31, 2**63 - 1, 2**63, 10**25]),
            st.integers(min_value=0, max_value=10**30),
            st.sampled_from([int(i) for i in ids_of(world) if i.isdigit()]),
        )
    return st.one_of(
        st.sampled_from(
            [
                "x",
                "-",
                "_",
                "0",
                "d8",
                "stylins",
                "plot_points",
                "roll",
                "stress",
                "md",
                "json",
                "html",
                "2024-02-30",
                "1-1-1",
                "." * 3,
                "%2e%2e",
            ]
        ),  # fmt: skip
        st.text(
            alphabet=st.characters(blacklist_characters="/?#%", blacklist_categories=("Cs",)),
            min_size=1,
            max_size=30,
        ),
    )


def _quote(query: str) -> str:
    from urllib.parse import quote

    return quote(query, safe="=&")


def _clients(world: World) -> dict:
    """One client per role for the whole test (each example resets its cookies)."""
    if not hasattr(world, "fuzz_clients"):
        world.fuzz_clients = {role: world.client(role) for role in world.users}
    return world.fuzz_clients


def _theirs(world: World) -> dict:
    if not hasattr(world, "fuzz_theirs"):
        world.fuzz_theirs = world.pks_of_theirs()
    return world.fuzz_theirs


def test_out_of_range_ids_are_not_found(world, figures):
    """Every URL with a numeric id, that id set past what the database column holds (the
    <int:> converter accepts any length of digits): refused like any unknown id (404, or
    405 for the wrong method), never a server error."""
    clients = _clients(world)
    problems = []
    for pattern in PATTERNS:
        numeric = [p for p in pattern.params if p.endswith("_id") and "<int:" + p in pattern.route]
        for name in numeric:
            for value in (2**63, 10**25):
                url = build_url(world, pattern, {name: value})
                for method in ("GET", "POST"):
                    client = clients["gm"]
                    client.raise_request_exception = False
                    try:
                        outcome = request(world, client, "gm", method, url, {})
                    finally:
                        client.raise_request_exception = True
                    figures["fuzz requests (out-of-range ids)"] += 1
                    status = outcome.response.status_code
                    if status >= 500 or outcome.changes:
                        problems.append(f"{pattern.route} with {name}={value}: {method} {status}")
    if problems:
        example = problems[0]
        routes = sorted({p.split(" with ")[0] for p in problems})
        raise AssertionError(
            f"{len(problems)} requests failed, e.g. {example}; at {len(routes)} routes:\n"
            + "\n".join(routes)
        )


# ---------------------------------------------------------------------- the sheet import

IMPORT_EXAMPLES = 120


def json_values(leaves: int = 12):
    """Any JSON: nested objects and lists, wrong types, unicode, long strings."""
    text = st.one_of(
        st.text(max_size=30),
        st.text(st.characters(codec="utf-8"), max_size=30),
        st.text(st.characters(categories=["Cs", "Cc", "Co", "Zl", "Mn"]), max_size=8),
        st.sampled_from(["", " ", "d8", "serenity", "rollcall-sheet", "pc", "npc", "\u202e"]),
    )
    scalar = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=True, allow_infinity=True),
        text,
        st.builds(lambda ch, n: ch * n, st.sampled_from(["x", "é", "😀"]), st.integers(41, 5_000)),
    )
    return st.recursive(
        scalar,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
        max_leaves=leaves,
    )


# A field set to a value of a type it never takes, so every document is refused whatever
# else it holds.
SPOILERS = {
    "name": lambda v: not isinstance(v, str),
    "system": lambda v: not isinstance(v, str),
    "format": lambda v: not isinstance(v, str),
    "traits": lambda v: not isinstance(v, dict),
    "counters": lambda v: not isinstance(v, dict),
    "hidden": lambda v: not isinstance(v, bool),
    "kind": lambda v: not isinstance(v, str),
}


def sheet_shaped():
    """A Rollcall sheet's fields, with any JSON in them and one field of a wrong type."""
    trait = st.dictionaries(
        st.sampled_from(["name", "die", "rating", "parent", "link", "flags", "notes", "x"]),
        json_values(6),
        max_size=5,
    )
    traits = st.dictionaries(
        st.sampled_from(["stylins", "refinements", "values", "stress", "assets", "x"]),
        st.one_of(st.lists(trait | json_values(4), max_size=3), json_values(4)),
        max_size=3,
    )

    @st.composite
    def build(draw):
        doc = {"format": "rollcall-sheet", "version": 1, "system": "serenity", "name": "Mal"}
        doc.update(
            draw(st.dictionaries(st.sampled_from(sorted(SPOILERS)), json_values(), max_size=3))
        )
        doc["traits"] = draw(traits)
        spoiled = draw(st.sampled_from(sorted(SPOILERS)))
        doc[spoiled] = draw(json_values().filter(SPOILERS[spoiled]))
        return doc

    return build()


def foundry_actors():
    return st.fixed_dictionaries(
        {
            "name": json_values(2),
            "type": st.sampled_from(["character", "npc"]),
            "system": st.dictionaries(st.text(max_size=10), json_values(), max_size=4),
            "items": st.lists(json_values(4), max_size=3),
        },
        optional={"_id": st.text(max_size=16), "prototypeToken": json_values(4)},
    )


def import_texts():
    deep = st.builds(
        lambda opener, n: opener * n + ("1" + "}" * n if opener == '{"a":' else "]" * n),
        st.sampled_from(["[", '{"a":']),
        st.sampled_from([6, 20, 999, 1_200, 20_000]),
    )
    documents = st.one_of(sheet_shaped(), sheet_shaped(), foundry_actors(), json_values())
    dumped = st.builds(_dump, documents, st.booleans(), st.sampled_from([None, None, 2]))
    return st.one_of(
        dumped,
        dumped,
        dumped,
        deep,
        # A NUL is refused before any view (rollcall/middleware.py, tests/test_error_pages.py).
        st.text(st.characters(blacklist_characters="\x00"), max_size=200),
        st.sampled_from(["9" * 5_000, "x" * 270_000, "<?xml version='1.0'?><c/>", "[]"]),
    )


def _dump(doc, ascii_only: bool, indent) -> str:
    text = json.dumps(doc, ensure_ascii=ascii_only, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only the escaped form can be sent
        text = json.dumps(doc, indent=indent)
    return text


@settings(
    max_examples=IMPORT_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=DERANDOMIZE,
    print_blob=True,
)
@given(data=st.data())
def test_fuzz_the_sheet_import_as_a_player(world, figures, data):
    """Any JSON pasted into a player's sheet import (nested, wrong types, huge, unicode,
    deep, another tool's export): never a server error; the page lists what is wrong,
    the textarea keeps the text, and nothing changes."""
    pasted = data.draw(import_texts(), label="pasted")
    client = _clients(world)["owner"]
    url = reverse("sheet_import", args=[world.ours.campaign.pk])
    outcome = request(world, client, "owner", "POST", url, {"text": pasted})
    figures["fuzz requests (sheet import)"] += 1
    response = outcome.response
    body = html.unescape(response.content.decode())
    assert response.status_code == 422, (response.status_code, body[:2000])
    assert 'id="import-problems"' in body and "Nothing was imported" in body
    assert pasted.strip() in body, "the textarea lost what was pasted"
    assert not outcome.changes, outcome.changes
