"""The Squad Roster as in the book (AP, unit/eq name, designation, ID, equipment, status,
veteran/skill, XP, Recon Points box, Game Turn Track 1–12), printed from the club's view."""

from __future__ import annotations

from campaigns.game_interface import SheetDef

from . import records, state as st
from .data import army_name

SHEETS = (
    SheetDef("squad_roster", "Squad Roster", "public", "rifles_ardennes/sheets/squad_roster.html"),
)


# The blank Squad Roster: the book's two equipment boxes a line (the `equipment.slots` house rule's
# book value, as below) and its Game Turn Track 1-12; as many lines, and mission lines, as fill one
# page (A4 and US Letter alike: tests/rosters/test_blank_sheets.py holds it to one page).
BLANK_LINES, BLANK_MISSIONS, BOOK_SLOTS = 11, 5, 2


def blank_context(sheet: str) -> dict | None:
    if sheet != "squad_roster":
        return None
    return {
        "lines": [{"equipment": [""] * BOOK_SLOTS} for _ in range(BLANK_LINES)],
        "slots": list(range(1, BOOK_SLOTS + 1)),
        "track": list(range(1, 13)),
        "missions": [{} for _ in range(BLANK_MISSIONS)],
        "xp_earned": "____",
        "xp_spent": "____",
        "blank": True,
    }


def sheet_context(sheet: str, view: dict) -> dict:
    if sheet != "squad_roster" or view.get("game") is None:
        return {}
    pub = view["game"]["public"]
    slots = int((view.get("house_rules") or {}).get("equipment.slots", {}).get("value", BOOK_SLOTS))
    lines = []
    for soldier in st.living(view):
        gear = soldier["equipment"] + [""] * slots
        lines.append(
            {
                "ap": soldier["ap"],
                "name": soldier["unit_name"],
                "designation": soldier["designation"],
                "id": soldier["letter"],
                "soldier": soldier["name"],
                "equipment": gear[:slots],
                "status": "Wounded" if soldier["status"] == "wounded" else "",
                "attached": soldier.get("attached") is not None,
                "honours": records.honours(view, soldier),
                "missions": len(soldier["missions"]),
            }
        )
    for line in pub["squad"]["equipment"]:
        lines.append(
            {
                "ap": line["ap"],
                "name": line["name"],
                "designation": "Equipment",
                "id": "—",
                "soldier": "",
                "equipment": [""] * slots,
                "status": "",
                "attached": line.get("attached") is not None,
                "honours": "",
                "missions": "",
            }
        )
    index = view["current"]
    current = st.mission(view, index) if index is not None and pub["phase"] != "setup" else None
    ready = [s for s in st.available(view) if s.get("attached") is None]
    return {
        "army": army_name(pub["army"]),
        "enemy": army_name(pub["enemy"]),
        "budget": pub["budget"],
        "squad_ap": st.squad_ap(view),
        "lines": lines,
        "slots": list(range(1, slots + 1)),
        "xp": pub["squad"]["xp"],
        "xp_earned": pub["squad"]["xp_earned"],
        "xp_spent": pub["squad"]["xp_spent"],
        "rp": sum(1 for s in ready if "local_contacts" in s["skills"]),
        "mission": st.mission_title(view, index) if current else "",
        "game_turns": current["game_turns"] if current else None,
        "track": list(range(1, 13)),
        "missions": [
            {
                "label": m["label"],
                "name": m["name"],
                "turns": m["game_turns"],
                "outcome": (m["log"] or {}).get("outcome", ""),
                "used": (m["log"] or {}).get("turns_used", ""),
            }
            for m in pub["missions"]
        ],
        "memorial": [
            {
                "name": st.label(s),
                "unit": s["unit_name"],
                "died": st.fell_in(view, s),
                "missions": len(s["missions"]),
            }
            for s in st.soldiers(view)
            if s["status"] == "dead"
        ],
        "ledger": pub["ledger"][-12:],
    }
