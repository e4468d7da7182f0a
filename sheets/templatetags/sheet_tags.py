"""{% campaign_sheets campaign membership as sheets %}: the sheets a member may see, for the campaign page."""

from django import template

from sheets.permissions import visible_sheets

register = template.Library()


@register.simple_tag
def campaign_sheets(campaign, membership):
    return list(visible_sheets(campaign.pk, membership).order_by("kind", "name", "pk"))
