"""1.619 Purchasing Reinforcement Groups, with the CG13 Allied declaration before it.

Two steps:

* ``1.619.declare`` (Allied, public, event ``ap.declare``): the Allied player declares a normal,
  Armor or British half-day before any RG is purchased (CG13: "must be announced to the German
  player"; docs/rules-notes.md, "Achtung! Panzer! — rule choices").
* ``1.619`` (each side, private, event ``ap.purchase``, repeatable): one event per action:
  ``buy`` one RG, or ``remove`` an RG bought earlier in this step (undo within the step: CPP, FPP
  and SAN given back). The side closes 1.619 with ``ap.check {"step": "1.619"}`` (steps/base.py).

Every limit is read through ctx (RG table cells, constants.yaml), so house rules apply; a refused
purchase raises DomainError naming the limit and its rule and changes nothing.

Purchase record (state["game"]["sides"][side]["purchases"]): see docs/achtung-panzer.md; this
module writes id, half_day, rg, nationality, group_type, kind, base_cost, cost, options, given,
grants (what it gave at once: fpp/san), and later 1.620 fills strength and what it yielded.
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field

from .. import common
from ..shapes import APState
from .base import Step

NATIONALITIES = {"german": ("german",), "allied": ("french", "british")}
NATIONALITY_NAMES = {"german": "German", "french": "French", "british": "British"}
SPECIAL = ("none", "armor", "british")
# CG13: on an Armor half-day "no infantry or Gun battery RG may be purchased, nor may Fortifications"
ARMOR_DAY_FORBIDDEN = {
    "infantry": "infantry RG",
    "gun": "Gun battery RG",
    "fortification": "Fortifications",
}


# --- shared reads (also used by reinforcements.py, fortifications.py, sheets.py) --------------


def rg_table_id(nationality: str) -> str:
    return f"1.619.{nationality}"


def rg_table(ctx, nationality: str):
    return ctx.table(rg_table_id(nationality))


def rg_cell(ctx, nationality: str, rg: str, column: str):
    return rg_table(ctx, nationality).value(rg, column)


def rg_name(ctx, nationality: str, rg: str) -> str:
    return f"{rg} {rg_cell(ctx, nationality, rg, 'group_type')}"


def month(label: str) -> str:
    """ "5/29A" -> "may", "6/1P" -> "june" (CG half-days are only in May and June 1940)."""
    return {"5": "may", "6": "june"}.get(label.split("/", 1)[0], "")


def purchases(state: APState, side: str) -> list[dict]:
    return common.private(state, side)["purchases"]


def bought(state: APState, side: str) -> list[dict]:
    """RGs bought with CPP (RGs given in an initial OB are not "purchased": rules-notes R-C1)."""
    return [p for p in purchases(state, side) if not p.get("given")]


def this_half_day(state: APState, side: str, include_given: bool = False) -> list[dict]:
    hd = common.half_day(state)
    return [
        p
        for p in purchases(state, side)
        if p["half_day"] == hd and (include_given or not p.get("given"))
    ]


def special_half_day(state: APState) -> str | None:
    return common.public(state).get("special_half_day")


def declared(state: APState) -> bool:
    return common.public(state).get("special_declared") == common.half_day(state)


def step_done(state: APState, step_id: str, side: str) -> bool:
    """Whether the side finished its own step `step_id` in this Refit Phase (its private marks)."""
    key = common.public(state).get("refit_key", common.half_day(state))
    return common.private(state, side).get("marks", {}).get(key, {}).get(step_id) in (
        "done",
        "skipped",
    )


def new_id(state: APState, side: str, prefix: str) -> str:
    private = common.private(state, side)
    number = private.get("next_id", 1)
    private["next_id"] = number + 1
    return f"{prefix}{number}"


def given_records(state: APState, side: str, rgs: list[dict], half_day: str) -> list[dict]:
    """Purchase records for RGs given in an initial OB (cgs.yaml ``rgs``), one per RG, in the shape
    state.py builds (tests use it; ``count: 2`` gives two records). 1.620 rolls them like bought ones."""
    records = []
    for entry in rgs:
        for _ in range(int(entry.get("count", 1))):
            record = {
                "id": new_id(state, side, "p"),
                "half_day": half_day,
                "rg": entry.get("id"),
                "nationality": entry["nationality"],
                "cost": 0,
                "given": True,
                "options": {
                    "on_map": False,
                    "reserve": False,
                    "pre_registered": bool(entry.get("pre_registered")),
                },
                "note": entry.get("note", ""),
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
                if key in entry:
                    record[key] = entry[key]
            if entry.get("units"):
                record["given_units"] = [dict(u) for u in entry["units"]]
            records.append(record)
    return records


# --- 1.619.declare ---------------------------------------------------------------------------


def _british_half_days_max(ctx, state: APState) -> tuple[int, str]:
    if common.public(state).get("cg") == "cg3":
        return int(ctx.value("british.max_half_days_cg3")), "CG13, CG III"
    return int(ctx.value("british.max_half_days_per_cg")), "CG13"


def run_declare(ctx, state: APState, side: str, data: dict) -> None:
    public = common.public(state)
    if declared(state):
        raise DomainError(
            "special",
            f"The Allied half-day for {common.half_day(state)} is already declared (CG13).",
        )
    if any(p for p in this_half_day(state, "allied")):
        raise DomainError("special", "The declaration comes before any RG is purchased (CG13).")
    special = data["special"]
    if special == "british":
        limit, rule = _british_half_days_max(ctx, state)
        if public.get("british_half_days", 0) + 1 > limit:
            raise DomainError("special", f"British half-days: at most {limit} per CG ({rule}).")
        public["british_half_days"] = public.get("british_half_days", 0) + 1
    if special == "armor":
        public["armor_half_days"] = public.get("armor_half_days", 0) + 1
    public["special_half_day"] = None if special == "none" else special
    public["special_declared"] = common.half_day(state)


# --- 1.619 purchases -----------------------------------------------------------------------


def _nationality(state: APState, side: str, requested: str | None) -> str:
    if side == "german":
        if requested not in (None, "german"):
            raise DomainError("nationality", "The German side buys German RGs.")
        return "german"
    nationality = requested or ("british" if special_half_day(state) == "british" else "french")
    if nationality not in NATIONALITIES["allied"]:
        raise DomainError("nationality", "The Allied side buys French or British RGs.")
    return nationality


def quote(ctx, state: APState, side: str, data: dict) -> dict:
    """Validate one purchase against every limit and return its record (nothing is changed)."""
    nationality = _nationality(state, side, data.get("nationality"))
    name = NATIONALITY_NAMES[nationality]
    table = rg_table(ctx, nationality)
    rg = (data.get("rg") or "").strip().upper()
    try:
        row = table.row(rg)
    except KeyError:
        raise DomainError(
            "rg", f"No {name} RG {rg or '(none)'} in the {name} RG table (1.619)."
        ) from None
    label = f"{rg} {table.value(row, 'group_type')}"
    kind = table.value(row, "kind")
    hd = common.half_day(state)
    special = special_half_day(state)
    _check_declaration(state, side, nationality, kind, label)
    options, base, cost = _options_and_cost(ctx, table, row, nationality, data, label)
    _check_maxima(state, side, table, row, nationality, rg, label)
    if kind == "oba":
        _check_oba_modules(ctx, state, side, label)
    # CG13: one French armored RG ("A...") per half-day unless an Armor half-day.
    if nationality == "french" and rg.startswith("A") and special != "armor":
        _check_french_armored(ctx, state, side, label)
    cpp = common.private(state, side)["cpp"]
    if cost > cpp:
        raise DomainError("rg", f"{label}: costs {cost} CPP, {cpp} CPP available (1.619).")

    grants = dict(table.value(row, "grants") or {})
    return {
        "half_day": hd,
        "rg": rg,
        "nationality": nationality,
        "group_type": table.value(row, "group_type"),
        "kind": kind,
        "base_cost": base,
        "cost": cost,
        "options": options,
        "given": False,
        "grants": grants,
        "strength": None,
        "attached": None,
        "sw": [],
        "leaders": [],
        "armor_leader": None,
        "ammo": None,
        "guns": None,
        "units": [],
    }


def _check_declaration(state: APState, side: str, nationality: str, kind: str, label: str) -> None:
    """CG13: the Allied declaration first ("Before any units are purchased"), for both sides;
    British only on a British half-day, no French then; an Armor half-day's exclusions."""
    special = special_half_day(state)
    if side == "german" and not declared(state):
        raise DomainError(
            "rg", "Purchases start once the Allied player has declared the half-day (CG13)."
        )
    if side != "allied":
        return
    if not declared(state):
        raise DomainError(
            "rg", "Declare a normal, Armor or British half-day before purchasing (CG13)."
        )
    if nationality == "british" and special != "british":
        raise DomainError("rg", f"{label}: British RGs only on a declared British half-day (CG13).")
    if nationality == "french" and special == "british":
        raise DomainError(
            "rg",
            f"{label}: British may not be purchased on a half-day when French units are purchased; "
            "this is a British half-day (CG13).",
        )
    if special == "armor" and kind in ARMOR_DAY_FORBIDDEN:
        raise DomainError(
            "rg", f"{label}: no {ARMOR_DAY_FORBIDDEN[kind]} on an Armor half-day (CG13)."
        )


def _options_and_cost(ctx, table, row, nationality: str, data: dict, label: str):
    """The options asked for and what they cost on top of the RG (1.16911, 1.16912, OBA
    footnotes): (options, base cost, cost)."""
    rule = f"1.619 {NATIONALITY_NAMES[nationality]} RG table"
    kind = table.value(row, "kind")
    options = {
        "on_map": bool(data.get("on_map")),
        "reserve": bool(data.get("reserve")),
        "pre_registered": bool(data.get("pre_registered")),
    }
    base = int(table.value(row, "cost"))
    cost = base
    if options["on_map"] and options["reserve"]:
        raise DomainError(
            "reserve",
            f"{label}: a Reserve RG sets up cloaked; it cannot also buy on-map set up (1.16911, 1.16912).",
        )
    if options["on_map"]:
        if table.value(row, "on_map_free"):
            pass  # "Some RG may be set up on map at no additional cost per the notes" (1.16911)
        elif kind in ("infantry", "armor"):
            cost += int(ctx.value("purchase.on_map_extra"))
        else:
            raise DomainError(
                "on_map", f"{label}: on-map set up is for AFV or Infantry RGs (1.16911)."
            )
    if options["reserve"]:
        if not table.value(row, "reserve_ok"):
            raise DomainError(
                "reserve", f"{label}: may not be purchased as a Reserve (1.16912, {rule} notes)."
            )
        cost += int(ctx.value("purchase.reserve_extra"))
    if options["pre_registered"]:
        if kind != "oba":
            raise DomainError(
                "pre_registered",
                f"{label}: a pre-registered hex is bought with an OBA RG only ({rule} notes).",
            )
        cost += int(ctx.value(f"purchase.pre_registered_extra.{nationality}"))
    return options, base, cost


def _check_maxima(
    state: APState, side: str, table, row, nationality: str, rg: str, label: str
) -> None:
    """Maxima: ½-day, CG, and the month's (given RGs are not counted: R-C1)."""
    rule = f"1.619 {NATIONALITY_NAMES[nationality]} RG table"
    hd = common.half_day(state)
    mine = [p for p in bought(state, side) if p["nationality"] == nationality and p["rg"] == rg]
    now = [p for p in mine if p["half_day"] == hd]
    for count, column, what in (
        (len(now), "half_day_max", "½-day maximum"),
        (len(mine), "cg_max", "CG maximum"),
    ):
        limit = int(table.value(row, column))
        if count + 1 > limit:
            raise DomainError("rg", f"{label}: {what} is {limit} ({rule}).")
    mon = month(hd)
    if mon:
        limit = int(table.value(row, f"{mon}_max"))
        in_month = [p for p in mine if month(p["half_day"]) == mon]
        if len(in_month) + 1 > limit:
            raise DomainError("rg", f"{label}: {mon.capitalize()} maximum is {limit} ({rule}).")


def _check_oba_modules(ctx, state: APState, side: str, label: str) -> None:
    """CG4: at most two OBA modules per half-day (given modules are in use too)."""
    hd = common.half_day(state)
    limit = int(ctx.value("oba.max_modules_per_half_day"))
    used = [p for p in this_half_day(state, side, include_given=True) if _kind(ctx, p) == "oba"]
    # Modules kept from an earlier half-day because they fired no mission are in use too (R-C2).
    used += [
        p
        for p in purchases(state, side)
        if p.get("retained_oba") and not p.get("fired") and p["half_day"] != hd
    ]
    if len(used) + 1 > limit:
        raise DomainError("rg", f"{label}: at most {limit} OBA modules per CG half-day (CG4).")


def _check_french_armored(ctx, state: APState, side: str, label: str) -> None:
    hd = common.half_day(state)
    limit = int(ctx.value("french.max_armored_rg_per_half_day"))
    armored = [
        p
        for p in bought(state, side)
        if p["half_day"] == hd
        and p["nationality"] == "french"
        and (p.get("rg") or "").startswith("A")
    ]
    if len(armored) + 1 > limit:
        raise DomainError(
            "rg",
            f"{label}: the French may purchase at most {limit} armored RG per half-day unless an Armor half-day is declared (CG13).",
        )


def _kind(ctx, purchase: dict) -> str | None:
    if purchase.get("kind"):
        return purchase["kind"]
    if not purchase.get("rg"):
        return None
    return rg_cell(ctx, purchase["nationality"], purchase["rg"], "kind")


def _buy(ctx, state: APState, side: str, data: dict) -> dict:
    record = quote(ctx, state, side, data)
    private = common.private(state, side)
    record["id"] = new_id(state, side, "p")
    private["cpp"] -= record["cost"]
    if record["grants"].get("fpp"):
        private["fpp"] = private.get("fpp", 0) + int(record["grants"]["fpp"])
    if record["grants"].get("san"):
        private["san"] = private.get("san", 0) + int(record["grants"]["san"])
    private["purchases"].append(record)
    return record


def _remove(state: APState, side: str, purchase_id: str | None) -> None:
    private = common.private(state, side)
    for index, record in enumerate(private["purchases"]):  # noqa: B007 - used after the loop
        if record["id"] == purchase_id:
            break
    else:
        raise DomainError("purchase", f"No purchase {purchase_id or '(none)'} to remove.")
    if record.get("given") or record["half_day"] != common.half_day(state):
        raise DomainError(
            "purchase",
            f"{purchase_id} was not bought in this 1.619 step; only those can be removed.",
        )
    fpp = int(record.get("grants", {}).get("fpp", 0))
    if fpp > private.get("fpp", 0):
        raise DomainError("purchase", f"{purchase_id}: its {fpp} FPP are already spent.")
    private["cpp"] += record["cost"]
    private["fpp"] = private.get("fpp", 0) - fpp
    private["san"] = private.get("san", 0) - int(record.get("grants", {}).get("san", 0))
    del private["purchases"][index]


def run_purchase(ctx, state: APState, side: str, data: dict) -> None:
    if step_done(state, "1.619", side):
        raise DomainError(
            "action", f"1.619 is already done for this side on {common.half_day(state)}."
        )
    if data["action"] == "buy":
        _buy(ctx, state, side, data)
    else:
        _remove(state, side, data.get("purchase"))


def finish_purchases(ctx, state: APState, side: str) -> None:
    """ap.check {"step": "1.619"}: the side is done buying (the sequencer marks the step done)."""
    if side == "allied" and not declared(state):
        raise DomainError("step", "Declare a normal, Armor or British half-day first (CG13).")


# --- the page: a picker of the side's RG table rows --------------------------------------------

SPECIAL_LABELS = (
    ("none", "A normal half-day"),
    (
        "armor",
        "An Armor half-day: more than one French armored RG, but no infantry, Gun battery or fortifications",
    ),
    ("british", "A British half-day: British RGs only"),
)


def form_declare(ctx, view: APState, side):
    limit, rule = _british_half_days_max(ctx, view)
    used = common.public(view).get("british_half_days", 0)
    labels = tuple(
        (k, f"{words} ({used} of {limit} used, {rule})" if k == "british" else words)
        for k, words in SPECIAL_LABELS
    )
    return (
        Field(
            "special",
            "choice",
            choices=SPECIAL,
            widget="radios",
            label="This half-day is",
            labels=labels,
            default="none",
        ),
    )


def _left(ctx, state: APState, side, nationality, row, rg) -> str:
    table = rg_table(ctx, nationality)
    mine = [p for p in bought(state, side) if p["nationality"] == nationality and p["rg"] == rg]
    hd = common.half_day(state)
    parts = [
        f"this half-day {int(table.value(row, 'half_day_max')) - len([p for p in mine if p['half_day'] == hd])}"
        f" of {table.value(row, 'half_day_max')} left",
        f"CG {int(table.value(row, 'cg_max')) - len(mine)} of {table.value(row, 'cg_max')}",
    ]
    mon = month(hd)
    if mon:
        limit = int(table.value(row, f"{mon}_max"))
        parts.append(
            f"{mon.capitalize()} {limit - len([p for p in mine if month(p['half_day']) == mon])} of {limit}"
        )
    return ", ".join(parts)


def picker(ctx, view: APState, side, nationality) -> tuple[list, list, list]:
    """(choices, labels, disabled) of the RG radio list: each row of the side's table with its cost,
    what is left of its limits and the CPP left after it; rows that cannot be bought greyed with
    the reason the service would give."""
    table = rg_table(ctx, nationality)
    cpp = common.private(view, side)["cpp"]
    choices, labels, disabled = [], [], []
    for row in table.rows:
        rg = row.label
        name = f"{rg} {table.value(row, 'group_type')}"
        try:
            record = quote(ctx, view, side, {"rg": rg, "nationality": nationality})
        except DomainError as error:
            choices.append(rg)
            labels.append((rg, name))
            disabled.append((rg, error.message.removeprefix(f"{name}: ")))
            continue
        choices.append(rg)
        labels.append(
            (
                rg,
                f"{name} — {record['cost']} CPP, {cpp - record['cost']} left after · "
                f"{_left(ctx, view, side, nationality, row, rg)}",
            )
        )
    return choices, labels, disabled


def form_purchase(ctx, view: APState, side):
    if side == "allied" and not declared(view):
        return None
    nationality = _nationality(view, side, None)
    choices, labels, disabled = picker(ctx, view, side, nationality)
    cpp = common.private(view, side)["cpp"]
    on_map = int(ctx.value("purchase.on_map_extra"))
    reserve = int(ctx.value("purchase.reserve_extra"))
    pre = (
        int(ctx.value(f"purchase.pre_registered_extra.{nationality}"))
        if f"purchase.pre_registered_extra.{nationality}" in ctx.system.constants()
        else None
    )
    fields = [
        Field("action", "str", required=False, default="buy", widget="hidden"),
        Field("nationality", "str", required=False, default=nationality, widget="hidden"),
        Field(
            "rg",
            "choice",
            choices=tuple(choices),
            labels=tuple(labels),
            disabled=tuple(disabled),
            widget="radios",
            label=f"Reinforcement Group ({NATIONALITY_NAMES[nationality]} table, you have {cpp} CPP)",
        ),
        Field(
            "on_map",
            "bool",
            required=False,
            default=False,
            label=f"On-map set up ({on_map:+d} CPP; AFV or infantry RG, free where its notes say so)",
        ),
        Field(
            "reserve",
            "bool",
            required=False,
            default=False,
            label=f"As a Reserve ({reserve:+d} CPP; the infantry RGs whose notes allow it)",
        ),
    ]
    if pre is not None:
        fields.append(
            Field(
                "pre_registered",
                "bool",
                required=False,
                default=False,
                label=f"With a pre-registered hex ({pre:+d} CPP; OBA RGs)",
            )
        )
    return tuple(fields)


def form_remove(ctx, view: APState, side):
    """The RGs bought in this step, the last one (a mis-tap is the latest) chosen."""
    mine = this_half_day(view, side)
    return (
        Field("action", "str", required=False, default="remove", widget="hidden"),
        Field(
            "purchase",
            "choice",
            label="Purchase to give back",
            choices=tuple(p["id"] for p in mine),
            default=mine[-1]["id"] if mine else None,
            widget="radios",
            labels=tuple(
                (p["id"], f"{p['rg']} {p.get('group_type', '')}: {p['cost']} CPP back")
                for p in mine
            ),
        ),
    )


PURCHASE_FIELDS = (
    Field(
        "action",
        "choice",
        choices=("buy", "remove"),
        help="buy one RG, or remove one bought in this step",
    ),
    Field(
        "rg",
        "str",
        label="RG ID",
        required=False,
        default="",
        max_length=8,
        help="The ID in your side's RG table (1.619), e.g. I1, A4, O1, F1",
    ),
    Field(
        "nationality",
        "choice",
        choices=("german", "french", "british"),
        required=False,
        default=None,
        help="Allied side: French, or British on a British half-day (default follows the declaration)",
    ),
    Field("on_map", "bool", label="On-map set up", required=False, default=False),
    Field("reserve", "bool", label="Reserve", required=False, default=False),
    Field("pre_registered", "bool", label="Pre-registered hex", required=False, default=False),
    Field("purchase", "str", label="Purchase to remove", required=False, default="", max_length=16),
)

STEPS = [
    Step(
        id="1.619.declare",
        label="Allied declaration: Armor or British half-day",
        rule="CG13",
        scope="allied",
        audience="public",
        initial=True,
        fields=(Field("special", "choice", choices=SPECIAL, label="Special half-day"),),
        run=run_declare,
        form=form_declare,
        short="Allied declaration",
        help="Before any units are purchased the Allied player may declare a British or Armored half-day; "
        "it is announced to the German player (CG13).",
        extra={"kind": "ap.declare"},
    ),
    Step(
        id="1.619",
        label="Purchase Reinforcement Groups",
        rule="1.619",
        scope="side",
        initial=True,
        fields=PURCHASE_FIELDS,
        run=run_purchase,
        repeatable=True,
        form=form_purchase,
        short="Purchases",
        help="Buy RGs one at a time with CPP; remove one again before declaring the step done.",
        extra={"kind": "ap.purchase", "finish": finish_purchases},
    ),
]
