"""{% sheets_panel campaign viewer as panel %}: what the sheets panel of the campaign page shows."""

from django import template

from campaigns.services.state import current_state

from .. import services, sheets

register = template.Library()


@register.simple_tag
def sheets_panel(campaign, viewer) -> dict:
    if viewer is None or not viewer.member:
        return {"choices": [], "jobs": []}
    choices = sheets.choices_for(viewer, campaign, current_state(campaign))
    jobs = services.jobs_for(viewer, campaign)
    return {"choices": choices, "jobs": [(job, services.is_stale(job)) for job in jobs],
            "papers": [("A4", "A4"), ("Letter", "US Letter")]}
