"""A club enters a game's set-up once: the set-up a club last confirmed for a game (in another
campaign of it) is the suggestion for its next campaign of that game.

Each campaign still holds its own copy in its journal (its ``p.setup`` event), so an export
replays alone and a correction recomputes only that campaign. The core reads the club's earlier
campaigns for the game (campaigns.services.suggested, through GameSystem.suggested_data) and the
page passes what this returns as the set-up form's ``initial`` (GameSystem.form_fields uses it
instead of the book's values)."""

from __future__ import annotations


def latest_setup(earlier) -> dict | None:
    """The set-up of the most recent of `earlier` ((name, folded state) of the club's other
    campaigns of this game, newest first) whose set-up is confirmed (corrections included)."""
    for name, state in earlier:
        game = state.get("game")
        if game and game["public"]["phase"] != "setup":
            setup = game["public"]["setup"]
            return {
                "locations": setup["locations"],
                "units": setup["units"],
                **setup["params"],
                "copied_from": name,
            }
    return None


def suggested_setup(earlier) -> dict:
    """What the set-up form should show: the club's last set-up of this game, or {} (the form then
    shows the book's)."""
    return latest_setup(earlier) or {}
