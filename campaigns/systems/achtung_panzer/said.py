"""What a side is told right after it submitted (GameSystem.submitted_words): what it bought, gave
back, changed or finished, in sentences, from its own cut of the state after the submission. The
rolls that followed are reported by the core after this sentence."""

from __future__ import annotations

from . import refit_steps, words
from .common import SIDES, private
from .shapes import APState
from .steps import purchases as P
from .steps.fortifications import fortification_words

_FIELD_WORDS = {
    "kind": "kind",
    "type": "type",
    "nationality": "nationality",
    "rg": "RG",
    "platoon": "platoon",
    "status": "state",
    "isolated": "isolated",
    "captured": "captured",
    "vehicular": "vehicular-mounted",
    "note": "note",
}


def submitted_words(view: APState, record) -> str | None:
    side = record.side
    if side not in SIDES or side not in (view.get("game") or {}).get("sides", {}):
        return None
    data = record.data or {}
    mine = private(view, side)
    names = words.Names(mine)
    if record.kind == "ap.purchase":
        return _purchase(view, side, data, names)
    if record.kind == "ap.fortify":
        return _fortify(view, side, data)
    if record.kind == "ap.check":
        return _check(view, side, data, names)
    if record.kind == "ap.retained":
        return _retained(mine, data, names)
    if record.kind == "ap.declare":
        return (
            f"Declared {words.SPECIAL_WORDS.get(data.get('special'), 'the half-day')} (CG13); the German "
            "player is told."
        )
    return None


def _bought_now(view: APState, side, names) -> str:
    bought = P.this_half_day(view, side)
    if not bought:
        return "nothing bought in this step"
    return words.join_words(f"{names.rg(p['id'])} ({p['cost']} CPP)" for p in bought)


def _purchase(view: APState, side, data, names) -> str | None:
    cpp = private(view, side)["cpp"]
    if data.get("action") == "remove":
        return (
            f"Purchase given back: you have {cpp} CPP. This step: {_bought_now(view, side, names)}."
        )
    rg = (data.get("rg") or "").strip().upper()
    mine = [p for p in P.this_half_day(view, side) if p.get("rg") == rg]
    if not mine:
        return None
    bought = mine[-1]
    return (
        f"Bought {names.rg(bought['id'])} for {bought['cost']} CPP; {cpp} CPP left. "
        f"This step: {_bought_now(view, side, names)}."
    )


def _fortify(view: APState, side, data) -> str | None:
    mine = private(view, side)
    fpp = mine.get("fpp", 0)
    if data.get("action") == "remove":
        return f"Fortification given back: you have {fpp} FPP."
    now = [
        f
        for f in mine.get("fortifications", [])
        if f.get("half_day") == words_half_day(view) and "cost" in f
    ]
    if not now:
        return None
    return f"Bought {fortification_words(now[-1])} for {now[-1]['cost']} FPP; {fpp} FPP left."


def words_half_day(view: APState) -> str:
    return view["game"]["public"]["half_day"]


def _check(view: APState, side, data, names) -> str | None:
    step = refit_steps.BY_ID.get(data.get("step"))
    if step is None:
        return None
    mine = private(view, side)
    if step.id == "1.619":
        bought = P.this_half_day(view, side)
        if not bought:
            return "Done buying: nothing bought."
        return (
            f"Done buying: {words.join_words(names.rg(p['id']) for p in bought)} "
            f"({sum(p['cost'] for p in bought)} CPP); {mine['cpp']} CPP left."
        )
    if step.id == "1.621":
        now = [
            f
            for f in mine.get("fortifications", [])
            if f.get("half_day") == words_half_day(view) and "cost" in f
        ]
        forfeit = [
            x["fpp"]
            for x in mine.get("fpp_forfeit", [])
            if x.get("half_day") == words_half_day(view)
        ]
        text = "Done with fortifications: " + (
            words.join_words(fortification_words(f) for f in now) if now else "nothing bought"
        )
        return text + (f"; {forfeit[-1]} FPP forfeit (1.621)." if forfeit and forfeit[-1] else ".")
    return f"{step.label} ({step.rule}): done."


def _retained(mine, data, names) -> str | None:
    action = data.get("action")
    unit = names.units.get(data.get("id"))
    if action == "add":
        count = data.get("count") or 1
        what = words.what_unit(data)
        return (
            f"Added {count} × {what} to your retained units."
            if count > 1
            else f"Added a {what} to your retained units."
        )
    if unit is None:
        return None
    if action == "remove":
        return f"Removed the {names.unit(unit)} from your retained units."
    before = (unit.get("history") or [{}])[-1].get("before", {})
    changes = []
    for key, old in before.items():
        new = unit.get(key)
        if key == "rg":
            old, new = names.rg(old), names.rg(new)
        elif key == "status":
            old, new = words.STATUS_WORDS.get(old, old), words.STATUS_WORDS.get(new, new)
        elif isinstance(new, bool) or isinstance(old, bool):
            old, new = ("yes" if old else "no"), ("yes" if new else "no")
        changes.append(f"{_FIELD_WORDS.get(key, key)} {old or '(none)'} → {new or '(none)'}")
    return f"Changed the {names.unit(unit)}: {'; '.join(changes)}." if changes else None


def history_words(view: APState, record) -> str | None:
    """A retained-unit correction in the history, the unit named (the reader may read the side)."""
    if record.kind != "ap.retained" or record.side not in (view.get("game") or {}).get("sides", {}):
        return None
    data = record.data or {}
    names = words.Names(private(view, record.side))
    unit = names.units.get(data.get("id"))
    if data.get("action") == "add":
        return f"Retained units added: {data.get('count') or 1} × {words.what_unit(data)}"
    if unit is None:
        return None
    if data.get("action") == "remove":
        return f"Retained unit removed: the {names.unit(unit)}"
    changed = [_FIELD_WORDS.get(k, k) for k in _FIELD_WORDS if data.get(k) is not None]
    return f"Retained unit changed: the {names.unit(unit)}" + (
        f" ({', '.join(changed)})" if changed else ""
    )
