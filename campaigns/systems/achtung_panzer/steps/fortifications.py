"""1.621 Purchasing Fortifications with FPP (side-private, event ``ap.fortify``, repeatable).

Each event buys (or removes again) one line of the TH1.621 table; the side finishes with
``ap.check {"step": "1.621"}``, which forfeits every unspent FPP ("All FPP unspent upon the
completion of this step are forfeit"). Type and strength are recorded on the side record; the
location is optional here ("actual on map positioning ... is deferred until that side sets up").
No fortifications for the Allied side on an Armor half-day (CG13). Costs come from the table
through ctx (house rules apply); choices: docs/rules-notes.md, "1.621 fortifications".
"""

from __future__ import annotations

import math
import re
from typing import Any

from campaigns.game_interface import DomainError, Field

from .. import common
from ..shapes import APState
from . import purchases as P
from .base import Step

TABLE = "1.621"
ITEMS = (
    "Foxholes",
    "Trench",
    "Sangar",
    "Wire",
    "Pillbox",
    "Roadblock",
    "Fortified Building",
    "AP Mines",
    "AT Mines",
    "Dummy Mines",
    "AT Ditch",
    "?",
    "HIP",
)
HIP_UNITS = {"afv": "AFV", "squad": "Squad", "half_squad": "Half-squad or Crew", "smc": "SMC"}
MINES = ("AP Mines", "AT Mines")
_PILLBOX = re.compile(r"^\(x\+y\+z\)\*(\d+)$")


def _pick(table, item: str, label: str, path: str):
    costs, labels = table.value(item, "cost"), table.value(item, "cost_labels")
    for cost, text in zip(costs, labels):
        if text == label:
            return cost
    raise DomainError(path, f"{item}: no cost for {label} in TH1.621.")


def cost_of(ctx, side: str, data: dict) -> tuple[int, dict]:
    """FPP cost of one purchase and what is recorded about it."""
    table = ctx.table(TABLE)
    item = data["item"]
    detail: dict = {}
    if item == "Foxholes":
        size = data.get("size")
        if size not in (1, 2, 3):
            raise DomainError("size", "Foxholes: give the size, 1, 2 or 3 squads (TH1.621 a).")
        unit = _pick(table, item, f"{size} squad Foxhole", "size")
        detail["size"] = size
    elif item == "HIP":
        unit_kind = data.get("unit")
        if unit_kind not in HIP_UNITS:
            raise DomainError(
                "unit", "HIP: give the unit: AFV, squad, half-squad/crew or SMC (TH1.621 d)."
            )
        unit = _pick(table, item, HIP_UNITS[unit_kind], "unit")
        detail["unit"] = unit_kind
    elif item in MINES:
        nationality = "German" if side == "german" else "French"
        factors = data.get("factors")
        if not factors:
            raise DomainError(
                "factors", f"{item}: give the minefield strength in factors (TH1.621)."
            )
        per_factor = _pick(table, item, nationality, "item")
        unit = per_factor * factors
        detail.update(strength=factors, known=bool(data.get("known")))
        if data.get("known"):
            unit = math.ceil(unit / 2)  # f: "½ for KNOWN mines", rounded up to whole FPP
    elif item == "Pillbox":
        formula = str(table.value(item, "cost")).replace(" ", "")
        match = _PILLBOX.match(formula)
        values: list[Any] = [data.get(k) for k in ("x", "y", "z")]
        if not match:
            raise DomainError("item", f"Pillbox: the cost {formula!r} cannot be read (TH1.621).")
        if any(v is None for v in values):
            raise DomainError(
                "x", "Pillbox: give x, y and z, the three numbers of the pillbox counter (TH1.621)."
            )
        unit = sum(values) * int(match.group(1))
        detail.update(x=values[0], y=values[1], z=values[2])
    else:
        unit = table.value(item, "cost")
        if not isinstance(unit, int):
            raise DomainError("item", f"{item}: the cost {unit!r} cannot be read (TH1.621).")
    count = data.get("count") or 1
    return int(unit) * count, dict(detail, count=count)


def run_fortify(ctx, state: APState, side: str, data: dict) -> None:
    if P.step_done(state, "1.621", side):
        raise DomainError(
            "action", f"1.621 is already done for this side on {common.half_day(state)}."
        )
    private = common.private(state, side)
    if data["action"] == "remove":
        _remove(state, side, data.get("fortification"))
        return
    if side == "allied" and P.special_half_day(state) == "armor" and P.declared(state):
        raise DomainError("item", "No Fortifications may be purchased on an Armor half-day (CG13).")
    if not data.get("item"):
        raise DomainError("item", "Choose the fortification to buy.")
    cost, detail = cost_of(ctx, side, data)
    fpp = private.get("fpp", 0)
    if cost > fpp:
        raise DomainError("item", f"{data['item']}: costs {cost} FPP, {fpp} FPP available (1.621).")
    private["fpp"] = fpp - cost
    private["fortifications"].append(
        {
            "id": P.new_id(state, side, "f"),
            "type": data["item"],
            **detail,
            "cost": cost,
            "strength": detail.get("strength"),
            "location": data.get("location") or None,
            "half_day": common.half_day(state),
        }
    )


def _remove(state: APState, side: str, fort_id: str | None) -> None:
    private = common.private(state, side)
    for fort in private["fortifications"]:
        if fort["id"] == fort_id:
            break
    else:
        raise DomainError("fortification", f"No fortification {fort_id or '(none)'} to remove.")
    if fort["half_day"] != common.half_day(state) or "cost" not in fort:
        raise DomainError(
            "fortification",
            f"{fort_id} was not bought in this 1.621 step; only those can be removed.",
        )
    private["fpp"] = private.get("fpp", 0) + fort["cost"]
    private["fortifications"].remove(fort)


def finish_fortify(ctx, state: APState, side: str) -> None:
    """ap.check {"step": "1.621"}: every unspent FPP is forfeit."""
    private = common.private(state, side)
    left = private.get("fpp", 0)
    if left:
        private.setdefault("fpp_forfeit", []).append(
            {"half_day": common.half_day(state), "fpp": left}
        )
    private["fpp"] = 0


FIELDS = (
    Field("action", "choice", choices=("buy", "remove")),
    Field("item", "choice", choices=ITEMS, required=False, default=None, label="Fortification"),
    Field(
        "count",
        "int",
        required=False,
        default=1,
        min=1,
        max=50,
        help="How many (Fortified Building: Locations)",
    ),
    Field(
        "size", "int", required=False, default=None, min=1, max=3, help="Foxholes: 3, 2 or 1 squad"
    ),
    Field(
        "unit",
        "choice",
        choices=tuple(HIP_UNITS),
        required=False,
        default=None,
        help="HIP: the unit hidden",
    ),
    Field(
        "factors",
        "int",
        required=False,
        default=None,
        min=1,
        max=99,
        help="Mines: strength factors",
    ),
    Field("known", "bool", required=False, default=False, help="Mines: KNOWN mines cost ½"),
    Field("x", "int", required=False, default=None, min=0, max=20),
    Field("y", "int", required=False, default=None, min=0, max=20),
    Field("z", "int", required=False, default=None, min=0, max=20),
    Field(
        "location",
        required=False,
        default="",
        max_length=60,
        help="Optional: set up later (1.6244)",
    ),
    Field(
        "fortification", required=False, default="", max_length=16, label="Fortification to remove"
    ),
)


def _cost_words(table, item: str) -> str:
    costs, labels = table.value(item, "cost"), table.value(item, "cost_labels")
    if isinstance(costs, list):
        return ", ".join(
            f"{c} FPP {t}" if t else f"{c} FPP" for c, t in zip(costs, labels or [""] * len(costs))
        )
    return f"{costs} FPP"


def form(ctx, view: APState, side):
    table = ctx.table(TABLE)
    fpp = common.private(view, side).get("fpp", 0)
    labels = tuple((item, f"{item} — {_cost_words(table, item)}") for item in ITEMS)
    return (
        Field("action", "str", required=False, default="buy", widget="hidden"),
        Field(
            "item",
            "choice",
            choices=ITEMS,
            labels=labels,
            label=f"Fortification (you have {fpp} FPP)",
        ),
        Field(
            "count",
            "int",
            required=False,
            default=1,
            min=1,
            max=50,
            label="How many",
            help="Fortified Building: Locations.",
        ),
        Field(
            "size",
            "int",
            required=False,
            default=None,
            min=1,
            max=3,
            label="Foxholes: squads (3, 2 or 1)",
        ),
        Field(
            "unit",
            "choice",
            choices=tuple(HIP_UNITS),
            required=False,
            default=None,
            label="HIP: the unit hidden",
            labels=tuple(HIP_UNITS.items()),
        ),
        Field(
            "factors",
            "int",
            required=False,
            default=None,
            min=1,
            max=99,
            label="Mines: strength factors",
        ),
        Field("known", "bool", required=False, default=False, label="Mines: KNOWN (half cost)"),
        Field("x", "int", required=False, default=None, min=0, max=20, label="Pillbox: x"),
        Field("y", "int", required=False, default=None, min=0, max=20, label="Pillbox: y"),
        Field("z", "int", required=False, default=None, min=0, max=20, label="Pillbox: z"),
        Field(
            "location",
            required=False,
            default="",
            max_length=60,
            label="Location (optional)",
            help="Or set it up later (1.6244).",
        ),
    )


def bought_now(state: APState, side: str) -> list[dict]:
    """Fortifications bought with FPP in this step (they can still be given back, R-C21)."""
    return [
        f
        for f in common.private(state, side).get("fortifications", [])
        if f.get("half_day") == common.half_day(state) and "cost" in f
    ]


def form_remove(ctx, view: APState, side):
    """The fortifications bought in this step, the last one (a mis-tap is the latest) chosen."""
    mine = bought_now(view, side)
    return (
        Field("action", "str", required=False, default="remove", widget="hidden"),
        Field(
            "fortification",
            "choice",
            label="Fortification to give back",
            choices=tuple(f["id"] for f in mine),
            default=mine[-1]["id"] if mine else None,
            widget="radios",
            labels=tuple(
                (i, f"{text}: {f['cost']} FPP back")
                for (i, text), f in zip(fortification_labels(mine), mine)
            ),
        ),
    )


def fortification_labels(forts: list[dict]) -> tuple:
    """(id, words) of each fortification, the same words told apart by their order: "Wire, the 2nd"."""
    from ..words import ordinal

    said = [fortification_words(f) for f in forts]
    out = []
    for i, (f, text) in enumerate(zip(forts, said)):
        if said.count(text) > 1:
            text = f"{text}, the {ordinal(said[: i + 1].count(text))}"
        out.append((f["id"], text))
    return tuple(out)


def fortification_words(f: dict) -> str:
    """A fortification as the sheet names it: "Foxholes (3-squad, at 23R4)"."""
    details = []
    if f.get("count", 1) != 1:
        details.append(f"×{f['count']}")
    if f.get("strength"):
        details.append(f"strength {f['strength']}" + (", known" if f.get("known") else ""))
    if f.get("size"):
        details.append(f"{f['size']}-squad")
    if f.get("location"):
        details.append(f"at {f['location']}")
    text = str(f.get("type") or f.get("item") or "fortification")
    return text + (f" ({', '.join(details)})" if details else "")


# From A!P! v2 (d4232c2) the step stays open for a give-back once every FPP is spent; before, it
# applied only while FPP were left, so v1 journals left it without a check (R-C21).
GIVE_BACK_WHEN_SPENT_SINCE = 2


def _applies(state: APState, side: str) -> bool:
    """A side with FPP buys; one that spent them all in this step may still give one back."""
    if common.private(state, side).get("fpp", 0) > 0:
        return True
    return common.journal_version(state) >= GIVE_BACK_WHEN_SPENT_SINCE and bool(
        bought_now(state, side)
    )


STEPS = [
    Step(
        "1.621",
        "Purchase fortifications",
        "1.621",
        fields=FIELDS,
        run=run_fortify,
        repeatable=True,
        form=form,
        short="Fortifications",
        applies=_applies,
        initial=True,
        help="Spend FPP on the TH1.621 fortifications; unspent FPP are forfeit when you finish the step.",
        extra={"kind": "ap.fortify", "finish": finish_fortify},
    ),
]
