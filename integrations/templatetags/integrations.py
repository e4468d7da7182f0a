"""{% discord_dashboard campaign %}: the GM dashboard's line about the campaign's Discord
webhooks, and an alert when one stopped or cannot deliver."""

from django import template

from ..status import campaign_hooks

register = template.Library()


@register.inclusion_tag("integrations/_dashboard.html")
def discord_dashboard(campaign):
    hooks = campaign_hooks(campaign)
    return {
        "campaign": campaign,
        "hooks": hooks,
        "alerts": [h for h in hooks if h.alert],
        "configured": [h for h in hooks if h.hook is not None],
    }
