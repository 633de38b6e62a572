"""A club enters a game's set-up once: the set-up a club last confirmed for a game (in another
campaign of it) is the suggestion for its next campaign of that game.

Each campaign still holds its own copy in its journal (its ``p.setup`` event), so an export
replays alone and a correction recomputes only that campaign. This read is for doors that
pre-fill the set-up form: pass ``suggested_setup(campaign)`` as the form's ``initial``
(GameSystem.form_fields uses it instead of the book's values)."""

from __future__ import annotations


def latest_setup(club, system_slug: str, *, exclude=None) -> dict | None:
    """The set-up of the club's most recent other campaign of this game whose set-up is confirmed
    (corrections included: it is read from that campaign's folded state)."""
    from campaigns.models import Campaign
    from campaigns.services.state import current_state

    found = Campaign.objects.filter(club=club, system=system_slug).order_by("-created_at", "-pk")
    if exclude is not None:
        found = found.exclude(pk=exclude.pk)
    for campaign in found[:20]:
        game = current_state(campaign).get("game")
        if game and game["public"]["phase"] != "setup":
            setup = game["public"]["setup"]
            return {
                "locations": setup["locations"],
                "units": setup["units"],
                **setup["params"],
                "copied_from": campaign.name,
            }
    return None


def suggested_setup(campaign) -> dict:
    """What the set-up form of `campaign` should show: the club's last set-up of this game, or {}
    (the form then shows the book's)."""
    return latest_setup(campaign.club, campaign.system, exclude=campaign) or {}
