"""A Rifles in the Ardennes campaign played through the real services (journal, dice, visibility).

alice plays the squad; olga organizes. `Squad.by` submits one event as alice, with entered
dice given by key (every roll's die must be given: a missing one fails the test).
"""

from __future__ import annotations

from campaigns.errors import DiceNeeded
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state

GERMAN_BOOK_SQUAD = [
    # 2.2's example squad, with personal names (Muster's addition)
    {
        "name": "Sgt. Braun",
        "letter": "A",
        "unit": "smg",
        "designation": "Leader",
        "equipment_1": "Grenade",
    },
    {
        "name": "Cpl. Vogel",
        "letter": "B",
        "unit": "rifle",
        "designation": "Assistant Leader",
        "equipment_1": "Grenade",
    },
    {"name": "Pvt. Kurz", "letter": "J", "unit": "lmg", "designation": "Gunner"},
    {
        "name": "Pvt. Weber",
        "letter": "D",
        "unit": "rifle",
        "designation": "Rifleman",
        "equipment_1": "Grenade",
    },
    {
        "name": "Pvt. Lang",
        "letter": "G",
        "unit": "rifle",
        "designation": "Rifleman",
        "equipment_1": "Grenade",
    },
    {
        "name": "Pvt. Roth",
        "letter": "H",
        "unit": "rifle",
        "designation": "Rifleman",
        "equipment_1": "Grenade",
    },
    {"name": "Pvt. Ziegler", "letter": "I", "unit": "rifle", "designation": "Rifleman"},
]
GRENADES = [{"item": "grenades", "quantity": 1}]


class Squad:
    def __init__(
        self, club, people, variant="three", dice_mode="entered", options=None, name="Kampfgruppe"
    ):
        self.people = people
        olga = people["olga"]
        opts = {"dice_mode": dice_mode, "army": "german", "enemy": "us", **(options or {})}
        self.campaign = svc.create_campaign(
            club=club, user=olga, system="rifles_ardennes", variant=variant, name=name, options=opts
        )
        svc.assign_player(self.campaign, olga, side="squad", username="alice")
        submit(self.campaign, olga, "campaign.started")
        self.campaign.refresh_from_db()

    @property
    def state(self) -> dict:
        self.campaign.refresh_from_db()
        return current_state(self.campaign)

    @property
    def game(self) -> dict:
        return self.state["game"]["public"]

    @property
    def squad_ap(self) -> int:
        """The squad's AP without its wounded and attachments (8.2), as the rules count it."""
        from campaigns.systems.rifles_ardennes.state import squad_ap

        return squad_ap(self.state)

    def soldier(self, letter: str) -> dict:
        alive = [
            s
            for s in self.game["squad"]["soldiers"]
            if s["letter"] == letter and s["status"] != "dead"
        ]
        if alive:
            return alive[0]
        return [s for s in self.game["squad"]["soldiers"] if s["letter"] == letter][-1]

    def sid(self, letter: str) -> str:
        return self.soldier(letter)["id"]

    def by(self, kind: str, data=None, dice=None, who="alice"):
        result = submit(self.campaign, self.people[who], kind, data or {}, dice=dice)
        self.campaign.refresh_from_db()
        return result

    def needs(self, kind: str, data=None, dice=None) -> list[dict]:
        try:
            self.by(kind, data, dice)
        except DiceNeeded as needed:
            return needed.needs
        raise AssertionError("no dice were asked for")

    def create(self, soldiers=None, equipment=None):
        return self.by(
            "rifles.squad",
            {
                "soldiers": soldiers or GERMAN_BOOK_SQUAD,
                "equipment": GRENADES if equipment is None else equipment,
            },
        )

    def plan(self, index: int, name: str, turns: int, extra_ap: int = 0):
        return self.by(
            "rifles.mission",
            {"mission": index, "name": name, "game_turns": turns, "extra_ap": extra_ap},
        )

    def log(
        self,
        outcome: str,
        turns: int,
        eliminated=(),
        behind=(),
        new_leader: str = "",
        notes: str = "",
    ):
        """Log the current mission: counter letters of the soldiers eliminated and of those who stayed
        behind (everyone else who is not wounded took part)."""
        data = {
            "outcome": outcome,
            "turns_used": turns,
            "stayed_behind": [self.sid(x) for x in behind],
            "eliminated": [self.sid(x) for x in eliminated],
            "new_leader": self.sid(new_leader) if new_leader else "",
            "notes": notes,
        }
        return self.by("result.submitted", {"scenario": self.state["current"], "data": data})
