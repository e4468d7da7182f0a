"""The Jinja2 environment of the roll card (table/jinja2/table/event.html).

The card is the one template on the table's hot path (every roll renders it for
each audience), and Jinja2 renders it several times faster than the Django
template language; every other page stays in Django templates. The filters are
the same functions the Django templates use (table/templatetags/table_cards.py).
"""

from __future__ import annotations

from django.utils import timezone
from jinja2 import Environment, Undefined
from markupsafe import Markup

from rules.kit.errors import RulesError
from rules.kit.ui import DEFAULT_TEMPLATES, Partials
from rules.registry import get_system
from table.templatetags import table_cards


def environment(**options) -> Environment:
    # Django's backend turns on DebugUndefined under DEBUG, which would print
    # "{{ ... }}" for a missing outcome field; a card must read the same everywhere.
    options["undefined"] = Undefined
    options.pop("autoescape", None)
    env = Environment(autoescape=True, **options)
    env.filters.update(
        action_title=table_cards.action_title,
        die_role=table_cards.die_role,
        die_counted=table_cards.die_counted,
        die_owner=table_cards.die_owner,
        die_marks=table_cards.die_marks,
        facts=table_cards.facts,
        split_facts=table_cards.split_facts,
        dice_marked=table_cards.dice_marked,
        localtime=timezone.localtime,
    )
    env.globals["icon"] = icon
    env.globals["game_partials"] = game_partials
    env.globals["card_reading"] = table_cards.card_reading
    return env


def game_partials(slug: str) -> Partials:
    """A game's template partials (`game_partials(event.system)["card_controls.jinja"]`),
    found through the registry; a game it does not know gets the defaults."""
    try:
        return get_system(slug).partials
    except RulesError:
        return Partials(DEFAULT_TEMPLATES)


def icon(name: str) -> Markup:
    """A symbol of the table page's sprite (table/templates/table/_icons.html): drawn, so
    it shows wherever an emoji font is missing; the text beside it says the same."""
    return Markup(
        '<svg class="icon" aria-hidden="true" focusable="false"><use href="#{}"></use></svg>'
    ).format(name)
