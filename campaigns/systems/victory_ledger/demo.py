"""Demo campaigns of the victory-ledger games (python manage.py load_demo), played at the
demo table (campaigns.services.demo.DemoTable, through the real services): demo-alice plays the German, demo-bob the other side, demo-referee referees."""

from __future__ import annotations


def build(table, *, variant: str, name: str, setup=None, turns=(), options=None):
    """A campaign of the table's system with its set-up confirmed and `turns` recorded, each a dict of
    turn data (the first side records the odd turns, the second the even ones, each confirmed by the other)."""
    game = table.system
    first, second = game.side_slugs()
    campaign = table.create(variant=variant, name=name, options=options)
    table.seat(first, "alice")
    table.seat(second, "bob")
    table.referee("referee")
    book = table.submit("organizer", "campaign.started")["game"]["public"]["setup"]
    data = {
        "locations": book["locations"],
        "units": book["units"],
        **(setup(book) if setup else {}),
    }
    table.submit("alice", f"{game.event_prefix}.setup", data)
    for i, turn in enumerate(turns):
        player, other = ("alice", "bob") if i % 2 == 0 else ("bob", "alice")
        state = table.submit(player, f"{game.event_prefix}.turn", turn)
        if (
            state["current"] is not None
            and state["scenarios"][state["current"]]["status"] == "pending"
        ):
            # a side's turn record waits for the other side: the demo confirms it at once
            table.submit(other, "result.confirmed", {"scenario": state["current"]})
    table.state()
    return campaign


def row(location: str, controller: str, supplied: bool = True, contested: bool = False) -> dict:
    return {
        "location": location,
        "controller": controller,
        "contested": contested,
        "supplied": supplied,
    }
