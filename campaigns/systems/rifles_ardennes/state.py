"""The squad's state and the reads every module shares.

Everything lives under ``state["game"]["public"]``: a solitaire campaign has no opponent
to hide from, and the club compares its members' squads (docs/rifles-ardennes.md).
"""

from __future__ import annotations

from typing import Any, cast

from campaigns.game_interface import DomainError, HeldState

from .data import LEADER, army_name, seed_catalog
from .shapes import CatalogItem, Mission, RiflesGame, RiflesPublic, Soldier, Squad

SIDE = "squad"


def initial_state(options: dict, calendar, budget: int) -> dict:
    catalog = [_catalog_entry(item) for item in seed_catalog().get(options["army"], [])]
    return {
        "public": {
            "army": options["army"],
            "enemy": options["enemy"],
            "budget": budget,
            "catalog": catalog,
            "missions": [
                {
                    "label": label,
                    "name": "",
                    "game_turns": None,
                    "extra_ap": 0,
                    "attachments": "",
                    "notes": "",
                    "log": None,
                }
                for label in calendar
            ],
            "phase": "setup",
            "squad": {
                "soldiers": [],
                "equipment": [],
                "xp": 0,
                "xp_earned": 0,
                "xp_spent": 0,
                "next": 1,
                "temporary_leader": None,
            },
            "ledger": [],
            "briefing": None,
            "rolls": [],
            "said": {},
        },
        "sides": {SIDE: {}},
        "referee": {},
    }


def _catalog_entry(item: dict) -> dict:
    base = {
        "id": "",
        "name": "",
        "kind": "unit",
        "ap": None,
        "cf": None,
        "cf_armored": None,
        "may_lead": False,
        "attributes": "",
        "note": "",
        "provides": "",
        "count": 1,
    }
    return {**base, **item}


# --- reads --------------------------------------------------------------------------------


def public(state: HeldState) -> RiflesPublic:
    """The squad's part of a state (or of a reader's view of it): the game's own shape."""
    return cast(RiflesGame, state["game"])["public"]


def squad(state: HeldState) -> Squad:
    return public(state)["squad"]


def soldiers(state: HeldState) -> list[Soldier]:
    return squad(state)["soldiers"]


def living(state: HeldState) -> list[Soldier]:
    """Soldiers of the squad now: active or wounded (the dead and returned attachments are not)."""
    return [s for s in soldiers(state) if s["status"] in ("active", "wounded")]


def available(state: HeldState) -> list[Soldier]:
    """Soldiers who may take part in the next mission (8.2: not the wounded)."""
    return [s for s in soldiers(state) if s["status"] == "active"]


def find(state: HeldState, sid, path: str = "soldier") -> Soldier:
    for soldier in soldiers(state):
        if soldier["id"] == sid:
            return soldier
    raise DomainError(path, "No such soldier in this squad.")


def label(soldier: Soldier) -> str:
    """ "Pvt. Weber (C)": the personal name and the counter letter."""
    name = soldier.get("name") or "Soldier"
    return f"{name} ({soldier['letter']})"


def long_label(soldier: Soldier) -> str:
    return f"{label(soldier)}, {soldier['unit_name']}"


def catalog_item(state: HeldState, item_id: str, path: str = "unit") -> CatalogItem:
    for item in public(state)["catalog"]:
        if item["id"] == item_id:
            return item
    raise DomainError(path, "No such unit or equipment in this campaign's catalog.")


def may_lead(state: HeldState, soldier: Soldier) -> bool:
    """Whether the soldier's unit may be designated Leader (6: the Army Sheet's Attributes)."""
    for item in public(state)["catalog"]:
        if item["id"] == soldier["unit"]:
            return bool(item["may_lead"])
    return False


def army_sheet_missing(state: HeldState) -> str | None:
    """What the squad cannot be created without, in words, while the campaign's catalog lacks it:
    the rulebook text kept almost nothing of the US and Russian Army Sheets (a unit needs its AP to
    join, and one unit must be able to lead, 6). None once the catalog has both."""
    catalog = public(state)["catalog"]
    army = army_name(public(state)["army"])
    units = [i for i in catalog if i["kind"] == "unit" and i["ap"] is not None]
    if not units:
        kept = [i["name"] for i in catalog if i["kind"] == "unit"]
        lost = (
            f"the rulebook text keeps only the {', '.join(kept)}, without its AP"
            if kept
            else "the rulebook text keeps none of them"
        )
        return (
            f"The Unit list is empty: no unit of the {army} has its AP in this campaign's catalog yet "
            f"({lost})."
        )
    if not any(i["may_lead"] for i in units):
        return (
            "No unit in the catalog may lead: a squad needs one Leader whose unit may lead (6). Mark the "
            "units your Army Sheet lets lead."
        )
    return None


def leader(state: HeldState) -> Soldier | None:
    return next((s for s in living(state) if s["designation"] == LEADER), None)


def able_to_lead(state: HeldState) -> list[Soldier]:
    """Soldiers of the squad available now whose unit may be designated Leader (6)."""
    return [s for s in available(state) if s.get("attached") is None and may_lead(state, s)]


def rules_version(state: HeldState) -> int:
    """The Rifles journal version the squad folds under now (Ctx.journal_version): events written
    before a "fold" upgrade keep the rules of their day (upgrades.py)."""
    from .upgrades import STEPS

    return state.get("journals", {}).get("rifles_ardennes", len(STEPS) + 1)


def equipment_ap(state: HeldState, attached: bool = False) -> int:
    return sum(
        line["ap"]
        for line in squad(state)["equipment"]
        if (line.get("attached") is not None) == attached
    )


def squad_ap(state: HeldState) -> int:
    """The squad's AP without wounded soldiers and attachments (8.2): units plus equipment."""
    units = sum(
        s["ap"] for s in soldiers(state) if s["status"] == "active" and s.get("attached") is None
    )
    return units + equipment_ap(state)


def mission(state: HeldState, index: int) -> Mission:
    return public(state)["missions"][index]


def mission_log(state: HeldState, index: int) -> dict[str, Any]:
    """The result of a mission already played (the briefing and its rolls read it)."""
    log = mission(state, index)["log"]
    assert log is not None, "a mission briefed or rolled for has its result"
    return log


def current_briefing(state: HeldState) -> dict[str, Any]:
    """The briefing between two missions, while the phase is "briefing"."""
    brief = public(state)["briefing"]
    assert brief is not None, "the phase is the briefing"
    return brief


def fell_in(state: HeldState, soldier: Soldier) -> str:
    """The mission a dead soldier fell in, in words."""
    assert soldier["died_in"] is not None, "set when he dies"
    return mission_title(state, soldier["died_in"])


def mission_title(state: HeldState, index: int) -> str:
    entry = mission(state, index)
    return f"{entry['label']}: {entry['name']}" if entry["name"] else entry["label"]


def history(soldier: Soldier, where: str, text: str) -> None:
    soldier["history"].append({"mission": where, "text": text})


def ledger(state: HeldState, where: str, change: int, text: str) -> None:
    sq = squad(state)
    public(state)["ledger"].append(
        {"mission": where, "change": change, "balance": sq["xp"], "text": text}
    )


def say(state: HeldState, record, text: str) -> None:
    """A sentence about this journal entry, for its line in the history (by uid: never a sequence number)."""
    if record.uid:
        said = public(state)["said"]
        said[record.uid] = f"{said[record.uid]} {text}" if record.uid in said else text


def where(state: HeldState) -> str:
    """The label the history and the ledger file things under: the mission being prepared or briefed."""
    index = state["current"]
    if public(state)["phase"] == "setup" or index is None:
        return "Campaign start"
    return mission(state, index)["label"]


def panel_words(view: dict) -> dict:
    """Words the campaign page's panel shows as they are, worked out from the reader's view."""
    pub = public(view)
    now = {"setup": "Create the squad (2.2, 8.1).", "finished": "The campaign is over."}.get(
        pub["phase"], ""
    )
    if pub["phase"] == "mission":
        entry = mission(view, view["current"])
        now = mission_title(view, view["current"]) + (
            f", {entry['game_turns']} game turns" if entry["game_turns"] else ": set it up (2.1)"
        )
    elif pub["phase"] == "briefing":
        now = f"End-mission briefing after {mission_title(view, current_briefing(view)['mission'])} (8.3)"
    return {
        "army": army_name(pub["army"]),
        "enemy": army_name(pub["enemy"]),
        "squad_ap": squad_ap(view),
        "now": now,
        "memorial": [
            {
                "name": label(s),
                "unit": s["unit_name"],
                "veteran": s["veteran"],
                "skills": s["skill_names"],
                "fell_in": fell_in(view, s),
                "missions": len(s["missions"]),
            }
            for s in soldiers(view)
            if s["status"] == "dead"
        ],
    }


def waiting_on(state: HeldState) -> list[tuple[str | None, str]]:
    """What the squad's player has to do next, in words the club may read."""
    pub = public(state)
    if pub["phase"] == "setup":
        return [(SIDE, "the squad to be created")]
    if pub["phase"] == "briefing":
        return [
            (
                SIDE,
                f"the end-mission briefing after {mission(state, current_briefing(state)['mission'])['label']}",
            )
        ]
    if pub["phase"] == "mission":
        index = state["current"]
        assert index is not None, "a mission is being prepared"
        entry = mission(state, index)
        if not entry["name"] or not entry["game_turns"]:
            return [(SIDE, f"{entry['label']} to be set up")]
    return []
