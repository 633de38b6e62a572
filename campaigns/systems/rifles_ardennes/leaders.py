"""The squad's Leader (6): naming one, and a temporary Leader who may not lead giving the role up
at the end of the mission. Used by the squad's appliers, the mission log and the briefing."""

from __future__ import annotations

from . import state as st
from .data import LEADER
from .shapes import Soldier


def make_leader(
    state, soldier, where: str, temporary: bool, until: str = "for the rest of the mission"
) -> None:
    """The new Leader takes the designation; the old one (if alive) takes the new Leader's old one.
    A temporary Leader gives up the role at the end of the mission (drop_temporary_leader)."""
    sq = st.squad(state)
    old = st.leader(state)
    own = (
        soldier["designation"]
        if soldier["designation"] != LEADER
        else (soldier["previous_designation"] or "Rifleman")
    )
    if old is not None and old is not soldier:
        old["designation"] = own
        st.history(old, where, f"Handed command to {st.label(soldier)}; now {own}.")
    soldier["previous_designation"] = own
    soldier["designation"] = LEADER
    sq["temporary_leader"] = soldier["id"] if temporary else None
    st.history(
        soldier,
        where,
        "Took command of the squad" + (f" {until} (6)." if temporary else " as its Leader (6)."),
    )


def drop_temporary_leader(state, where: str, at_mission_end: bool = False) -> str | None:
    """6: at the end of the Mission a temporary Leader who may not lead gives up the role (his own
    designation comes back; nobody else takes the Leader's). `at_mission_end`: when the mission is
    logged (journal v3), not in the briefing after it. The sentence for the briefing, or None."""
    stepped_down = drop(state, where, at_mission_end)
    return None if stepped_down is None else gave_up(stepped_down, at_mission_end)


def gave_up(soldier: Soldier, at_mission_end: bool = False) -> str:
    return (
        f"{st.label(soldier)} gives up the command"
        + (" at the end of the mission" if at_mission_end else "")
        + f": a {soldier['unit_name']} may not be the Leader (6)."
    )


def drop(state, where: str, at_mission_end: bool = False) -> Soldier | None:
    """The temporary Leader who gave up the role now (drop_temporary_leader), or None."""
    sq = st.squad(state)
    sid = sq["temporary_leader"]
    sq["temporary_leader"] = None
    if sid is None:
        return None
    soldier = st.find(state, sid)
    if soldier["designation"] != LEADER:
        return None
    soldier["designation"] = soldier["previous_designation"] or "Rifleman"
    if soldier["status"] in ("active", "wounded"):
        st.history(
            soldier,
            where,
            "Gave up the command"
            + (" at the end of the mission" if at_mission_end else "")
            + f": a {soldier['unit_name']} may not lead (6).",
        )
    return soldier
