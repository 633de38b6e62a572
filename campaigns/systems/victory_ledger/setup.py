"""The set-up: the victory locations and the units of one campaign, and the game's own
set-up values (FAB's game length and sudden-death thresholds).

The rulebook texts are garbled or silent on much of it (the map's printed start
control, victory-hex lists, unit rosters), so a campaign's set-up is one journal event,
entered once when play starts: its form is pre-filled from the book where the text has
values, the organizer completes it, and a later change is a correction every side agrees
to (everything after it is recomputed). Units may be added later (they change no past
turn).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaigns.game_interface import DomainError, Field

from .shapes import Setup

MAX_LOCATIONS = 150
MAX_UNITS = 400
CODE = Field(
    "id",
    label="Code",
    required=False,
    default="",
    max_length=40,
    help="A short code for the journal; left blank, the name is used.",
)
NAME = Field("name", label="Name", required=False, default="", max_length=80)


def locations_field(
    sub_fields: tuple, *, label: str = "Victory locations", help: str = ""
) -> Field:
    item = Field("location", "object", fields=(CODE, NAME, *sub_fields))
    return Field(
        "locations",
        "list",
        label=label,
        required=False,
        default=[],
        max=MAX_LOCATIONS,
        item=item,
        help=help,
    )


def units_field(
    sides: tuple[str, ...],
    sub_fields: tuple,
    *,
    name: str = "units",
    label: str = "Units",
    help: str = "",
    side_names: tuple = (),
) -> Field:
    side = Field("side", "choice", label="Side", choices=sides, labels=tuple(side_names))
    item = Field("unit", "object", fields=(CODE, NAME, side, *sub_fields))
    return Field(
        name, "list", label=label, required=False, default=[], max=MAX_UNITS, item=item, help=help
    )


def _rows(rows: list[dict], what: str, field: str, taken: set[str]) -> list[dict]:
    """Rows with a name or a code, each with its code (the name when left blank), codes unique."""
    kept = []
    for i, row in enumerate(rows):
        row = dict(row)
        if not row.get("id") and not row.get("name"):
            continue  # a blank row of the form
        row["id"] = row.get("id") or row["name"]
        row["name"] = row.get("name") or row["id"]
        key = row["id"].casefold()
        if key in taken:
            raise DomainError(
                f"{field}[{i}].id", f"Two {what} have the code {row['id']!r}: codes must differ."
            )
        taken.add(key)
        kept.append(row)
    return kept


def clean_locations(rows: list[dict]) -> list[dict]:
    return _rows(rows, "locations", "locations", set())


def clean_units(
    rows: list[dict], existing: Iterable[dict] = (), field: str = "units"
) -> list[dict]:
    taken = {u["id"].casefold() for u in existing}
    return _rows(rows, "units", field, taken)


def book_setup(book, scenario: str, params: dict | None = None) -> dict:
    """The set-up as the book gives it for `scenario`: the form's pre-filled values."""
    info = book.scenario(scenario)
    start = info.get("start", {})
    default_holder = start.get("default", book.sides[1][0])
    locations = []
    for loc in book.locations:
        if scenario in loc.get("not_in", ()):
            continue
        row = {k: v for k, v in loc.items() if k not in ("not_in",)}
        row["start"] = loc.get("start") or next(
            (side for side, ids in start.items() if side != "default" and loc["id"] in ids),
            default_holder,
        )
        locations.append(row)
    units = [
        {k: v for k, v in u.items() if k != "not_in"}
        for u in book.units_for(scenario)
        if scenario not in u.get("not_in", ())
    ]
    return {"locations": locations, "units": units, "params": dict(params or {})}


def location(setup: Setup, loc_id: str) -> dict[str, Any] | None:
    return next((loc for loc in setup["locations"] if loc["id"] == loc_id), None)


def unit(setup: Setup, unit_id: str) -> dict[str, Any] | None:
    return next((u for u in setup["units"] if u["id"] == unit_id), None)
