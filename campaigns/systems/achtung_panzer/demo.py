"""The demo club's Achtung! Panzer! campaign: CG I in progress, made through the real services.

demo-organizer and demo-alice play the Allies, demo-bob the Germans, demo-referee referees;
the server rolls. The Initial Scenario's refit is played (each side buys one RG), 5/29A is
logged and confirmed, and the Refit Phase after it runs up to 1.6112, where the players take
over.
"""

from __future__ import annotations

from .sequence import current, waiting
from .steps.base import kind_name

SIDES = ("allied", "german")
STOP_AT = "1.6112"
ANSWERS = {"1.619.declare": {"special": "none"}, "1.622": {"conduct": False}, "1.618": {"ec": "Moist"}}
RESULT = {
    "german_objectives_start": "23BB5 23X3 23R4 23H4 40Q2 40Q3 40I2 40I3 7AA6 7AA7 7AA8",
    "allied_objectives_end": "23BB5 23X3 40Q2 40Q3 hill_520",
    "german_objectives_end": "23R4 23H4 40I2 40I3 7AA6 7AA7 7AA8",
    "allied_cvp": 14, "german_cvp": 21, "allied_perimeter": "40A1 40G4 40M6 23R9",
    "german_perimeter": "7A1 7K3 23C1 40Y2",
}


def build_demo(club, users):
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit
    from campaigns.services.state import current_state

    organizer = users["organizer"]
    campaign = svc.create_campaign(club=club, user=organizer, system="achtung_panzer", variant="cg1",
                                   name="Storming the Bridges (demo)", options={"dice_mode": "server"})
    svc.assign_player(campaign, organizer, side="allied", username=organizer.username)
    svc.assign_player(campaign, organizer, side="allied", username=users["alice"].username)
    svc.assign_player(campaign, organizer, side="german", username=users["bob"].username)
    svc.assign_referee(campaign, organizer, username=users["referee"].username)
    submit(campaign, organizer, "campaign.started")
    player = {"allied": users["alice"], "german": users["bob"]}

    def act(side, kind, data):
        submit(campaign, player[side], kind, data)
        campaign.refresh_from_db()

    def walk(side, until):
        for _ in range(60):
            state = current_state(campaign)
            step = current(state, side)
            if step is None or step.id == until or waiting(state, side):
                return
            if step.checklist:
                act(side, "ap.joint" if step.scope == "joint" else "ap.check", {"step": step.id})
            elif step.repeatable:
                act(side, "ap.check", {"step": step.id})
            else:
                act(side, kind_name(step), ANSWERS.get(step.id, {}))

    def walk_both(until=None):
        for _ in range(20):
            before = [getattr(current(current_state(campaign), s), "id", None) for s in SIDES]
            for side in SIDES:
                walk(side, until)
            if [getattr(current(current_state(campaign), s), "id", None) for s in SIDES] == before:
                return

    act("allied", "ap.declare", {"special": "none"})
    act("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
    act("german", "ap.purchase", {"action": "buy", "rg": "A4"})
    walk_both()
    act("allied", "result.submitted", {"scenario": 0, "data": RESULT})
    act("german", "result.confirmed", {"scenario": 0})
    walk_both(STOP_AT)
    return campaign
