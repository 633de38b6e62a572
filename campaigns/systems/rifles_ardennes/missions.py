"""Logging a mission (the scenario result) and what follows at once: attachments leave,
a Leader named during the mission takes over (6), a temporary Leader who may not lead gives the
command up at the mission's end (6, journal v3), the end-mission briefing opens (8.3)."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, clean_fields

from . import leaders, state as st
from .data import OUTCOME_LABELS
from .shapes import Soldier
from .upgrades import LEADER_UNTIL_MISSION_END
from .words import join, plural

RESULT_FIELDS = (
    Field(
        "outcome",
        "choice",
        label="Outcome",
        choices=tuple(k for k, _ in OUTCOME_LABELS),
        labels=OUTCOME_LABELS,
        help="Lost: every soldier eliminated, or the Game Turn marker past 1; aborted: all on stripe #6 (7).",
    ),
    Field("turns_used", "int", label="Game turns used", min=0, max=12),
    Field(
        "stayed_behind",
        "list",
        label="Stayed behind",
        required=False,
        default=[],
        max=40,
        item=Field("soldier", max_length=20),
        help="Everyone else who is not wounded took part (wounded soldiers always stay behind, 8.2).",
    ),
    Field(
        "eliminated",
        "list",
        label="Eliminated in the mission",
        required=False,
        default=[],
        max=40,
        item=Field("soldier", max_length=20),
    ),
    Field(
        "new_leader",
        label="Took command when the Leader was eliminated (6)",
        required=False,
        default="",
        max_length=20,
    ),
    Field("notes", label="Notes", required=False, default="", max_length=1000),
)


def result_open(state) -> str | None:
    game = state.get("game")
    if game is None:
        return "The campaign has not started."
    pub = game["public"]
    if pub["phase"] == "setup":
        return "Create the squad first (2.2, 8.1)."
    if pub["phase"] != "mission":
        return "Finish the end-mission briefing first (8.3)."
    entry = st.mission(state, state["current"])
    if not entry["name"] or not entry["game_turns"]:
        return f"Enter the name and game turns of {entry['label']} first (2.1)."
    return None


def clean_result(state, index, data, ctx) -> dict:
    """The party is every soldier who is not wounded and did not stay behind (8.2); paths name the
    result's own fields ("data.eliminated[1]"), as the API and the page send them."""
    data = clean_fields(RESULT_FIELDS, data, prefix="data.")
    entry = st.mission(state, index)
    if data["turns_used"] > (entry["game_turns"] or 0):
        raise DomainError(
            "data.turns_used",
            f"{entry['label']} has {plural(entry['game_turns'] or 0, 'game turn')}.",
        )
    behind = _soldiers(state, data["stayed_behind"], "data.stayed_behind")
    eliminated = _soldiers(state, data["eliminated"], "data.eliminated")
    for i, soldier in enumerate(eliminated):
        path = f"data.eliminated[{i}]"
        if soldier["status"] == "wounded":
            raise DomainError(
                path, f"{st.label(soldier)} is wounded and cannot take part in this mission (8.2)."
            )
        if soldier["status"] != "active":
            raise DomainError(path, f"{st.label(soldier)} is no longer with the squad.")
        if soldier in behind:
            raise DomainError(
                path, f"{st.label(soldier)} stayed behind: he cannot have been eliminated."
            )
    party = [s for s in st.available(state) if s not in behind]
    if st.available(state) and not party:
        raise DomainError("data.stayed_behind", "Someone must take part in the mission.")
    if not party and data["outcome"] == "accomplished":
        raise DomainError(
            "data.outcome", "Nobody could take part: the mission cannot have been accomplished."
        )
    leader = st.leader(state)
    if leader is not None and leader["status"] == "active" and leader not in party:
        raise DomainError(
            "data.stayed_behind",
            f"The Leader, {st.label(leader)}, leads the squad in the mission (6).",
        )
    if party and len(eliminated) == len(party) and data["outcome"] != "lost":
        raise DomainError(
            "data.outcome", "Every soldier who took part was eliminated: the mission is lost (7)."
        )
    if data["new_leader"]:
        if leader is None or leader not in eliminated:
            raise DomainError(
                "data.new_leader",
                "A new Leader is designated only when the Leader is eliminated (6).",
            )
        chosen = next((s for s in party if s["id"] == data["new_leader"]), None)
        if chosen is None or chosen is leader:
            raise DomainError(
                "data.new_leader", "Choose another soldier who took part in the mission (6)."
            )
    data["eliminated"] = [s["id"] for s in eliminated]
    data["stayed_behind"] = [s["id"] for s in behind]
    return data


def _soldiers(state, ids, path) -> list[Soldier]:
    found = []
    for i, sid in enumerate(ids):
        soldier = st.find(state, sid, f"{path}[{i}]")
        if soldier in found:
            raise DomainError(f"{path}[{i}]", f"{st.label(soldier)} is named twice.")
        found.append(soldier)
    return found


def on_result(state, index, result, ctx) -> None:
    """The mission is logged: each soldier's record, the Leader named in the mission, the end of a
    temporary leadership (6, from journal v3), attachments going back, and the briefing's first
    step, the recovery of the wounded (8.3)."""
    from . import briefing

    pub = st.public(state)
    entry = st.mission(state, index)
    party = [s["id"] for s in st.available(state) if s["id"] not in result["stayed_behind"]]
    eliminated = result["eliminated"]
    log: dict = {
        "outcome": result["outcome"],
        "turns_used": result["turns_used"],
        "party": party,
        "eliminated": eliminated,
        "new_leader": result["new_leader"] or None,
        "notes": result["notes"],
        "start_rp": sum(1 for sid in party if "local_contacts" in st.find(state, sid)["skills"]),
    }
    entry["log"] = log
    label = entry["label"]
    for sid in party:
        soldier = st.find(state, sid)
        soldier["missions"].append(index)
        st.history(
            soldier,
            label,
            f"Took part in {st.mission_title(state, index)} ({result['outcome']})"
            + ("; eliminated." if sid in eliminated else "."),
        )
    if result["new_leader"]:
        new = st.find(state, result["new_leader"])
        leaders.make_leader(state, new, label, temporary=not st.may_lead(state, new))
    stepped_down = None
    if ctx.journal_version >= LEADER_UNTIL_MISSION_END:
        # 6: "at the end of the Mission this temporary leadership is dropped": now, as the mission
        # is logged (7), before the briefing (8.3, 8.4); v2 dropped it after the casualty rolls.
        stepped_down = leaders.drop(state, label, at_mission_end=True)
        log["stepped_down"] = stepped_down["id"] if stepped_down else None
    returned = []
    for soldier in st.soldiers(state):
        if soldier.get("attached") == index and soldier["status"] in ("active", "wounded"):
            soldier["status"] = "returned"
            st.history(soldier, label, "Returned to his unit after the mission (attachment).")
            returned.append(st.label(soldier))
    st.squad(state)["equipment"] = [
        line for line in st.squad(state)["equipment"] if line.get("attached") != index
    ]
    pub["phase"] = "briefing"
    opened = briefing.open_briefing(state, index, returned)
    if stepped_down is not None:
        opened["leader_note"] = leaders.gave_up(stepped_down, at_mission_end=True)
    pub["briefing"] = opened


def log_sentence(state, index) -> str:
    entry = st.mission(state, index)
    log = entry["log"]
    if log is None:
        return f"{entry['label']} logged."
    eliminated = [st.label(st.find(state, sid)) for sid in log["eliminated"]]
    text = (
        f"{st.mission_title(state, index)}: {log['outcome']} after {plural(log['turns_used'], 'game turn')} of "
        f"{entry['game_turns']}, {plural(len(log['party']), 'soldier')} took part"
    )
    text += f"; eliminated: {join(eliminated)}." if eliminated else "; nobody was eliminated."
    if log["new_leader"]:
        text += f" {st.label(st.find(state, log['new_leader']))} took command (6)."
    if log.get("stepped_down"):  # journal v3: at the end of the mission (6)
        text += " " + leaders.gave_up(st.find(state, log["stepped_down"]), at_mission_end=True)
    return text
