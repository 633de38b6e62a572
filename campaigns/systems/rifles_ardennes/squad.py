"""The squad roster: the catalog, the missions' plans, creating the squad (2.2, 8.1),
recruiting (8.2), editing names, letters, designations and equipment, naming a Leader (6)."""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

from campaigns.game_interface import DomainError

from . import briefing, state as st
from .data import DESIGNATIONS, LEADER, LETTERS, army_name
from .leaders import make_leader
from .shapes import CatalogItem, EquipmentLine, Soldier
from .upgrades import LEADER_AFTER_REINFORCEMENTS
from .words import join, plural

# --- the catalog and the missions -------------------------------------------------------------


def apply_catalog(state, data, ctx) -> None:
    pub = st.public(state)
    entry = {
        k: data[k]
        for k in (
            "name",
            "kind",
            "ap",
            "cf",
            "cf_armored",
            "may_lead",
            "attributes",
            "note",
            "provides",
            "count",
        )
    }
    if entry["kind"] == "equipment":
        if not entry["provides"]:
            raise DomainError("provides", "Name what one unit of this equipment is (e.g. Grenade).")
        entry["may_lead"] = False
    else:
        entry["provides"], entry["count"] = "", 1
    clash = [
        i
        for i in pub["catalog"]
        if i["name"].lower() == entry["name"].lower() and i["id"] != data["item"]
    ]
    if clash:
        raise DomainError("name", f"The catalog already has {entry['name']}.")
    if data["item"]:
        item = st.catalog_item(state, data["item"], "item")
        cast(dict[str, Any], item).update(entry)
        st.say(state, ctx.record, f"Catalog: {entry['name']} changed.")
    else:
        pub["catalog"].append(cast(CatalogItem, {"id": f"c{len(pub['catalog']) + 1}", **entry}))
        st.say(state, ctx.record, f"Catalog: {entry['name']} added.")


def apply_mission_plan(state, data, ctx) -> None:
    index = data["mission"]
    missions = st.public(state)["missions"]
    if not 0 <= index < len(missions):
        raise DomainError("mission", f"This campaign has {plural(len(missions), 'mission')}.")
    entry = missions[index]
    if entry["log"] is not None:
        raise DomainError("mission", f"{entry['label']} has been played; correct its log instead.")
    most = int(ctx.value("turns.max"))
    if data["game_turns"] > most:
        raise DomainError("game_turns", f"The Game Turn Track has {most} spaces (2.1).")
    attached = attached_ap(state, index)
    if data["extra_ap"] < attached:
        raise DomainError(
            "extra_ap", f"{attached} AP of attachments are already with the squad for this mission."
        )
    entry.update(
        name=data["name"],
        game_turns=data["game_turns"],
        extra_ap=data["extra_ap"],
        attachments=data["attachments"],
        notes=data["notes"],
    )
    st.say(
        state,
        ctx.record,
        f"{entry['label']}: {entry['name']}, {plural(data['game_turns'], 'game turn')}"
        + (f", {data['extra_ap']} extra AP" if data["extra_ap"] else "")
        + ".",
    )


def attached_ap(state, index: int) -> int:
    """AP of the attachments already with the squad for mission `index` (2.2: its additional AP)."""
    units = sum(
        s["ap"]
        for s in st.soldiers(state)
        if s.get("attached") == index and s["status"] != "returned"
    )
    return units + sum(
        line["ap"] for line in st.squad(state)["equipment"] if line.get("attached") == index
    )


# --- soldiers and equipment ---------------------------------------------------------------------


def _new_soldier(state, row, path, where: str, attached: int | None) -> Soldier:
    item = st.catalog_item(state, row["unit"], f"{path}.unit")
    if item["kind"] != "unit":
        raise DomainError(f"{path}.unit", f"{item['name']} is equipment, not a unit.")
    if item["ap"] is None:
        raise DomainError(
            f"{path}.unit",
            f"The AP of {item['name']} is not in the rulebook text: enter it in the "
            "catalog first (from the Army Sheet).",
        )
    sq = st.squad(state)
    soldier: Soldier = {
        "id": f"s{sq['next']}",
        "name": row["name"],
        "letter": row["letter"],
        "unit": item["id"],
        "unit_name": item["name"],
        "ap": item["ap"],
        "designation": row["designation"],
        "equipment": [e for e in (row.get("equipment_1"), row.get("equipment_2")) if e],
        "status": "active",
        "veteran": False,
        "skills": [],
        "skill_names": [],
        "missions": [],
        "attached": attached,
        "wounded_in": None,
        "died_in": None,
        "previous_designation": None,
        "history": [],
    }
    sq["next"] += 1
    st.history(
        soldier,
        where,
        f"Joined the squad as {soldier['unit_name']}, {soldier['designation']}"
        + (" (attached for this mission)" if attached is not None else "")
        + ".",
    )
    return soldier


def _equipment_lines(state, rows, path, attached_to: int | None) -> list[dict]:
    lines = []
    for i, row in enumerate(rows):
        if not row["quantity"]:
            continue
        item = st.catalog_item(state, row["item"], f"{path}[{i}].item")
        if item["kind"] != "equipment":
            raise DomainError(f"{path}[{i}].item", f"{item['name']} is a unit, not equipment.")
        if item["ap"] is None:
            raise DomainError(
                f"{path}[{i}].item",
                f"The AP of {item['name']} is not in the rulebook text: enter it "
                "in the catalog first (from the Army Sheet).",
            )
        for _ in range(row["quantity"]):
            lines.append(
                {
                    "item": item["id"],
                    "name": item["name"],
                    "ap": item["ap"],
                    "provides": item["provides"],
                    "count": item["count"],
                    "attached": attached_to if row.get("attached") else None,
                }
            )
    return lines


def _add_lines(state, lines) -> None:
    sq = st.squad(state)
    for line in lines:
        sq["equipment"].append(cast(EquipmentLine, {"id": f"e{sq['next']}", **line}))
        sq["next"] += 1


def check_letters(state, path="soldiers") -> None:
    seen = Counter(s["letter"] for s in st.living(state))
    doubled = sorted(letter for letter, n in seen.items() if n > 1)
    if doubled:
        raise DomainError(
            path,
            f"Counter letter {join(doubled)} is used twice: each soldier of the squad has "
            "his own counter (2.2).",
        )


def check_equipment(state, ctx, path="soldiers") -> None:
    """Every soldier carries at most the roster's equipment columns, and no more of a kind than the squad bought."""
    slots = int(ctx.value("equipment.slots"))
    have: Counter = Counter()
    for line in st.squad(state)["equipment"]:
        have[line["provides"]] += line["count"]
    carried: Counter = Counter()
    for soldier in st.living(state):
        if len(soldier["equipment"]) > slots:
            raise DomainError(
                path,
                f"{st.label(soldier)} carries more than {slots} pieces of equipment (Squad Roster).",
            )
        carried.update(soldier["equipment"])
    for name, count in sorted(carried.items()):
        if count > have[name]:
            raise DomainError(
                path,
                f"{count} × {name} handed out, but the squad has {have[name]} (2.2: equipment is "
                "bought with AP and shared among the units).",
            )


def _check_designations(rows, path) -> None:
    for i, row in enumerate(rows):
        if row["designation"] not in DESIGNATIONS:
            raise DomainError(
                f"{path}[{i}].designation", f"Choose one of: {', '.join(DESIGNATIONS)}."
            )
        if row["letter"] not in LETTERS:
            raise DomainError(
                f"{path}[{i}].letter", "A counter letter is one capital letter, A to Z."
            )


def _cost(soldiers, lines, attached: bool) -> tuple[int, int]:
    units = sum(s["ap"] for s in soldiers if (s["attached"] is not None) == attached)
    gear = sum(line["ap"] for line in lines if (line["attached"] is not None) == attached)
    return units, gear


def apply_create(state, data, ctx) -> None:
    pub = st.public(state)
    if pub["phase"] != "setup":
        raise DomainError("soldiers", "The squad has already been created (8.1).")
    rows = [r for r in data["soldiers"] if r["unit"]]
    if not rows:
        raise DomainError("soldiers", "Add at least one soldier.")
    _check_designations(rows, "soldiers")
    where = "Campaign start"
    new = [
        _new_soldier(state, row, f"soldiers[{i}]", where, 0 if row["attached"] else None)
        for i, row in enumerate(rows)
    ]
    lines = _equipment_lines(state, data["equipment"], "equipment", 0)
    units, gear = _cost(new, lines, attached=False)
    budget = pub["budget"]
    if units + gear > budget:
        raise DomainError(
            "soldiers",
            f"The squad costs {units + gear} AP (units {units}, equipment {gear}); the "
            f"{army_name(pub['army'])} may spend at most {budget} AP (2.2).",
        )
    _check_attachments(state, new, lines, 0, "soldiers")
    leaders = [s for s in new if s["designation"] == LEADER and s["attached"] is None]
    if len(leaders) != 1:
        raise DomainError(
            "soldiers",
            f"Designate exactly one Leader (6); there {'is' if len(leaders) == 1 else 'are'} "
            f"{len(leaders)}.",
        )
    if not st.may_lead(state, leaders[0]):
        leading = [i["name"] for i in pub["catalog"] if i["kind"] == "unit" and i["may_lead"]]
        hint = (
            f"units that may lead: {join(leading)}"
            if leading
            else ("no unit of the catalog may lead yet: mark the ones the Army Sheet allows")
        )
        raise DomainError(
            "soldiers", f"A {leaders[0]['unit_name']} may not be designated Leader (6; {hint})."
        )
    st.squad(state)["soldiers"].extend(new)
    _add_lines(state, lines)
    check_letters(state)
    check_equipment(state, ctx)
    pub["phase"] = "mission"
    st.say(
        state,
        ctx.record,
        f"The squad was formed: {plural(len(new), 'soldier')} and "
        f"{plural(len(lines), 'equipment line')}, {units + gear} AP of {budget}.",
    )


def _check_attachments(state, new, lines, index, path) -> None:
    units, gear = _cost(new, lines, attached=True)
    if not units + gear:
        return
    if index is None or index >= len(st.public(state)["missions"]):
        raise DomainError(path, "No mission is coming for which attachments could be added.")
    entry = st.mission(state, index)
    room = entry["extra_ap"] - attached_ap(state, index)
    if units + gear > room:
        raise DomainError(
            path,
            f"Attachments for {entry['label']} cost {units + gear} AP; the mission gives "
            f"{room} more AP (2.2: some missions provide additional AP).",
        )


def attachment_mission(state) -> int | None:
    """The mission attachments bought now are for: the one being prepared."""
    pub = st.public(state)
    index = state["current"]
    if pub["phase"] == "briefing":
        index += 1
    return index if index is not None and index < len(pub["missions"]) else None


def apply_recruit(state, data, ctx) -> None:
    """Spend the AP HQ granted (8.2) on new soldiers or equipment; or a mission's extra AP on attachments."""
    pub = st.public(state)
    if pub["phase"] not in ("mission", "briefing"):
        raise DomainError("soldiers", "New soldiers join between missions.")
    rows = [r for r in data["soldiers"] if r["unit"]]
    _check_designations(rows, "soldiers")
    target = attachment_mission(state)
    where = st.where(state)
    for i, row in enumerate(rows):
        if row["designation"] == LEADER:
            raise DomainError(
                f"soldiers[{i}].designation", "Name a new Leader with “Name the Leader” (6)."
            )
    new = [
        _new_soldier(state, row, f"soldiers[{i}]", where, target if row["attached"] else None)
        for i, row in enumerate(rows)
    ]
    lines = _equipment_lines(state, data["equipment"], "equipment", target)
    if not new and not lines:
        raise DomainError("soldiers", "Choose at least one unit or piece of equipment.")
    units, gear = _cost(new, lines, attached=False)
    if units or gear:
        briefing.spend_reinforcements(state, ctx, units, gear)
    _check_attachments(state, new, lines, target, "soldiers")
    st.squad(state)["soldiers"].extend(new)
    _add_lines(state, lines)
    check_letters(state)
    check_equipment(state, ctx)
    names = [f"{st.label(s)}, {s['unit_name']}" for s in new] + [line["name"] for line in lines]
    st.say(state, ctx.record, f"Joined the squad: {join(names)}.")


# --- the roster between missions ------------------------------------------------------------------


def apply_roster(state, data, ctx) -> None:
    if st.public(state)["phase"] not in ("mission", "briefing"):
        raise DomainError(
            "soldiers", "The roster is edited between missions, once the squad exists."
        )
    seen = set()
    changed = []
    for i, row in enumerate(data["soldiers"]):
        path = f"soldiers[{i}]"
        soldier = st.find(state, row["soldier"], f"{path}.soldier")
        if soldier["status"] not in ("active", "wounded"):
            raise DomainError(
                f"{path}.soldier", f"{st.label(soldier)} is no longer with the squad."
            )
        if soldier["id"] in seen:
            raise DomainError(f"{path}.soldier", f"{st.label(soldier)} is listed twice.")
        seen.add(soldier["id"])
        if row["letter"] not in LETTERS:
            raise DomainError(f"{path}.letter", "A counter letter is one capital letter, A to Z.")
        if row["designation"] not in DESIGNATIONS:
            raise DomainError(f"{path}.designation", f"Choose one of: {', '.join(DESIGNATIONS)}.")
        if (row["designation"] == LEADER) != (soldier["designation"] == LEADER):
            raise DomainError(
                f"{path}.designation", "The Leader changes only with “Name the Leader” (6)."
            )
        new = {
            "name": row["name"],
            "letter": row["letter"],
            "designation": row["designation"],
            "equipment": [e for e in (row["equipment_1"], row["equipment_2"]) if e],
        }
        held = cast(dict[str, Any], soldier)  # the soldier's values by the form's names
        if any(held[k] != v for k, v in new.items()):
            held.update(new)
            changed.append(st.label(soldier))
    check_letters(state)
    check_equipment(state, ctx)
    st.say(
        state,
        ctx.record,
        f"Roster updated: {join(changed)}." if changed else "Roster checked: nothing changed.",
    )


def apply_leader(state, data, ctx) -> None:
    pub = st.public(state)
    if pub["phase"] == "briefing":
        briefing.require_casualties_done(state, "soldier")
        briefing.close_spending(state)
    elif pub["phase"] != "mission":
        raise DomainError("soldier", "A Leader is named between missions.")
    soldier = st.find(state, data["soldier"])
    if soldier["status"] != "active" or soldier.get("attached") is not None:
        raise DomainError(
            "soldier", f"{st.label(soldier)} cannot lead the squad now (wounded, dead or attached)."
        )
    current = st.leader(state)
    if current is soldier and not st.squad(state)["temporary_leader"]:
        raise DomainError("soldier", f"{st.label(soldier)} is already the Leader.")
    capable = st.able_to_lead(state)
    if capable and not st.may_lead(state, soldier):
        raise DomainError(
            "soldier",
            f"A {soldier['unit_name']} may not be designated Leader (6); "
            f"these may: {join(st.label(s) for s in capable)}.",
        )
    # From journal v2 (RA-9): one who may not lead only once 8.2 is settled, until the mission's end.
    temporary = ctx.journal_version >= LEADER_AFTER_REINFORCEMENTS and not st.may_lead(
        state, soldier
    )
    if temporary and pub["phase"] == "briefing":
        why = briefing.leader_waits(state)
        if why:
            raise DomainError("soldier", why)
        briefing.settle_reinforcements(state, ctx.record)
    until = (
        "until the end of the next mission"
        if pub["phase"] == "briefing"
        else "until the end of the mission"
    )
    make_leader(state, soldier, st.where(state), temporary=temporary, until=until)
    st.say(
        state,
        ctx.record,
        f"{st.label(soldier)} is now the Leader (6)."
        if not temporary
        else f"{st.label(soldier)} is now the Leader {until}: no available soldier may lead, and a "
        f"{soldier['unit_name']} may not be designated Leader (6).",
    )
