"""The demo club's Achtung! Panzer! campaign: CG I in progress, played at the demo
table (campaigns.services.demo.DemoTable, through the real services).

demo-organizer and demo-alice play the Allies, demo-bob the Germans, demo-referee referees;
the server rolls. The Initial Scenario's refit is played (each side buys one RG), 5/29A is
played: each side records the end of the scenario (a few units lost), the result is logged and
confirmed, and the Refit Phase after it runs as far as it goes without a decision, where the
players take over.
"""

from __future__ import annotations

from .refit_progress import current, waiting, without_decision
from .steps.base import kind_name

SIDES = ("allied", "german")
ANSWERS = {
    "1.6066.losses": {"units": []},
    "1.619.declare": {"special": "none"},
    "1.622": {"conduct": False},
    "1.618": {"ec": "Moist"},
}
RESULT = {
    "german_objectives_start": "23BB5 23X3 23R4 23H4 40Q2 40Q3 40I2 40I3 7AA6 7AA7 7AA8",
    "allied_objectives_end": "23BB5 23X3 40Q2 40Q3 hill_520",
    "german_objectives_end": "23R4 23H4 40I2 40I3 7AA6 7AA7 7AA8",
    "allied_cvp": 14,
    "german_cvp": 21,
    "allied_perimeter": "40A1 40G4 40M6 23R9",
    "german_perimeter": "7A1 7K3 23C1 40Y2",
}


def build_demo(table):
    table.create(variant="cg1", name="Storming the Bridges (demo)", options={"dice_mode": "server"})
    table.seat("allied", "organizer")
    table.seat("allied", "alice")
    table.seat("german", "bob")
    table.referee("referee")
    table.submit("organizer", "campaign.started")
    player = {"allied": "alice", "german": "bob"}

    def act(side, kind, data):
        table.submit(player[side], kind, data)

    def walk(side, stop_at_decisions):
        for _ in range(60):
            state = table.state()
            step = current(state, side)
            if step is None or waiting(state, side):
                return
            settle = without_decision(state, side, step)
            if settle:
                act(side, *settle)
            elif step.id in ANSWERS:
                act(side, kind_name(step), ANSWERS[step.id])
            elif step.repeatable and not stop_at_decisions:
                act(side, "ap.check", {"step": step.id})
            else:
                return  # a decision: the players take over here

    def walk_both(stop_at_decisions=False):
        for _ in range(20):
            before = [getattr(current(table.state(), s), "id", None) for s in SIDES]
            for side in SIDES:
                walk(side, stop_at_decisions)
            if [getattr(current(table.state(), s), "id", None) for s in SIDES] == before:
                return

    act("allied", "ap.declare", {"special": "none"})
    act("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
    act("german", "ap.purchase", {"action": "buy", "rg": "A4"})
    walk_both()
    state = table.state()
    for side, lost in (("allied", 3), ("german", 2)):
        squads = [u for u in state["game"]["sides"][side]["retained"] if u["kind"] == "squad"][
            :lost
        ]
        act(
            side,
            "ap.aftermath",
            {
                "units": [{"unit": u["id"], "fate": "eliminated"} for u in squads],
                "cvp": RESULT[f"{side}_cvp"],
            },
        )
    act("allied", "result.submitted", {"scenario": 0, "data": RESULT})
    act("german", "result.confirmed", {"scenario": 0})
    walk_both(stop_at_decisions=True)
    return table.campaign
