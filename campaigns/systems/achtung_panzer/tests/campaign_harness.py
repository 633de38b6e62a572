"""An A!P! campaign played through the real services (journal, dice, visibility).

alice plays the Allies, bob the Germans, rita referees, olga organizes. `War.act` submits
one event as a person; `War.walk` plays the current side's steps with plain answers until
a given step is current (checklists confirmed, repeatable steps finished, table steps
answered from `answers`).
"""

from __future__ import annotations

from campaigns.errors import DiceNeeded, DomainError
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from campaigns.systems.achtung_panzer import refit_progress
from campaigns.systems.achtung_panzer.steps.base import kind_name

PLAYERS = {"allied": "alice", "german": "bob"}
# Plain answers for a side that buys nothing and does nothing optional.
QUIET = {
    "1.6112": [{"action": "roll"}, {"action": "harden", "hardened": []}],
    "1.6113": [
        {"action": "roll"},
        lambda state, side: {
            "action": "resolve",
            "win_drm": "ignore"
            if "ignore" in state["game"]["sides"][side]["pending"]["1.6113"]["outcomes"]
            else "none",
        },
    ],
    "1.618": {"ec": "Moist"},
    "1.619.declare": {"special": "none"},
    "1.622": {"conduct": False},
}
NO_OBJECTIVES = {"allied_objectives_start": "", "german_objectives_start": ""}


class War:
    def __init__(
        self,
        club,
        people,
        variant="cg1",
        dice_mode="entered",
        options=None,
        name="Somme",
        house_rules=None,
    ):
        self.people = people
        self.table_dice: dict = {}
        olga = people["olga"]
        opts = {"dice_mode": dice_mode, **(options or {})}
        self.campaign = svc.create_campaign(
            club=club, user=olga, system="achtung_panzer", variant=variant, name=name, options=opts
        )
        svc.assign_player(self.campaign, olga, side="allied", username="alice")
        svc.assign_player(self.campaign, olga, side="german", username="bob")
        svc.assign_referee(self.campaign, olga, username="rita")
        for key, value in (house_rules or {}).items():
            submit(self.campaign, olga, "house_rule.set", {"key": key, "value": value, "note": ""})
        submit(self.campaign, olga, "campaign.started")
        self.campaign.refresh_from_db()

    @property
    def state(self) -> dict:
        self.campaign.refresh_from_db()
        return current_state(self.campaign)

    @property
    def public(self) -> dict:
        return self.state["game"]["public"]

    def side(self, side: str) -> dict:
        return self.state["game"]["sides"][side]

    def act(self, who: str, kind: str, data=None, side=None, dice=None):
        result = submit(self.campaign, self.people[who], kind, data or {}, side=side, dice=dice)
        self.campaign.refresh_from_db()
        return result

    def by(self, side: str, kind: str, data=None, dice=None):
        """Act as the side's player; in entered mode the dice come from `dice`, then `self.table_dice`
        (key -> faces), then `default_faces` (every roll the test does not care about)."""
        given = dict(dice or {})
        for _ in range(12):
            try:
                return self.act(PLAYERS[side], kind, data, dice=given or None)
            except DiceNeeded as needed:
                for need in needed.needs:
                    given[need["key"]] = self.table_dice.get(need["key"]) or default_faces(
                        need["key"], need["expr"]
                    )
            except DomainError as error:
                # Asked for with placeholder dice, but not due with the real ones: drop them.
                if error.field != "dice" or "No roll is due for: " not in error.message:
                    raise
                for key in error.message.split("No roll is due for: ")[1].rstrip(".").split(", "):
                    given.pop(key, None)
        raise AssertionError("dice kept missing")

    def current(self, side: str):
        return refit_progress.current(self.state, side)

    def result(self, data: dict, submitter="allied", confirmer="german"):
        index = self.state["current"]
        self.by(submitter, "result.submitted", {"scenario": index, "data": data})
        self.by(confirmer, "result.confirmed", {"scenario": index})

    def walk(self, side: str, until: str | None = None, answers=None, dice=None, limit=80):
        """Play `side`'s steps until step `until` is current (or the side must wait)."""
        answers = {k: (list(v) if isinstance(v, list) else v) for k, v in (answers or {}).items()}
        for _ in range(limit):
            state = self.state
            step = refit_progress.current(state, side)
            if step is None or step.id == until or refit_progress.waiting(state, side):
                return step
            if step.checklist:
                kind = "ap.joint" if step.scope == "joint" else "ap.check"
                self.by(side, kind, {"step": step.id})
            elif step.repeatable and step.id not in answers:
                self.by(side, "ap.check", {"step": step.id})
            else:
                data = answers.get(step.id, {})
                if isinstance(data, list):  # a step asked twice (roll, then the choice after it)
                    asked = state["game"]["sides"][side].get("pending", {}).get(step.id)
                    rolled = asked and asked.get("half_day") == state["game"]["public"]["half_day"]
                    data = data[-1] if rolled else data[0]
                if callable(data):
                    data = data(state, side)
                try:
                    self.by(side, kind_name(step), data, dice=(dice or {}).get(step.id))
                except DomainError as error:
                    raise AssertionError(
                        f"{side} at {step.id}: {error.field}: {error.message}"
                    ) from error
        raise AssertionError(f"{side} did not reach {until}")

    def walk_both(self, until: str | None = None, answers=None, dice=None):
        for _ in range(40):
            before = {s: getattr(self.current(s), "id", None) for s in PLAYERS}
            for side in PLAYERS:
                self.walk(side, until, (answers or {}).get(side), (dice or {}).get(side))
            after = {s: getattr(self.current(s), "id", None) for s in PLAYERS}
            if after == before:
                return after
        raise AssertionError("the sides did not settle")


def in_the_first_refit_phase(club, people, aftermath=None) -> War:
    """CG I, server dice, after its Initial Scenario and first half-day: each side's
    end-of-scenario record (`aftermath(war)`: side -> its data; otherwise no CVP), the result
    confirmed, both sides walked to the Refit Phase's table steps (1.607)."""
    war = War(club, people, dice_mode="server", name="Somme")
    war.by("allied", "ap.declare", {"special": "none"})
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    records = aftermath(war) if aftermath else {}
    for side in PLAYERS:
        war.by(side, "ap.aftermath", records.get(side, {"cvp": 0}))
    war.result(
        {
            "allied_objectives_end": "23BB5",
            "german_objectives_end": "23R4",
            "allied_cvp": 7,
            "german_cvp": 5,
        }
    )
    war.walk_both(until="1.607", answers={"allied": QUIET, "german": QUIET})
    return war


def default_faces(key: str, expr: str) -> list[int]:
    """Sixes for the leader hardening DR (no leader: nothing to choose), threes otherwise."""
    count = int(expr.split("d")[0] or 1)
    return [6] * count if "/1.6113/" in key else [3] * count


def fix_server_dice(monkeypatch) -> None:
    """Muster's own dice, fixed for a test (never a setting): `default_faces` for every roll the
    server makes."""
    from campaigns.dice.pool import LiveProvider

    rolled = LiveProvider.provide

    def provide(self, key, expr, side, record):
        if self.mode == "server" and key not in self.entered:
            self.entered[key] = default_faces(key, expr)
        return rolled(self, key, expr, side, record)

    monkeypatch.setattr(LiveProvider, "provide", provide)


def refused(call, *args, **kwargs) -> DomainError:
    try:
        call(*args, **kwargs)
    except DiceNeeded:
        raise
    except DomainError as error:
        return error
    raise AssertionError("not refused")
