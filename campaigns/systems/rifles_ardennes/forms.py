"""Page forms made concrete from the campaign (GameSystem.form_fields): soldiers by personal
name and counter letter, the catalog's units and equipment with their AP, the skills a soldier
may take, one pre-filled row per soldier. The declared fields (kinds.py) still validate."""

from __future__ import annotations

from typing import Any

from campaigns.game_interface import Field

from . import briefing, missions, squad, state as st
from .data import BOOK_SQUAD, DESIGNATIONS, LEADER, LETTERS
from .kinds import KINDS

_DECLARED = {k.name: k for k in KINDS}


def _fields(kind: str) -> dict:
    return {f.name: f for f in _DECLARED[kind].fields}


def _item(field: Field) -> Field:
    """The declared item of a list field."""
    assert field.item is not None, f"{field.name} is a list field"
    return field.item


def _sub(field: Field) -> dict:
    return {f.name: f for f in _item(field).fields}


def _choice(field: Field, pairs, **more) -> Field:
    pairs = tuple(pairs)
    return field.but(type="choice", choices=tuple(k for k, _ in pairs), labels=pairs, **more)


def soldier_choices(state, soldiers) -> tuple:
    return tuple((s["id"], st.long_label(s)) for s in soldiers)


def _unit_pairs(state) -> tuple:
    units = [i for i in st.public(state)["catalog"] if i["kind"] == "unit" and i["ap"] is not None]
    return tuple(
        (i["id"], f"{i['name']}, {i['ap']} AP" + (", may lead" if i["may_lead"] else ""))
        for i in units
    )


def _equipment_names(state) -> tuple:
    names = sorted(
        {
            i["provides"]
            for i in st.public(state)["catalog"]
            if i["kind"] == "equipment" and i["provides"]
        }
    )
    return tuple((n, n) for n in names)


def _equipment_field(state, field: Field, quantities: dict, attachments: bool) -> Field | None:
    """One row per equipment of the catalog with its AP; None when there is none (a US or Russian
    catalog before its Army Sheet is entered): the event's equipment is then empty."""
    items = [
        i for i in st.public(state)["catalog"] if i["kind"] == "equipment" and i["ap"] is not None
    ]
    if not items:
        return None
    sub = _sub(field)
    pairs = tuple(
        (
            i["id"],
            f"{i['name']}, {i['ap']} AP"
            + (f" ({i['count']} × {i['provides']})" if i["provides"] else ""),
        )
        for i in items
    )
    fields = [_choice(sub["item"], pairs), sub["quantity"]] + (
        [sub["attached"]] if attachments else []
    )
    rows = tuple(
        {
            "item": i["id"],
            "quantity": quantities.get(i["id"], 0),
            **({"attached": False} if attachments else {}),
        }
        for i in items
    )
    return field.but(
        item=_item(field).but(fields=tuple(fields)), rows=rows, key="item", max=len(items)
    )


NO_EQUIPMENT = (
    "No equipment in this campaign's catalog has its AP yet: add your Army Sheet's equipment to the "
    "catalog first if the squad takes any."
)


def _new_soldiers_field(
    state, field: Field, rows, letters, designations, attachments: bool
) -> Field:
    sub = _sub(field)
    units = _unit_pairs(state)
    empty = (
        {}
        if units
        else {
            "help": "Empty until your Army Sheet's units are in this campaign's catalog with "
            "their AP: enter them first (“First enter your Army Sheet's units”)."
        }
    )
    fields = [
        sub["name"],
        _choice(sub["letter"], ((letter, letter) for letter in letters)),
        _choice(sub["unit"], units, required=False, default="", **empty),
        _choice(sub["designation"], ((d, d) for d in designations)),
        _choice(sub["equipment_1"], _equipment_names(state), required=False, default=""),
        _choice(sub["equipment_2"], _equipment_names(state), required=False, default=""),
    ] + ([sub["attached"]] if attachments else [])
    return field.but(item=_item(field).but(fields=tuple(fields)), rows=tuple(rows))


def _blank(letter: str, attachments: bool, attached: bool = False) -> dict:
    row = {
        "name": "",
        "letter": letter,
        "unit": "",
        "designation": "Rifleman",
        "equipment_1": "",
        "equipment_2": "",
    }
    return {**row, "attached": attached} if attachments else row


def squad_fields(state) -> tuple:
    declared = _fields("rifles.squad")
    attachments = st.mission(state, 0)["extra_ap"] > 0
    ids = {i["id"] for i in st.public(state)["catalog"] if i["ap"] is not None}
    if st.public(state)["army"] == "german" and {"smg", "rifle", "lmg", "grenades"} <= ids:
        rows = [
            {**_blank(letter, attachments), "unit": unit, "designation": role, "equipment_1": gear}
            for letter, unit, role, gear in BOOK_SQUAD
        ]
        quantities = {"grenades": 1}
    else:
        rows = [
            _blank(letter, attachments) for letter in LETTERS[: min(st.public(state)["budget"], 12)]
        ]
        quantities = {}
    equipment = _equipment_field(state, declared["equipment"], quantities, attachments)
    soldiers = _new_soldiers_field(
        state, declared["soldiers"], rows, LETTERS, DESIGNATIONS, attachments
    ).but(
        help="One row per soldier; rows without a unit are left out."
        + ("" if equipment else " " + NO_EQUIPMENT)
    )
    return (soldiers, equipment) if equipment else (soldiers,)


def recruit_fields(state) -> tuple:
    declared = _fields("rifles.recruit")
    target = squad.attachment_mission(state)
    attachments = target is not None and st.mission(state, target)["extra_ap"] > 0
    used = {s["letter"] for s in st.living(state)}
    free = [letter for letter in LETTERS if letter not in used]
    grant = (st.public(state).get("briefing") or {}).get("reinforcement") or {}
    room = max(1, min(6, grant.get("ap", 0) - grant.get("spent", 0) + (3 if attachments else 0)))
    # Between a briefing and the mission only attachments can join: their box comes ticked.
    only_attachments = st.public(state)["phase"] == "mission"
    rows = [_blank(letter, attachments, only_attachments) for letter in free[:room]]
    equipment = _equipment_field(state, declared["equipment"], {}, attachments)
    soldiers = _new_soldiers_field(
        state, declared["soldiers"], rows, free, DESIGNATIONS[1:], attachments
    )
    return (soldiers, equipment) if equipment else (soldiers.but(help=NO_EQUIPMENT),)


def roster_fields(state) -> tuple:
    field = _fields("rifles.roster")["soldiers"]
    sub = _sub(field)
    alive = st.living(state)
    fields = (
        _choice(sub["soldier"], soldier_choices(state, alive)),
        sub["name"],
        _choice(sub["letter"], ((letter, letter) for letter in LETTERS)),
        _choice(sub["designation"], ((d, d) for d in DESIGNATIONS)),
        _choice(sub["equipment_1"], _equipment_names(state), required=False, default=""),
        _choice(sub["equipment_2"], _equipment_names(state), required=False, default=""),
    )
    rows = tuple(
        {
            "soldier": s["id"],
            "name": s["name"],
            "letter": s["letter"],
            "designation": s["designation"],
            "equipment_1": (s["equipment"] + ["", ""])[0],
            "equipment_2": (s["equipment"] + ["", ""])[1],
        }
        for s in alive
    )
    return (field.but(item=field.item.but(fields=fields), rows=rows, key="soldier"),)


def spend_fields(state, tables) -> tuple:
    """`tables`: the game's book tables (GameSystem.tables), read with the campaign's house rules."""
    field = _fields("rifles.spend_xp")["soldiers"]
    sub = _sub(field)
    skills = tables.bound("8.4.1", {k: r["value"] for k, r in state.get("house_rules", {}).items()})
    # A Leader-only skill (8.4.1) names who may take it, or is greyed with the reason (6).
    leader, nobody = briefing.leader_skill_taker(state)

    def words(row) -> str:
        name = skills.value(row, "name")
        if not skills.value(row, "leader_only"):
            return name
        return f"{name} (Leader only: {st.label(leader)})" if leader else f"{name} (Leader only)"

    pairs = tuple((row.label, words(row)) for row in skills.rows)
    greyed = tuple(
        (row.label, nobody) for row in skills.rows if nobody and skills.value(row, "leader_only")
    )
    candidates = [
        s
        for s in st.living(state)
        if s.get("attached") is None and (not s["veteran"] or not s["skills"])
    ]
    fields = (
        _choice(sub["soldier"], soldier_choices(state, candidates)),
        sub["veteran"],
        _choice(sub["skill"], pairs, required=False, default="", disabled=greyed),
    )
    rows = tuple({"soldier": s["id"], "veteran": False, "skill": ""} for s in candidates)
    return (
        field.but(
            item=field.item.but(fields=fields),
            rows=rows,
            key="soldier",
            help=f"The squad has {st.squad(state)['xp']} XP: 2 XP a Veteran, 2 XP a skill, one skill per "
            "soldier (8.4); the Skills Table (8.4.1) is under the squad below.",
        ),
    )


def leader_fields(state) -> tuple:
    field = _fields("rifles.leader")["soldier"]
    ready = [
        s for s in st.available(state) if s.get("attached") is None and s["designation"] != LEADER
    ]
    if any(
        st.may_lead(state, s) for s in ready
    ):  # 6: anyone else only when nobody available may lead
        ready = [s for s in ready if st.may_lead(state, s)]
    ready.sort(key=lambda s: not st.may_lead(state, s))
    pairs = tuple(
        (s["id"], st.long_label(s) + (" — may lead" if st.may_lead(state, s) else ""))
        for s in ready
    )
    return (_choice(field, pairs, widget="radios"),)


def mission_fields(state, initial) -> tuple:
    declared = _fields("rifles.mission")
    open_missions = [(i, m) for i, m in enumerate(st.public(state)["missions"]) if m["log"] is None]
    index = initial.get("mission", state["current"] if state["current"] is not None else 0)
    entry: dict[str, Any] = (
        dict(st.mission(state, index)) if 0 <= index < len(st.public(state)["missions"]) else {}
    )
    pairs = tuple(
        (i, f"{m['label']}" + (f": {m['name']}" if m["name"] else "")) for i, m in open_missions
    )
    return (
        _choice(declared["mission"], pairs, default=index),
        declared["name"].but(default=entry.get("name") or None),
        declared["game_turns"].but(default=entry.get("game_turns")),
        declared["extra_ap"].but(default=entry.get("extra_ap", 0)),
        declared["attachments"].but(default=entry.get("attachments", "")),
        declared["notes"].but(default=entry.get("notes", "")),
    )


def catalog_fields(state) -> tuple:
    declared = _fields("rifles.catalog")
    pairs = tuple((i["id"], f"{i['name']} ({i['kind']})") for i in st.public(state)["catalog"])
    return (
        _choice(
            declared["item"],
            pairs,
            required=False,
            default="",
            help="Leave empty to add a new entry.",
        ),
        *(f for name, f in declared.items() if name != "item"),
    )


def result_fields(state) -> tuple:
    """The mission log: the scenario (fixed by the page) and the result as plain inputs —
    one tap per soldier who stayed behind or was eliminated, everyone else took part."""
    from campaigns.game_interface import core_kind

    declared = {f.name: f for f in missions.RESULT_FIELDS}
    ready = soldier_choices(state, st.available(state))
    entry = st.mission(state, state["current"])
    data = (
        declared["outcome"].but(widget="radios"),
        declared["turns_used"].but(max=entry["game_turns"] or 12),
        declared["stayed_behind"].but(item=_choice(_item(declared["stayed_behind"]), ready)),
        declared["eliminated"].but(item=_choice(_item(declared["eliminated"]), ready)),
        _choice(
            declared["new_leader"],
            ready,
            required=False,
            default="",
            help="Only when the Leader was eliminated: the soldier who took command.",
        ),
        declared["notes"],
    )
    scenario, _ = core_kind("result.submitted").fields
    return (
        scenario,
        Field("data", "object", label=f"{entry['label']}: the mission log", fields=data),
    )


def form_fields(view, side, kind, initial, tables) -> tuple | None:
    game = view.get("game")
    if game is None:
        return None
    phase = game["public"]["phase"]
    if kind == "rifles.squad":
        return squad_fields(view)
    if kind == "rifles.recruit":
        return recruit_fields(view)
    if kind == "rifles.roster":
        return roster_fields(view)
    if kind == "rifles.spend_xp" and phase == "briefing":
        return spend_fields(view, tables)
    if kind == "rifles.leader":
        return leader_fields(view)
    if kind == "rifles.mission":
        return mission_fields(view, initial or {})
    if kind == "rifles.catalog":
        return catalog_fields(view)
    if kind == "result.submitted" and phase == "mission":
        return result_fields(view)
    return None
