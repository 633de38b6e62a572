"""A victory-ledger campaign played through the real services (journal, proposals, visibility).

alice plays the first side (German), bob the second, rita referees, olga organizes.
`Game.turn` records a turn from compact arguments: locations as {code: "G"/"A" + "c" (contested)
+ "s" (supplied)} — "Gs" German and supplied, "Acs" American, contested and supplied — and unit
changes as [(code, change)] or [(code, change, via)].
"""

from __future__ import annotations

from campaigns.services import campaigns as svc, journal_files
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from campaigns.systems import get_system


class Game:
    def __init__(self, club, people, system: str, variant: str, options=None, name="Ledger"):
        self.people = people
        self.system = get_system(system)
        self.first, self.second = self.system.side_slugs()
        olga = people["olga"]
        self.campaign = svc.create_campaign(
            club=club, user=olga, system=system, variant=variant, name=name, options=options or {}
        )
        svc.assign_player(self.campaign, olga, side=self.first, username="alice")
        svc.assign_player(self.campaign, olga, side=self.second, username="bob")
        svc.assign_referee(self.campaign, olga, username="rita")
        submit(self.campaign, olga, "campaign.started")
        self.campaign.refresh_from_db()
        self.player = {self.first: "alice", self.second: "bob"}

    @property
    def state(self) -> dict:
        self.campaign.refresh_from_db()
        return current_state(self.campaign)

    @property
    def pub(self) -> dict:
        return self.state["game"]["public"]

    @property
    def p(self) -> str:
        return self.system.event_prefix

    def act(self, who: str, kind: str, data=None, side=None):
        result = submit(self.campaign, self.people[who], kind, data or {}, side=side)
        self.campaign.refresh_from_db()
        return result

    def by(self, side: str, kind: str, data=None):
        return self.act(self.player[side], kind, data)

    def setup(self, locations=None, units=None, side=None, **params):
        book = self.pub["setup"]
        data = {
            "locations": book["locations"] if locations is None else locations,
            "units": book["units"] if units is None else units,
            **params,
        }
        return self.by(side or self.first, f"{self.p}.setup", data)

    def turn_data(self, label, locations=None, units=(), **extras) -> dict:
        rows = []
        for code, text in (locations or {}).items():
            holder = self.first if text[0] == "G" else self.second
            rows.append(
                {
                    "location": code,
                    "controller": holder,
                    "contested": "c" in text[1:],
                    "supplied": "s" in text[1:],
                }
            )
        changes = [
            {"unit": u[0], "change": u[1], **({"via": u[2]} if len(u) > 2 else {})} for u in units
        ]
        return {"turn": label, "locations": rows, "units": changes, **extras}

    def turn(self, label, locations=None, units=(), side=None, confirm=True, **extras):
        """Record a turn as `side` (the first side by default); with `confirm`, the other side
        confirms it at once (VL-5), so the victory checks run."""
        result = self.by(
            side or self.first, f"{self.p}.turn", self.turn_data(label, locations, units, **extras)
        )
        if confirm:
            self.confirm()
        return result

    def confirm(self, by: str | None = None):
        """The other side confirms the record waiting for confirmation, if one waits."""
        state = self.state
        current = state["current"]
        if current is None or state["scenarios"][current]["status"] != "pending":
            return None
        recorder = state["scenarios"][current]["pending"]["side"]
        other = self.second if recorder == self.first else self.first
        return self.act(by or self.player[other], "result.confirmed", {"scenario": current})

    def event_uid(self, kind: str, index: int = -1) -> str:
        return str(list(self.campaign.events.filter(kind=kind).order_by("seq"))[index].uid)

    def replayed(self) -> tuple[dict, dict, dict]:
        """Export the journal, empty the database, replay the file: (exported, replayed state,
        export of the replayed campaign)."""
        from campaigns.models import Campaign, Club

        exported = journal_files.export_journal(self.campaign)
        from django.contrib.auth import get_user_model

        people = set(get_user_model().objects.values_list("username", flat=True))
        Campaign.objects.all().delete()
        Club.objects.all().delete()
        # The people are still here: the operator says they are the journal's (never assumed).
        campaign = journal_files.replay(
            exported, create_club=True, user_map={name: name for name in people}
        )
        return exported, journal_files.full_state(campaign), journal_files.export_journal(campaign)


def correct(
    game: Game, target_uid: str, data: dict, proposer: str = "alice", approver: str = "bob"
):
    """Propose a correction of an earlier event and have the other side agree (the service applies it)."""
    game.act(
        proposer,
        "proposal.made",
        {"action": "correct", "target": target_uid, "data": data, "reason": "entered wrongly"},
    )
    proposal = game.event_uid("proposal.made")
    return game.act(approver, "proposal.approved", {"proposal": proposal})
