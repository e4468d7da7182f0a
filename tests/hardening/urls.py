"""Every URL pattern of the project, found through the resolver, and a concrete URL for each.

`discover()` walks `get_resolver().url_patterns` recursively, so a pattern added
anywhere (an app's urls.py, an include, the admin) shows up here without anyone
listing it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from .world import CampaignData, World, today


@dataclass(frozen=True)
class Pattern:
    name: str  # "namespace:name" when namespaced; "" for an unnamed pattern
    route: str
    view: str  # module.function of the callback
    params: tuple[str, ...]
    callback: object

    @property
    def key(self) -> str:
        """How the expectation table names it: the URL name, or the route if it has none."""
        return self.name or self.route

    @property
    def namespace(self) -> str:
        return self.key.split(":")[0] if ":" in self.name else self.route.split("/")[0]


def _walk(patterns, prefix: str = "", namespace: str = ""):
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = f"{namespace}:{p.namespace}".strip(":") if p.namespace else namespace
            yield from _walk(p.url_patterns, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern):
            name = (f"{namespace}:{p.name}" if namespace else p.name) if p.name else ""
            callback = p.callback
            view = f"{callback.__module__}.{getattr(callback, '__name__', type(callback).__name__)}"
            params = tuple(p.pattern.regex.groupindex)
            yield Pattern(name, prefix + str(p.pattern), view, params, callback)


def discover() -> list[Pattern]:
    return list(_walk(get_resolver().url_patterns))


# Patterns without a name cannot be reversed: their concrete URL, by route.
UNNAMED = {
    "admin/(?P<url>.*)$": "/admin/{url}",
    "admin/auth/group/<path:object_id>/": "/admin/auth/group/{object_id}/",
    "admin/accounts/user/<path:object_id>/": "/admin/accounts/user/{object_id}/",
    "admin/integrations/webhook/<path:object_id>/": "/admin/integrations/webhook/{object_id}/",
}


def _param_values(world: World, c: CampaignData) -> dict[str, object]:
    """The value for each URL parameter name, for a campaign of the world."""
    return {
        "campaign_id": c.campaign.pk,
        "sheet_id": c.sheet.pk,
        "trait_id": c.trait.pk,
        "scene_id": c.active.pk,
        "invite_id": c.invite.pk,
        "membership_id": c.membership.pk,
        "event_id": c.secret_event.pk,
        "seq": c.secret_event.seq,
        "step": 1,
        "token_id": c.api_token.pk,
        "link_id": c.overlay.pk,
        "token": c.invite.token,
        "key": "plot_points",
        "group": "stylins",
        "action_name": "roll",
        "address": "contest",  # a game's GM tool or panel box (the world's game has both)
        "system": "serenity",
        "fmt": "md",
        "day": today(),
        # the admin's
        "app_label": "accounts",
        "object_id": str(world.users["gm"].pk),
        "id": str(world.users["gm"].pk),
        "content_type_id": 1,
        "url": "nowhere/",
    }


def build_url(
    world: World, pattern: Pattern, overrides: dict | None = None, *, theirs=False
) -> str:
    """A concrete URL for a pattern, with real ids from the world (or `overrides`)."""
    values = _param_values(world, world.theirs if theirs else world.ours)
    values.update(overrides or {})
    missing = [p for p in pattern.params if p not in values]
    if missing:
        raise LookupError(
            f"No value for URL parameter(s) {missing} of {pattern.name}: add one to _param_values"
        )
    kwargs = {p: values[p] for p in pattern.params}
    if pattern.name:
        return reverse(pattern.name, kwargs=kwargs)
    if pattern.route in UNNAMED:
        return UNNAMED[pattern.route].format(**kwargs)
    raise LookupError(f"URL pattern {pattern.route!r} has no name: name it, or add it to UNNAMED")
