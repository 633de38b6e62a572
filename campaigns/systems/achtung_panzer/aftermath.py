"""What happened to a side's units in the half-day just played: the end-of-scenario screen.

One side-private event per side and half-day, ``ap.aftermath``, recorded once the half-day
is being played (after 1.625) or, if not yet recorded when the result is confirmed, as the
side's first Refit Phase step (so the map steps 1.601-1.606 wait for it):

    {"units": [{"unit", "fate": kept|eliminated|captured|exited, "status", "isolated",
                "pocket", "encircled", "disrupted", "elite"}],
     "added": [{"kind", "type", "nationality", "captured", "count", "note"}],
     "platoons_on_map": [purchase ids], "oba_fired": [purchase ids], "cvp": n | null, "note"}

Listed units are recorded as given; every retained unit not listed is recorded as ok (no
longer isolated, encircled or disrupted): "all others ok" in one tap. The RePh steps read
what this records: 1.603 (disrupted French infantry), escape (isolated, pocket, encircled),
1.610 (wounded leaders), 1.6112/1.6113 (heroes, heroic leaders), 1.6131 (abandoned,
immobilized, shocked, bogged AFV), 1.6132 (malfunctioned weapons), 1.6141 (recall),
1.6142 (platoons that had an AFV on the map), CG4 (OBA modules that fired), CG8 (exited).

The CVP sustained are entered, or worked out from the club's CVP list (constants
``cvp.<kind>``, ASL A26.2, entered by the organizer: the A!P! text prints none); the side's
figure is published for the scenario result (the CG Roster's casualties are public, 1.12).
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, EventKind, Field

from . import retained as retained_units, words
from .common import half_day, journal_version, private, public
from .shapes import APState, RosterLine

FATES = ("kept", "eliminated", "captured", "exited")
FATE_WORDS = {
    "kept": "kept",
    "eliminated": "eliminated",
    "captured": "captured by the enemy",
    "exited": "exited the map on a friendly edge (CG8)",
}
STATUS_WORDS = {
    "ok": "ok",
    "wounded": "wounded",
    "heroic": "heroic",
    "broken": "broken",
    "malfunctioned": "malfunctioned weapon",
    "disabled": "disabled weapon",
    "immobilized": "immobilized",
    "abandoned": "abandoned",
    "shocked": "shocked/UK",
    "recalled": "under recall",
    "bogged": "bogged",
}
AFV = ("afv", "vehicle")
INFANTRY = ("squad", "half_squad", "crew")
CVP_KINDS = (
    "squad",
    "half_squad",
    "crew",
    "leader",
    "armor_leader",
    "hero",
    "afv",
    "vehicle",
    "gun",
    "sw",
)

# The declared fields carry words too: a correction of an earlier record is drawn from them.
UNIT_ROW = Field(
    "entry",
    "object",
    fields=(
        Field("unit", max_length=20, label="Unit"),
        Field(
            "fate",
            "choice",
            choices=FATES,
            required=False,
            default="kept",
            label="Fate",
            labels=tuple(FATE_WORDS.items()),
        ),
        Field(
            "status",
            "choice",
            choices=retained_units.STATUSES,
            required=False,
            default="ok",
            label="State",
            labels=tuple((s, words.STATUS_WORDS.get(s, s)) for s in retained_units.STATUSES),
        ),
        Field("isolated", "bool", required=False, default=False, label="Isolated (1.606)"),
        Field("pocket", required=False, default="", max_length=20, label="Pocket"),
        Field("encircled", "bool", required=False, default=False, label="Encircled (1.604)"),
        Field(
            "disrupted",
            "bool",
            required=False,
            default=False,
            label="Disrupted (French infantry, 1.603)",
        ),
        Field("elite", "bool", required=False, default=False, label="Elite"),
    ),
)
ADDED_ROW = Field(
    "entry",
    "object",
    fields=(
        Field(
            "kind",
            "choice",
            choices=retained_units.KINDS,
            label="Kind",
            labels=tuple((k, words.KIND_WORDS.get(k, k)) for k in retained_units.KINDS),
        ),
        Field("type", max_length=60, label="Type"),
        Field(
            "nationality",
            "choice",
            choices=retained_units.NATIONALITIES,
            required=False,
            label="Nationality",
            labels=tuple(
                (n, words.NATIONALITY_WORDS.get(n, n)) for n in retained_units.NATIONALITIES
            ),
        ),
        Field("captured", "bool", required=False, default=False, label="Captured from the enemy"),
        Field("count", "int", required=False, default=1, min=1, max=20, label="How many"),
        Field("note", required=False, default="", max_length=200, label="Note"),
    ),
)

EVENT = EventKind(
    "ap.aftermath",
    "End of scenario: what happened to the side's units",
    (
        Field(
            "units",
            "list",
            required=False,
            default=[],
            max=200,
            item=UNIT_ROW,
            label="Units marked",
        ),
        Field(
            "added",
            "list",
            required=False,
            default=[],
            max=40,
            item=ADDED_ROW,
            label="Units gained in play",
        ),
        Field(
            "platoons_on_map",
            "list",
            required=False,
            default=[],
            max=60,
            item=Field("platoon", max_length=20),
            label="AFV platoons that had an AFV on the map (RG ids, 1.6142)",
        ),
        Field(
            "oba_fired",
            "list",
            required=False,
            default=[],
            max=20,
            item=Field("purchase", max_length=20),
            label="OBA modules that fired (RG ids, CG4)",
        ),
        Field(
            "cvp",
            "int",
            required=False,
            default=None,
            min=0,
            max=10000,
            label="CVP sustained (A26.2)",
            help="The total, when given: the club's CVP list is then not used.",
        ),
        Field(
            "cvp_unlisted",
            "int",
            required=False,
            default=None,
            min=0,
            max=10000,
            label="CVP of the lost units the club's CVP list does not cover",
            help="The others are counted from the list (A26.2).",
        ),
        Field("note", required=False, default="", max_length=500, label="Note (your side only)"),
    ),
    audience="side",
    rule="1.12",
    help="Mark what happened to your units; every unit you leave unmarked is recorded as ok.",
)


def recorded(state: APState, side: str, label: str | None = None) -> dict | None:
    return private(state, side).get("aftermath", {}).get(label or half_day(state))


def open_for(state: APState) -> str | None:
    """The half-day whose end of scenario can be recorded now, or why not."""
    if public(state)["phase"] == "play":
        return None
    return "The end of a scenario is recorded once it is being played."


def cvp_values(ctx) -> dict:
    """The club's CVP per unit kind (ASL A26.2), where entered."""
    values = {}
    for kind in CVP_KINDS:
        value = ctx.value(f"cvp.{kind}")
        if value is not None:
            values[kind] = int(value)
    return values


def uncovered(ctx, units) -> list[str]:
    """The kinds among `units` the club's CVP list has no value for (ASL A26.2 is not in the
    campaign rules, so a club's list may well be incomplete), in the list's order."""
    values = cvp_values(ctx)
    kinds = {u.get("kind") or "other" for u in units}
    return [
        k for k in (*CVP_KINDS, *sorted(kinds - set(CVP_KINDS))) if k in kinds and k not in values
    ]


def cvp_sustained(
    ctx, lost, total, unlisted, required: bool, path: str = "cvp_unlisted"
) -> int | None:
    """The CVP of the units `lost`: `total` when given (the API; journals written before the
    split, R-A20); else the club's list for the units it covers plus `unlisted`, the CVP the player
    entered for the others. Without `unlisted` for units the list does not cover: refused when
    `required`, else None (not known yet)."""
    if total is not None:
        return total
    values = cvp_values(ctx)
    missing = [u for u in lost if u.get("kind") not in values]
    if unlisted is not None and not missing:
        raise DomainError(
            path, "Every unit marked lost is on the club's CVP list: leave this empty."
        )
    if missing and unlisted is None:
        if not required:
            return None
        named = words.names_for(ctx.state, ctx.record.side)
        raise DomainError(
            path,
            f"Enter the CVP of {', '.join(words.unit_label(u, named) for u in missing)}: the club's "
            f"CVP list (A26.2) has no value for {words.kinds_words(missing, uncovered(ctx, missing))}.",
        )
    return sum(values[u["kind"]] for u in lost if u.get("kind") in values) + (unlisted or 0)


def cvp_of(ctx, units) -> int | None:
    """CVP of these units from the club's list, or None if a kind has no value entered."""
    values = cvp_values(ctx)
    total = 0
    for unit in units:
        if unit.get("kind") not in values:
            return None
        total += values[unit["kind"]]
    return total


def apply(state: APState, side: str, data: dict, ctx, step: str = "play") -> dict:
    label = half_day(state)
    if recorded(state, side, label) is not None:
        raise DomainError(
            "units", f"The end of {label} is already recorded; propose a correction to change it."
        )
    mine = private(state, side)
    listed = {}
    for i, row in enumerate(data["units"]):
        unit = retained_units.find(state, side, row["unit"], f"units[{i}].unit")
        if unit["id"] in listed:
            raise DomainError(f"units[{i}].unit", f"{unit['id']} is listed twice.")
        if row["disrupted"] and not (
            unit["kind"] in INFANTRY and unit.get("nationality") == "french"
        ):
            raise DomainError(
                f"units[{i}].disrupted", "Only French infantry is disrupted at the end (1.603)."
            )
        if row["pocket"] and not row["isolated"]:
            raise DomainError(
                f"units[{i}].pocket", "A pocket is given for an isolated unit (1.606)."
            )
        listed[unit["id"]] = (unit, row)
    platoons = _platoons(state, side)
    for i, platoon in enumerate(data["platoons_on_map"]):
        if platoon not in platoons:
            raise DomainError(f"platoons_on_map[{i}]", f"Your side has no AFV platoon {platoon}.")
    modules = {p["id"] for p in oba_in_use(state, side)}
    for i, purchase in enumerate(data["oba_fired"]):
        if purchase not in modules:
            raise DomainError(
                f"oba_fired[{i}]", f"{purchase} is no OBA module of yours in use this half-day."
            )
    lost = []
    for unit in list(mine["retained"]):
        unit, row = listed.get(unit["id"], (unit, None))
        _mark(unit, row, label)
        if row and row["fate"] in ("eliminated", "captured"):
            lost.append(unit)
            retained_units.eliminate(
                state, side, unit, step, f"{FATE_WORDS[row['fate']]} in {label}"
            )
        elif row and row["fate"] == "exited" and (row["status"] == "recalled" or row["disrupted"]):
            lost.append(unit)
            retained_units.eliminate(
                state, side, unit, step, f"exited in {label} disrupted or under recall (CG8)"
            )
    for row in data["added"]:
        for _ in range(row["count"]):
            note = row["note"] or (
                "captured from the enemy" if row["captured"] else "created in play"
            )
            retained_units.new_unit(state, side, dict(row, note=f"{note} ({label})"))
    on_map = set(mine.setdefault("platoons_on_map", []))
    mine["platoons_on_map"] = sorted(on_map | set(data["platoons_on_map"]))
    cvp = cvp_sustained(ctx, lost, data["cvp"], data.get("cvp_unlisted"), required=False)
    entry = {
        "half_day": label,
        "lost": [u["id"] for u in lost],
        "cvp": cvp,
        "note": data["note"],
        "oba_fired": list(data["oba_fired"]),
    }
    mine.setdefault("aftermath", {})[label] = entry
    if cvp is not None:
        public(state).setdefault("cvp_reported", {}).setdefault(label, {})[side] = cvp
    return entry


def _mark(unit: dict, row: dict | None, label: str) -> None:
    """Record one unit's state at the end (an unlisted unit is ok: not isolated, not encircled)."""
    row = row or {
        "fate": "kept",
        "status": "ok",
        "isolated": False,
        "pocket": "",
        "encircled": False,
        "disrupted": False,
        "elite": unit.get("elite", False),
    }
    unit["status"] = row["status"]
    unit["isolated"] = row["isolated"]
    unit["pocket"] = row["pocket"] or None
    unit["encircled"] = row["encircled"]
    unit["disrupted"] = row["disrupted"]
    unit.pop(
        "fanatic", None
    )  # fanatic "only for the duration of the next scenario" (1.6112, 1.602e): it has ended
    if row["elite"]:
        unit["elite"] = True
    if row["status"] == "immobilized":
        unit["immobilized"] = True
    if row["fate"] == "exited":
        unit["exited"] = label


def _platoons(state: APState, side: str) -> set:
    return {
        u["platoon"]
        for u in private(state, side)["retained"]
        if u.get("kind") in AFV and u.get("platoon")
    }


def oba_in_use(state: APState, side: str) -> list[dict]:
    """OBA modules in play this half-day: bought or given for it, or retained from earlier because
    they never fired (CG4: "An OBA RG are retained if no Fire Missions were used")."""
    from .steps.rg_records import kind_of

    label = half_day(state)
    return [
        p
        for p in private(state, side)["purchases"]
        if kind_of(p) == "oba"
        and not p.get("fired")
        and (p["half_day"] == label or p.get("retained_oba"))
    ]


OBA_RETAINED_SINCE = 2  # A!P! v2 (a787fca): CG4's unfired modules retained (R-C2); v1 kept none


def oba_retention(state: APState, side: str, line: RosterLine) -> None:
    """CG4 at 1.6067: the modules in use that fired no Fire Mission are retained for the next
    half-day. With no mission logged for the side, none fired; with one module in use, the logged
    missions are its own; otherwise the side's end-of-scenario record says which fired."""
    if journal_version(state) < OBA_RETAINED_SINCE:
        return
    modules = oba_in_use(state, side)
    missions = (line.get("oba_missions") or {}).get(side, 0)
    said = set((recorded(state, side, line["half_day"]) or {}).get("oba_fired", []))
    for purchase in modules:
        if missions and (len(modules) == 1 or purchase["id"] in said or not said):
            purchase["fired"] = line[
                "half_day"
            ]  # no record of which: none can be said to be unused
        else:
            purchase["retained_oba"] = True


def cvp_fields(ctx, units: list, limit: int) -> tuple[str, list]:
    """What the club's CVP list (A26.2, not in the campaign rules) covers of the side's units, in
    words for the top of the form, and the one number asked: the CVP of the lost units of the kinds
    it does not cover (nothing when it covers every kind the side has)."""
    values = cvp_values(ctx)
    missing = uncovered(ctx, units)
    kinds = {u.get("kind") for u in units}
    counted = ", ".join(
        f"{words.KIND_WORDS[k]} {values[k]}" for k in CVP_KINDS if k in values and k in kinds
    )
    if not missing:
        return (
            f"CVP are counted from the club's CVP list (A26.2): {counted or 'nothing lost counts'}.",
            [],
        )
    names = words.kinds_words(units, missing)
    text = (
        f"The club's CVP list (A26.2, not in the campaign rules) has no value for {names}: enter the CVP of "
        f"those you lost"
        + (f"; the others are counted from the list ({counted})." if counted else ".")
    )
    plural = words.join_words(words.KINDS_PLURAL.get(k, words.plain(k)) for k in missing)
    return text, [
        Field(
            "cvp_unlisted",
            "int",
            required=False,
            default=None,
            min=0,
            max=limit,
            label=f"CVP of the {plural} you lost",
            help="Leave empty if you lost none of them.",
        )
    ]


def eliminate_by_rule(
    state: APState, side: str, units: list[dict], step: str, reason: str, ctx
) -> None:
    """Units the rules eliminate in the RePh before 1.6067 (1.603): their CVP count for the half-day
    when the club's CVP list has them (else the side enters them with ap.cvp)."""
    from . import halfday

    if not units:
        return
    for unit in units:
        retained_units.eliminate(state, side, unit, step, reason)
    cvp = cvp_of(ctx, units)
    if cvp:
        halfday.add_cvp(state, side, cvp)
