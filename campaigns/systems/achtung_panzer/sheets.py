"""Achtung! Panzer! sheets (1.14): the CG Roster (public), and each side's RG Purchase Record and
retained-unit roster (side-private).

``sheet_context`` reads **only** ``view``, the campaign state as the sheet's audience may see it
(rosters.sheets builds it with campaigns.access.visibility): a side sheet finds its side in
``view["game"]["sides"]`` (a side's audience holds exactly that side), so nothing of another side
can reach it even by mistake. Contexts are plain JSON values (they are hashed for the print cache).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.game_interface import SheetDef

from . import book, elr, words
from .shapes import APState, Side

SIDES = ("allied", "german")
NAMES = {"allied": "Allied", "german": "German"}
CG_NUMERALS: dict[str | None, str] = {"cg1": "I", "cg2": "II", "cg3": "III"}

SHEETS = (
    SheetDef(
        "cg_roster", "CG Roster", "public", "achtung_panzer/sheets/cg_roster.html", landscape=True
    ),
    SheetDef(
        "rg_purchases",
        "RG Purchase Record",
        "side",
        "achtung_panzer/sheets/rg_purchases.html",
        landscape=True,
    ),
    SheetDef("retained", "Retained units", "side", "achtung_panzer/sheets/retained.html"),
)

KIND_ORDER = (
    "leader",
    "armor_leader",
    "hero",
    "squad",
    "half_squad",
    "crew",
    "sw",
    "gun",
    "afv",
    "vehicle",
    "fortification",
    "other",
)
KIND_NAMES: dict[str | None, str] = {
    "leader": "Leader",
    "armor_leader": "Armor leader",
    "hero": "Hero",
    "squad": "Squad",
    "half_squad": "Half-squad",
    "crew": "Crew",
    "sw": "SW",
    "gun": "Gun",
    "afv": "AFV",
    "vehicle": "Vehicle",
    "fortification": "Fortification",
    "other": "Other",
}


def _signed(value) -> str:
    if value is None:
        return ""
    return f"+{value}" if int(value) > 0 else str(value)


def _num(value) -> str:
    return "" if value is None else str(value)


# --- CG Roster (public) -----------------------------------------------------------------------


def cg_roster(public: Mapping[str, Any]) -> dict:
    """One line per half-day of the CG, as the rulebook's CAMPAIGN GAME ROSTER: date, and for each
    side its historical modifier, objective points and casualties (CVP of the scenario and of its
    RePh, 1.12); the winner once determined (1.6067)."""
    lines, totals = [], {s: {"op": 0, "cvp": 0} for s in SIDES}
    for line in public.get("roster", []):
        row = {
            "half_day": line["half_day"],
            "winner": NAMES.get(line.get("winner"), line.get("winner") or ""),
        }
        decided = line.get("winner") is not None or line.get("played")
        for side in SIDES:
            op = (line.get("op") or {}).get(side)
            cvp = (line.get("cvp") or {}).get(side) or 0
            cvp += (line.get("cvp_after_victory") or {}).get(side) or 0
            row[side] = {
                "hist": _signed((line.get("hist") or {}).get(side)),
                "op": _num(op),
                "cvp": str(cvp) if decided else "",
            }
            totals[side]["op"] += op or 0
            totals[side]["cvp"] += cvp if decided else 0
        lines.append(row)
    return {
        "cg": CG_NUMERALS.get(public.get("cg"), public.get("cg") or ""),
        "lines": lines,
        "totals": {s: {k: str(v) for k, v in t.items()} for s, t in totals.items()},
        "record": {NAMES[s]: public.get("record", {}).get(s, {}) for s in SIDES},
        "british_half_days": public.get("british_half_days", 0),
        "elr": [
            {"half_day": line["half_day"], **{s: elr.words(line["elr"][s]) for s in SIDES}}
            for line in public.get("roster", [])
            if line.get("elr")
        ],
    }


# --- RG Purchase Record and retained units (side-private) ------------------------------------------


def _group_type(purchase: dict) -> str:
    return book.group_type(purchase)


def _options(purchase: dict) -> str:
    options = purchase.get("options") or {}
    words = [
        label
        for key, label in (
            ("on_map", "on-map"),
            ("reserve", "reserve"),
            ("pre_registered", "pre-registered hex"),
        )
        if options.get(key)
    ]
    if purchase.get("grants", {}).get("fpp"):
        words.append(f"+{purchase['grants']['fpp']} FPP")
    if purchase.get("grants", {}).get("san"):
        words.append(f"+{purchase['grants']['san']} SAN")
    return ", ".join(words)


def _counted(types: list[str]) -> str:
    seen: dict[str, int] = {}
    for t in types:
        seen[t] = seen.get(t, 0) + 1
    return ", ".join(f"{n}× {t}" if n > 1 else t for t, n in seen.items())


SHOWN_APART = ("leader", "armor_leader", "sw")


def _yield(purchase: dict, units: dict) -> str:
    """What the RG gave, in words: its units by kind, attached weapon, SW, leaders, ammo."""
    parts = []
    mine = [units[i] for i in purchase.get("units", []) if i in units]
    for kind in KIND_ORDER:
        if kind in SHOWN_APART:
            continue  # their own columns (SW, Leaders): the line stays short
        types = [u.get("type", "") for u in mine if u.get("kind") == kind]
        if types:
            parts.append(_counted(types))
    gone = [i for i in purchase.get("units", []) if i not in units]
    if gone:
        parts.append(f"({len(gone)} no longer retained)")
    if purchase.get("attached"):
        parts.append(f"attached: {purchase['attached']}")
    if purchase.get("sw_lost"):
        parts.append(f"not received: {purchase['sw_lost']}")
    if purchase.get("leaders_not_received"):
        parts.append(f"leaders not received: {', '.join(purchase['leaders_not_received'])}")
    if purchase.get("armor_leader") == "Inexperienced":
        parts.append("Inexperienced crew")
    if purchase.get("ammo"):
        parts.append(f"ammo: {purchase['ammo']}")
    return "; ".join(parts)


def _number(ident) -> int:
    """ "p12" -> 12 (ids are numbered in order of creation); none last."""
    digits = "".join(ch for ch in str(ident or "") if ch.isdigit())
    return int(digits) if digits else 10**9


def _leader_rank(text: str) -> tuple[int, int]:
    """Leaders best first: lowest leadership modifier, then highest morale ("9-2" before "8-0")."""
    if len(text) >= 3 and text[0].isdigit() and text[-1].isdigit() and ("-" in text or "+" in text):
        morale, sign, value = text.partition("-") if "-" in text else text.partition("+")
        try:
            return ((-1 if sign == "-" else 1) * int(value), -int(morale))
        except ValueError:
            pass
    return (0, 0)


def _side(view: APState) -> tuple[str, Side] | None:
    """The side a side sheet is printed for, with its records: None unless the view holds exactly
    one side."""
    sides = (view.get("game") or {}).get("sides") or {}
    if len(sides) != 1:
        return None
    ((slug, private),) = sides.items()
    return slug, private


def rg_purchases(view: APState) -> dict:
    found = _side(view)
    if found is None:
        return {"side": None, "rows": [], "fortifications": []}
    side, private = found
    units = {u["id"]: u for u in private.get("retained", [])}
    rows = []
    for p in private.get("purchases", []):
        rows.append(
            {
                "id": p.get("id", ""),
                "half_day": p.get("half_day", ""),
                "rg": p.get("rg") or "",
                "nationality": (p.get("nationality") or "").capitalize(),
                "type": _group_type(p),
                "cost": "given" if p.get("given") else _num(p.get("cost")),
                "elr": _num(
                    elr.groups(private.get("elr"), side).get(
                        elr.group_of(side, p.get("nationality"), p)
                    )
                ),
                "options": _options(p),
                "strength": p.get("strength") or "",
                "units": _yield(p, units),
                "sw": ", ".join(p.get("sw") or []),
                "leaders": ", ".join(
                    [
                        *(p.get("leaders") or []),
                        *(
                            [p["armor_leader"]]
                            if p.get("armor_leader") not in (None, "Inexperienced")
                            else []
                        ),
                    ]
                ),
            }
        )
    spent = sum(int(p.get("cost") or 0) for p in private.get("purchases", []) if not p.get("given"))
    forts = [
        {
            "id": f.get("id", ""),
            "half_day": f.get("half_day", ""),
            "type": f.get("type", ""),
            "detail": ", ".join(
                f"{k} {f[k]}"
                for k in ("size", "unit", "strength", "x", "y", "z")
                if f.get(k) is not None
            )
            + (" known" if f.get("known") else ""),
            "count": _num(f.get("count")),
            "cost": _num(f.get("cost")),
            "location": f.get("location") or "(not set up yet)",
        }
        for f in private.get("fortifications", [])
    ]
    return {
        "side": NAMES.get(side, side),
        "rows": rows,
        "fortifications": forts,
        "elr": elr.words(private.get("elr")),
        "cpp": _num(private.get("cpp")),
        "fpp": _num(private.get("fpp")),
        "spent": str(spent),
        "forfeit": [
            {"half_day": x["half_day"], "fpp": str(x["fpp"])}
            for x in private.get("fpp_forfeit", [])
        ],
    }


def retained_roster(view: APState) -> dict:
    found = _side(view)
    if found is None:
        return {"side": None, "rows": []}
    side, private = found
    names = words.Names(private)
    purchases = {p["id"]: p for p in private.get("purchases", [])}
    order: dict[str | None, int] = {k: i for i, k in enumerate(KIND_ORDER)}
    units = sorted(
        private.get("retained", []),
        key=lambda u: (
            order.get(u.get("kind"), 99),
            _number(u.get("rg")),
            _leader_rank(u.get("type", "")),
            _number(u.get("id")),
        ),
    )
    rows = [
        {
            "id": u.get("id", ""),
            "kind": KIND_NAMES.get(u.get("kind"), u.get("kind") or ""),
            "type": u.get("type", ""),
            "nationality": (u.get("nationality") or "").capitalize(),
            "rg": names.rg(u["rg"]) if u.get("rg") else "",
            "elr": _num(elr.unit_elr(private.get("elr"), side, u, purchases)),
            "status": u.get("status", ""),
            "isolated": "isolated" if u.get("isolated") else "",
            "captured": "captured" if u.get("captured") else "",
            "note": u.get("note", ""),
        }
        for u in units
    ]
    counts = [
        {"kind": KIND_NAMES.get(k, k), "count": str(sum(1 for u in units if u.get("kind") == k))}
        for k in KIND_ORDER
        if any(u.get("kind") == k for u in units)
    ]
    return {
        "side": NAMES.get(side, side),
        "rows": rows,
        "counts": counts,
        "elr": elr.words(private.get("elr")),
        "san": _num(private.get("san")),
    }


# Empty lines of the blank sheets: as many as fill one page (A4 and US Letter alike, landscape as
# printed; tests/rosters/test_blank_sheets.py holds each to one page), as the book's sheets are.
BLANK_LINES = {"cg_roster": 10, "rg_purchases": 8, "fortifications": 4}


def blank_context(sheet: str) -> dict | None:
    """The CG Roster and the RG Purchase Record with empty lines, for the table (no campaign)."""
    if sheet == "cg_roster":
        lines: list[dict] = [{} for _ in range(BLANK_LINES["cg_roster"])]
        record: dict[str, dict] = {NAMES[side]: {} for side in SIDES}
        return {
            "roster": {
                "cg": "",
                "lines": lines,
                "totals": {},
                "record": record,
                "elr": [],
                "british_half_days": "____",
            }
        }
    if sheet == "rg_purchases":
        rows: list[dict] = [{} for _ in range(BLANK_LINES["rg_purchases"])]
        forts: list[dict] = [{} for _ in range(BLANK_LINES["fortifications"])]
        return {"purchases": {"side": " ", "rows": rows, "fortifications": forts, "blank": True}}
    return None


def sheet_context(sheet: str, view: APState) -> dict:
    """What the sheet prints: built from `view` only (the audience's cut of the state)."""
    game = view.get("game") or {}
    if sheet == "cg_roster":
        return {"roster": cg_roster(game.get("public") or {})}
    if sheet == "rg_purchases":
        return {"purchases": rg_purchases(view)}
    if sheet == "retained":
        return {"retained": retained_roster(view)}
    return {}
