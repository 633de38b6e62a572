"""The demo club's Rifles in the Ardennes campaign: demo-alice's German squad after two
missions, played at the demo table
(campaigns.services.demo.DemoTable, through the real services) with server dice (so every load tells its own story).

Mission 1 is accomplished with two Riflemen eliminated, Mission 2 lost with the Gunner and a
Rifleman eliminated; each briefing rolls, promotes whoever it can afford, names a Leader if
needed and spends what HQ grants on Riflemen. Mission 3 is set up, ready to be logged.
"""

from __future__ import annotations

from . import state as st
from .data import BOOK_SQUAD, LETTERS

NAMES = {
    "A": "Sgt. Braun",
    "B": "Cpl. Vogel",
    "J": "Pvt. Kurz",
    "D": "Pvt. Weber",
    "G": "Pvt. Lang",
    "H": "Pvt. Roth",
    "I": "Pvt. Ziegler",
}
RECRUITS = ("Pvt. Huber", "Pvt. Franke", "Pvt. Keller", "Pvt. Busch")
MISSIONS = (("Mission 01", 10), ("Mission 02", 12), ("Mission 03", 8))


def build_demo(table):
    table.create(
        variant="five",
        name="Alice's Kampfgruppe (demo)",
        options={"dice_mode": "server", "army": "german", "enemy": "us"},
    )
    table.seat(st.SIDE, "alice")
    table.submit("organizer", "campaign.started")

    def act(kind, data=None):
        return table.submit("alice", kind, data)

    soldiers = [
        {
            "name": NAMES[letter],
            "letter": letter,
            "unit": unit,
            "designation": role,
            "equipment_1": gear,
        }
        for letter, unit, role, gear in BOOK_SQUAD
    ]
    act("rifles.squad", {"soldiers": soldiers, "equipment": [{"item": "grenades", "quantity": 1}]})
    for index, (name, turns) in enumerate(MISSIONS):
        act("rifles.mission", {"mission": index, "name": name, "game_turns": turns})
    _mission(act, table.state(), "accomplished", 8, ("D", "G"))
    _mission(act, table.state(), "lost", 12, ("J", "H"))
    return table.campaign


def _mission(act, state, outcome, turns, eliminated) -> None:
    down = [s["id"] for s in st.available(state) if s["letter"] in eliminated]
    state = act(
        "result.submitted",
        {
            "scenario": state["current"],
            "data": {"outcome": outcome, "turns_used": turns, "eliminated": down},
        },
    )
    state = act("rifles.xp")
    buyable = [s for s in st.living(state) if not s["veteran"]]
    if st.squad(state)["xp"] >= 2 and buyable:
        state = act(
            "rifles.spend_xp", {"soldiers": [{"soldier": buyable[0]["id"], "veteran": True}]}
        )
    if st.current_briefing(state)["casualties"] is None and any(
        st.find(state, sid)["status"] == "active"
        for sid in st.mission_log(state, state["current"])["eliminated"]
    ):
        state = act("rifles.casualties")
    state = _reinforce(act, state)
    lead = st.leader(state)
    if lead is None or lead["status"] != "active":
        ready = sorted(st.available(state), key=lambda s: not st.may_lead(state, s))
        state = act("rifles.leader", {"soldier": ready[0]["id"]})
    act("rifles.next_mission")


def _reinforce(act, state):
    from . import briefing

    if briefing.reinforcement_open(state) is not None:
        return state
    state = act("rifles.reinforce")
    grant = st.current_briefing(state)["reinforcement"]
    room = st.public(state)["budget"] - st.squad_ap(state)
    used = {s["letter"] for s in st.living(state)}
    free = [letter for letter in LETTERS if letter not in used]
    taken = {s["name"] for s in st.soldiers(state)}
    names = [n for n in RECRUITS if n not in taken]
    # a second reinforcement finds names the first one took: recruit only as many as are left
    count = min(grant["ap"], room, len(names), len(free))
    if count > 0:
        state = act(
            "rifles.recruit",
            {
                "soldiers": [
                    {
                        "name": names[i],
                        "letter": free[i],
                        "unit": "rifle",
                        "designation": "Rifleman",
                    }
                    for i in range(count)
                ]
            },
        )
    return state
