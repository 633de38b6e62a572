"""Demo campaigns of the victory-ledger games (python manage.py load_demo), made through the
real services: demo-alice plays the German, demo-bob the other side, demo-referee referees."""

from __future__ import annotations


def build(club, users, *, system: str, variant: str, name: str, setup=None, turns=(), options=None):
    """A campaign of `system` with its set-up confirmed and `turns` recorded, each a dict of
    turn data (the first side records the odd turns, the second the even ones, each confirmed by the other)."""
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit
    from campaigns.services.state import current_state
    from campaigns.systems import get_system

    game = get_system(system)
    first, second = game.side_slugs()
    organizer = users["organizer"]
    campaign = svc.create_campaign(
        club=club, user=organizer, system=system, variant=variant, name=name, options=options or {}
    )
    svc.assign_player(campaign, organizer, side=first, username=users["alice"].username)
    svc.assign_player(campaign, organizer, side=second, username=users["bob"].username)
    svc.assign_referee(campaign, organizer, username=users["referee"].username)
    submit(campaign, organizer, "campaign.started")
    campaign.refresh_from_db()
    book = current_state(campaign)["game"]["public"]["setup"]
    data = {
        "locations": book["locations"],
        "units": book["units"],
        **(setup(book) if setup else {}),
    }
    submit(campaign, users["alice"], f"{game.event_prefix}.setup", data)
    for i, turn in enumerate(turns):
        campaign.refresh_from_db()
        player, other = (
            (users["alice"], users["bob"]) if i % 2 == 0 else (users["bob"], users["alice"])
        )
        submit(campaign, player, f"{game.event_prefix}.turn", turn)
        campaign.refresh_from_db()
        state = current_state(campaign)
        if (
            state["current"] is not None
            and state["scenarios"][state["current"]]["status"] == "pending"
        ):
            submit(campaign, other, "result.confirmed", {"scenario": state["current"]})  # VL-5
    campaign.refresh_from_db()
    return campaign


def row(location: str, controller: str, supplied: bool = True, contested: bool = False) -> dict:
    return {
        "location": location,
        "controller": controller,
        "contested": contested,
        "supplied": supplied,
    }
