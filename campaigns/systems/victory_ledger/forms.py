"""Page forms of a victory ledger (GameSystem.form_fields): the declared fields made concrete
from the campaign, so that a person ticks and picks instead of typing.

- A turn: one row per victory location, pre-filled with its state at the end of the last
  turn (held by, contested, supplied), so a quiet turn is a few taps; unit changes picked
  from the campaign's unit list, described in words; the game's own values pre-filled.
- The set-up: the book's locations and units as rows to check, with blank rows to add more.
"""

from __future__ import annotations

from .ledger import next_turn
from .model import CHANGES, STATUS_WORDS
from .shapes import LedgerPublic

BLANK_UNIT_ROWS = 4  # unit changes a turn form offers at once (more: record them with "Add units" … or a second pass)
BLANK_SETUP_ROWS = 8


def form_fields(system, view: dict, side, kind: str, initial: dict):
    game = (view or {}).get("game")
    if not game:
        return None
    pub, p = game["public"], system.event_prefix
    if kind == "result.resolved":
        return settle_fields(system, view, side, initial)
    declared = system.event_kind(kind)
    if declared is None:
        return None
    fields = {f.name: f for f in declared.fields}
    if kind == f"{p}.turn":
        return turn_fields(system, pub, fields, initial)
    if kind == f"{p}.setup":
        return setup_fields(system, pub, declared.fields, initial)
    if kind == f"{p}.changes":
        turn = next_turn(pub)
        if turn is None:
            return None
        return (
            fields["turn"].but(default=turn["label"], choices=(turn["label"],), widget="hidden"),
            _unit_changes(system, pub, fields["units"], turn),
        )
    if kind == f"{p}.units":
        return (_blank_units(system, fields["units"], BLANK_SETUP_ROWS),)
    return system.own_form_fields(view, side, kind, initial, declared.fields)


def correction_fields(system, view: dict, kind: str, data: dict) -> tuple | None:
    """A recorded turn's (or unit changes') correction: its declared fields, each location and
    unit picked by name from the whole set-up (whatever it is now) instead of typed as its id."""
    game = (view or {}).get("game")
    p = system.event_prefix
    if not game or kind not in (f"{p}.turn", f"{p}.changes"):
        return None
    pub = game["public"]
    places = tuple((loc["id"], location_label(system, loc)) for loc in pub["setup"]["locations"])
    units = tuple(
        (u["id"], f"{u['name']} — {system.book.side_name(u['side'])}")
        for u in pub["setup"]["units"]
    )
    turn: dict = next((t for t in pub["turns"] if t["label"] == data.get("turn")), {})
    out = []
    for field in system.event_kind(kind).fields:
        if field.name in ("locations", "units"):
            sub = {f.name: f for f in field.item.fields}
            if field.name == "locations":
                sub["location"] = _picked(sub["location"], places)
            else:
                sub["unit"] = _picked(sub["unit"], units)
                sub.update({f.name: f for f in system.unit_change_form_fields(pub, turn, sub)})
            field = field.but(item=field.item.but(fields=tuple(sub.values())))
        out.append(field)
    return tuple(out)


def _picked(field, labels: tuple):
    """`field` (an id typed in) as a choice among `labels` ((id, words), …)."""
    return field.but(type="choice", choices=tuple(i for i, _ in labels), labels=labels)


def location_label(system, loc: dict) -> str:
    words = system.location_words(loc)
    return f"{loc['name']} ({words})" if words else loc["name"]


def unit_label(system, unit: dict, status: str) -> str:
    bits = [system.book.side_name(unit["side"]), *system.unit_words(unit), STATUS_WORDS[status]]
    return f"{unit['name']} — {', '.join(b for b in bits if b)}"


def turn_fields(system, pub: LedgerPublic, fields: dict, initial: dict) -> tuple | None:
    turn = next_turn(pub)
    if turn is None:
        return None
    shown = system.turn_locations(pub)
    labels = tuple((loc["id"], location_label(system, loc)) for loc in shown)
    row = fields["locations"].item
    sub = {f.name: f for f in row.fields}
    sub_fields = [
        sub["location"].but(
            type="choice", choices=tuple(i for i, _ in labels), labels=labels, widget="hidden"
        ),
        sub["controller"],
    ]
    if system.uses_contested:
        sub_fields.append(sub["contested"])
    sub_fields.append(sub["supplied"].but(label=system.supplied_label, help=""))
    rows = tuple(
        {
            "location": loc["id"],
            "controller": pub["locations"][loc["id"]]["controller"],
            "contested": pub["locations"][loc["id"]]["contested"],
            "supplied": pub["locations"][loc["id"]]["supplied"],
        }
        for loc in shown
    )
    locations = fields["locations"].but(
        item=row.but(fields=tuple(sub_fields)),
        rows=rows,
        key="location",
        widget="rows",
        labels=labels,
        label="Locations at the end of the turn",
        help=f"Pre-filled from the last turn: change only what changed. "
        f"{system.supplied_label}: {system.supplied_help}",
    )
    out = [
        fields["turn"].but(
            default=turn["label"],
            choices=(turn["label"],),
            labels=((turn["label"], turn["label"]),),
            widget="hidden",
        ),
        locations,
        _unit_changes(system, pub, fields["units"], turn),
        *system.turn_extra_form_fields(pub, turn, fields),
        fields["note"],
    ]
    return tuple(out)


def _unit_changes(system, pub: LedgerPublic, field, turn: dict):
    live = [
        u
        for u in pub["setup"]["units"]
        if pub["units"][u["id"]]["status"] not in ("exited", "withdrawn")
    ]
    unit_labels = tuple(
        (u["id"], unit_label(system, u, pub["units"][u["id"]]["status"])) for u in live
    )
    sub = {f.name: f for f in field.item.fields}
    changes = system.changes_for(pub, turn)
    sub_fields = [
        sub["unit"].but(
            type="choice", choices=tuple(i for i, _ in unit_labels), labels=unit_labels
        ),
        sub["change"].but(
            choices=changes, labels=tuple((c, CHANGES[c][2].capitalize()) for c in changes)
        ),
        *system.unit_change_form_fields(pub, turn, sub),
    ]
    blank = {f.name: f.default for f in sub_fields}
    return field.but(
        item=field.item.but(fields=tuple(sub_fields)),
        rows=tuple(dict(blank) for _ in range(BLANK_UNIT_ROWS)),
        widget="rows",
        help="Pick each unit that was eliminated, reduced, rebuilt … this turn; leave the other "
        "rows blank.",
    )


def _blank_units(system, field, blanks: int):
    return field.but(
        rows=tuple({f.name: f.default for f in field.item.fields} for _ in range(blanks)),
        widget="rows",
        group="Units",
    )


def setup_fields(system, pub: LedgerPublic, declared: tuple, initial: dict) -> tuple:
    """The book's set-up, or the one given in `initial` (the club's last, victory_ledger/club.py)."""
    setup = pub["setup"]
    if initial.get("locations") or initial.get("units"):
        params = {k: v for k, v in initial.items() if k not in ("locations", "units")}
        setup = {
            "locations": initial.get("locations") or [],
            "units": initial.get("units") or [],
            "params": params,
        }
    out = []
    for field in declared:
        if field.name == "locations":
            rows = [dict(loc) for loc in setup["locations"]]
            out.append(
                field.but(
                    rows=tuple(rows + [_blank(field) for _ in range(BLANK_SETUP_ROWS)]),
                    widget="rows",
                    group="Locations",
                )
            )
        elif field.name == "units":
            rows = [dict(u) for u in setup["units"]]
            out.append(
                field.but(
                    rows=tuple(rows + [_blank(field) for _ in range(BLANK_SETUP_ROWS)]),
                    widget="rows",
                    group="Units",
                )
            )
        else:
            out.append(system.param_form_field(field, setup))
    return tuple(out)


def _blank(field) -> dict:
    return {f.name: f.default for f in field.item.fields}


def settle_fields(system, view: dict, side, initial: dict) -> tuple | None:
    """The referee's (or organizer's) form settling a waiting record: the record's own form,
    filled with what its side entered, to confirm as it is or change (confirmation.py)."""
    from campaigns.game_interface import Field

    from .confirmation import held

    waiting = held(view)
    if waiting is None:
        return None
    data, pub = waiting["data"], view["game"]["public"]
    index = view["current"] if initial.get("scenario") is None else initial["scenario"]
    scenario = Field("scenario", "int", default=index, widget="hidden")
    declared = system.event_kind(waiting["kind"])
    if waiting["kind"] == f"{system.event_prefix}.turn":
        fields = turn_fields(system, pub, {f.name: f for f in declared.fields}, {})
    else:
        fields = (
            system.own_form_fields(view, side, waiting["kind"], {}, declared.fields)
            or declared.fields
        )
    return (scenario, *(_filled(f, data) for f in fields or ()))


def _filled(field, data: dict):
    """`field` showing the value `data` gives it (rows: the rows given, over the pre-filled ones)."""
    if field.name not in data:
        return field
    value = data[field.name]
    if field.name == "locations" and field.rows:
        given = {row.get("location"): row for row in value or []}
        return field.but(
            rows=tuple({**row, **given.get(row["location"], {})} for row in field.rows)
        )
    if field.name == "units" and field.rows is not None:
        blank = field.rows[0] if field.rows else {}
        rows = [{**blank, **row} for row in value or []]
        return field.but(
            rows=tuple(rows + [dict(blank) for _ in range(max(BLANK_UNIT_ROWS - len(rows), 1))])
        )
    return field.but(default=value)
