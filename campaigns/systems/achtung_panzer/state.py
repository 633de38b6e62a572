"""The initial Achtung! Panzer! state of a CG (docs/achtung-panzer.md, "State").

Built from cgs.yaml: each side's initial OB (ELR, SAN, CPP, FPP, the given RGs, which
become purchases with given=True and roll their 1.620 strength in the initial refit),
the Initial Scenario's type/weather/EC (1.5, I.1/II.1), the 1.31 balance option and
one public CG Roster line per half-day with its historical DRM (1.6161).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from .common import SIDES, other

DATA = Path(__file__).parent

TYPES = ("allied_assault", "german_assault", "dual")


@cache
def cgs() -> dict:
    with (DATA / "cgs.yaml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def cg(variant: str) -> dict:
    return cgs()[variant]


def roster_line(label: str, hist: dict) -> dict:
    """One CG Roster line (1.14); the half-day log fills it (halfday.py)."""
    return {
        "half_day": label,
        "hist": hist,
        "played": False,
        "op": {"allied": None, "german": None},
        "cvp": {"allied": 0, "german": 0},
        "objectives_start": {"allied": [], "german": []},
        "objectives_end": {"allied": [], "german": []},
        "half_boards": {"allied": 0, "german": 0},
        "air_support": {"allied": False, "german": False},
        "oba_missions": {"allied": 0, "german": 0},
        "bridges_destroyed": [],
        "perimeter": {"allied": [], "german": []},
        "type": None,
        "winner": None,
        "victory": None,
        "weather": None,
        "ec": None,
        "sets_up_first": None,
        "moves_first": None,
        "attack_chits": {"allied": None, "german": None},
    }


def _given_purchases(side_data: dict, label: str, start_id: int) -> tuple[list[dict], int]:
    purchases, next_id = [], start_id
    for rg in side_data.get("rgs", []):
        for _ in range(rg.get("count", 1)):
            entry = {
                "id": f"p{next_id}",
                "half_day": label,
                "rg": rg.get("id"),
                "nationality": rg["nationality"],
                "cost": 0,
                "options": {
                    "on_map": False,
                    "reserve": False,
                    "pre_registered": bool(rg.get("pre_registered")),
                },
                "given": True,
                "note": rg.get("note", ""),
                "strength": None,
                "attached": None,
                "sw": [],
                "leaders": [],
                "armor_leader": None,
                "ammo": None,
                "guns": None,
                "units": [],
            }
            for key in ("unit_type", "kind", "no_depletion", "no_armor_leader"):
                if key in rg:
                    entry[key] = rg[key]
            if rg.get("units"):
                entry["given_units"] = [dict(u) for u in rg["units"]]
            purchases.append(entry)
            next_id += 1
    return purchases, next_id


def initial_state(variant: str, options: dict, hist_table, opponent_elr: int, elr_groups) -> dict:
    """`hist_table`: the bound 1.6161 table (house rules applied); `opponent_elr`: 1.31's value;
    `elr_groups(side, value)`: the side's ELR per nationality from its main one's (elr.initial)."""
    data = cg(variant)
    initial = data["initial_scenario"]
    labels = data["half_days"]
    first = labels[0]
    elr = {side: initial["sides"][side]["elr"] for side in SIDES}
    balance = options.get("balance", "none") or "none"
    if balance in SIDES:
        # 1.31: both players want `balance`; its opponent starts at ELR 4.
        elr[other(balance)] = opponent_elr
    sides = {}
    for side in SIDES:
        side_data = initial["sides"][side]
        purchases, next_id = _given_purchases(side_data, first, 1)
        free = initial.get("free_attack_chit_side")
        sides[side] = {
            "cpp": side_data["cpp"],
            "fpp": side_data["fpp"],
            "elr": elr_groups(side, elr[side]),
            "san": side_data["san"],
            "rolls": [],
            "purchases": purchases,
            "fortifications": [],
            "retained": [],
            "eliminated": [],
            "next_id": next_id,
            "attack_chit": (side == free),
            "recon": {"locations": 0},
            "pending": {},
            "skipped": {},
            "cvp_after_victory": {},
        }
    type_ = initial["type"]
    public = {
        "cg": variant,
        "half_day": first,
        "refit_for": 0,
        "phase": "refit",
        "initial": True,
        "roster": [
            roster_line(label, {s: int(hist_table.value(label, s)) for s in SIDES})
            for label in labels
        ],
        "record": {s: {"won": 0, "lost": 0, "drawn": 0} for s in SIDES},
        "elr": {s: None for s in SIDES},
        "san": {s: None for s in SIDES},
        "weather": initial.get("weather"),
        "ec": initial.get("ec"),
        "wind": initial.get("wind"),
        "special_half_day": None,
        "british_half_days": 0,
        "armor_half_days": 0,
        "scenario_type": type_,
        "sets_up_first": next(s for s in SIDES if initial["sides"][s]["sets_up"] == "first"),
        "moves_first": next(s for s in SIDES if initial["sides"][s]["moves"] == "first"),
        "attack_chits": {s: (s == initial.get("free_attack_chit_side")) for s in SIDES},
        "bridges_destroyed": [],
        "refit_key": first,
        "refit_initial": True,
        "steps": {first: {}},
        "pending_steps": [],
        "rolls": [],
        "balance": balance,
    }
    return {"public": public, "sides": sides, "referee": {}}
