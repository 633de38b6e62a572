"""Small shared pieces of the table steps: modifiers read from the tables, retained units,
two-phase steps (roll first, the player's choice after) and upcoming rolls."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, Mod, UpcomingRoll

from .. import book, common
from ..shapes import APState, RosterLine

UNIT_KINDS_SMC = ("leader", "armor_leader", "hero")
UNIT_KINDS_INFANTRY_MMC = ("squad", "half_squad", "crew")
LEADER_KINDS = ("leader", "armor_leader")


def table_mod(ctx, table_id: str, key: str, times: int = 1, label: str = "") -> Mod | None:
    """The printed DRM `key` of a table, `times` over (e.g. "per 30 CVP"); None if it is 0.

    Values come from the table file so the data stays the one place for the numbers."""
    table = ctx.table(table_id)
    for mod in table.modifiers:
        if mod["key"] == key:
            value = int(str(mod["value"]).replace("−", "-")) * times
            if value == 0:
                return None
            text = mod["label"] if times == 1 else f"{mod['label']} (×{times})"
            return Mod(label or text, table.rule, value)
    raise KeyError(f"{table_id} has no modifier {key!r}")


def table_mod_value(ctx, table_id: str, key: str) -> int:
    for mod in ctx.table(table_id).modifiers:
        if mod["key"] == key:
            return int(str(mod["value"]).replace("−", "-"))
    raise KeyError(f"{table_id} has no modifier {key!r}")


def mods(*items) -> list[Mod]:
    return [m for m in items if m is not None]


def upcoming(key: str, label: str, table: str, mod_list, column: str | None = None) -> UpcomingRoll:
    return UpcomingRoll(
        key, label, table, tuple((m.label, m.rule, m.value) for m in mod_list), column
    )


def upcoming_roll(
    state: APState,
    side: str,
    step_id: str,
    label: str,
    mod_list,
    column: str | None = None,
    subject: str = "",
    table: str | None = None,
) -> UpcomingRoll:
    """A roll of a table step still to come, keyed as the step's own roll will be
    (common.roll_key: half-day, step, side, subject), on the step's table unless `table` is given."""
    key = common.roll_key(state, step_id, side, subject)
    return upcoming(key, label, table or step_id, mod_list, column)


# --- retained units ---------------------------------------------------------------------


def retained(state: APState, side: str) -> list[dict]:
    return common.private(state, side).setdefault("retained", [])


def unit_by_id(state: APState, side: str, unit_id, path: str) -> dict:
    for unit in retained(state, side):
        if unit["id"] == unit_id:
            return unit
    raise DomainError(path, f"No retained unit {unit_id!r}.")


def check_unique(ids, path: str) -> None:
    seen = set()
    for i, unit_id in enumerate(ids):
        if unit_id in seen:
            raise DomainError(f"{path}[{i}]", f"{unit_id} is listed twice.")
        seen.add(unit_id)


def eliminate(state: APState, side: str, unit: dict, step_id: str, reason: str) -> None:
    from .. import retained as retained_units  # one place for the shape of retained units

    retained_units.eliminate(state, side, unit, step_id, reason)


def new_unit(state: APState, side: str, **fields) -> dict:
    from .. import retained as retained_units

    return retained_units.new_unit(state, side, fields)


def is_immobilized(unit: dict) -> bool:
    return unit.get("status") == "immobilized" or bool(unit.get("immobilized"))


# --- steps done in two events: the roll, then the player's choice -----------------------


def pending(state: APState, side: str) -> dict:
    return common.private(state, side).setdefault("pending", {})


def pending_for(state: APState, side: str, step_id: str) -> dict | None:
    entry = pending(state, side).get(step_id)
    if entry and entry.get("half_day") == common.half_day(state):
        return entry
    return None


def set_pending(state: APState, side: str, step_id: str, entry: dict) -> None:
    pending(state, side)[step_id] = dict(entry, half_day=common.half_day(state))


def clear_pending(state: APState, side: str, step_id: str) -> None:
    pending(state, side).pop(step_id, None)


def done_marker(state: APState, side: str, step_id: str) -> list:
    """Sub-step bookkeeping private to the side (e.g. which units already tried to escape)."""
    return (
        common.private(state, side)
        .setdefault("done", {})
        .setdefault(f"{common.half_day(state)}/{step_id}", [])
    )


def done_list(state: APState, side: str, step_id: str) -> list:
    """Read-only view of done_marker (validation must not change the state)."""
    return (
        common.private(state, side).get("done", {}).get(f"{common.half_day(state)}/{step_id}", [])
    )


def ratio(text: str) -> tuple[int, int]:
    a, b = str(text).split(":")
    return int(a), int(b)


# --- odds shown before 1.6121 for the steps after it ---------------------------------------------


def upcoming_view(state: APState) -> APState:
    """The state as the steps after 1.6121 will see it: before the new half-day has begun, the
    odds panel already shows their rolls with the new half-day's label and historical DRM."""
    pub = common.public(state)
    key = pub.get("refit_key")
    if key is None or pub.get("refit_initial") or pub.get("phase") != "refit":
        return state
    if "1.6121" in pub.get("steps", {}).get(key, {}):
        return state
    current = state.get("current")
    nxt = (current if current is not None else -1) + 1
    scenarios = state.get("scenarios") or []
    if nxt >= len(scenarios):
        return state
    game = state["game"].copy()
    game["public"] = pub.copy()
    game["public"]["half_day"] = scenarios[nxt]["label"]
    view = state.copy()
    view["game"] = game
    return view


def after_new_half_day(upcoming_fn):
    """Wrap the upcoming() of a step that runs after 1.6121 (see upcoming_view)."""

    def wrapped(state: APState, side, ctx):
        return upcoming_fn(upcoming_view(state), side, ctx)

    wrapped.__name__ = upcoming_fn.__name__
    return wrapped


def this_line(state: APState) -> RosterLine | None:
    """The roster line of the half-day just played, for the steps before 1.6121 (1.610-1.6113)."""
    for line in common.public(state)["roster"]:
        if line.get("half_day") == common.half_day(state):
            return line
    return common.previous_line(state)


def won_this_half_day(state: APState, side: str) -> bool:
    """1.6112/1.6113 "won this CG half-day's scenario". Before 1.6067 has decided it (odds shown
    early) it counts as not won."""
    line = this_line(state)
    return bool(line and line.get("winner") == side)


# --- fields for the page (Step.form): choices drawn from the side's own units ----------------


def hidden(name: str, value) -> Field:
    from campaigns.game_interface import Field

    return Field(name, "str", required=False, default=value, widget="hidden")


def unit_choices(units, view: APState | None = None, side: str | None = None) -> dict:
    """choices/labels of a unit Field: each unit by id, shown by the name the players give it
    (words.Names, from the side's own records in `view`)."""
    from .. import words

    names = words.names_for(view, side) if view is not None else None
    return {
        "choices": tuple(u["id"] for u in units),
        "labels": tuple((u["id"], words.unit_label(u, names)) for u in units),
    }


def picked_units(
    name: str,
    label: str,
    units,
    view: APState,
    side,
    *more: Field,
    key: str = "unit",
    rows=None,
    help="",
) -> Field:
    """A list with one row per unit, each ticked unless `rows` say otherwise (the pick widget):
    the unit under `key`, then the row's other fields `more`."""
    return Field(
        name,
        "list",
        label=label,
        key=key,
        widget="pick",
        rows=tuple(rows) if rows is not None else tuple({key: u["id"], "_on": True} for u in units),
        required=False,
        default=[],
        item=Field(
            "entry", "object", fields=(Field(key, **unit_choices(units, view, side)), *more)
        ),
        help=help,
    )


def choice_words(choices, words_map) -> tuple:
    return tuple((c, words_map.get(c, str(c).replace("_", " "))) for c in choices)


def elite_rgs(state: APState, side: str) -> set[str]:
    """Purchase ids of the side's elite infantry companies (1.6202 rows "<nationality>:elite")."""
    table = book.tables().tables["1.6202"]
    elite = {
        (row.label.split(":", 1)[0], row.cells.get("rg"))
        for row in table.rows
        if row.label.endswith(":elite")
    }
    return {
        p["id"]
        for p in common.private(state, side).get("purchases", [])
        if (p.get("nationality"), p.get("rg")) in elite
    }


def is_elite(state: APState, side: str, unit: dict) -> bool:
    """An elite MMC: marked so, or of an elite company (1.6202 "Elite")."""
    return bool(unit.get("elite")) or (unit.get("rg") in elite_rgs(state, side))
