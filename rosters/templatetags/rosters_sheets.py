"""{% sheets_panel campaign viewer as panel %}: what the sheets panel of the campaign page shows."""

from django import template

from campaigns.systems import get_system

from .. import services, sheets

register = template.Library()


@register.simple_tag
def sheets_panel(campaign, viewer) -> dict:
    if viewer is None or not viewer.member:
        return {"choices": [], "jobs": []}
    # The sides are the system's (their names too): the page needs no state for them.
    sides = {"sides": {side.slug: {"name": side.name} for side in get_system(campaign.system).sides}}
    choices = sheets.choices_for(viewer, campaign, sides)
    jobs = services.jobs_for(viewer, campaign)
    return {"choices": choices, "jobs": [(job, services.is_stale(job)) for job in jobs],
            "papers": [("A4", "A4"), ("Letter", "US Letter")]}
