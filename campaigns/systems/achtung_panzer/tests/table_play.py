"""A!P! campaigns played as a club plays them, through the real services: every step of the
Refit Phase answered from what the page offers (purchases of every kind, fortifications,
the end of the scenario with losses, escape, hardening, AFV repair, withdrawal, recon,
initiative), notes, retained-unit corrections, CVP in the RePh, a correction and an undo.

`Table.after` is called after every submission (every position the journal can stop at):
the page guard renders every page there for every viewer.
"""

from __future__ import annotations

from campaigns.errors import DiceNeeded, DomainError
from campaigns.services.journal import submit
from campaigns.systems.achtung_panzer import refit_progress
from campaigns.systems.achtung_panzer.steps.base import kind_name
from campaigns.systems.achtung_panzer.tests.campaign_harness import PLAYERS, War, default_faces

ALLIED_BUYS = [
    {"rg": "I2"},
    {"rg": "O1", "pre_registered": True},
    {"rg": "I1", "reserve": True},
    {"rg": "T1"},
    {"rg": "G1", "on_map": True},
    {"rg": "A1"},
    {"rg": "F1"},
    {"rg": "F2"},
]
GERMAN_BUYS = [{"rg": "A2"}, {"rg": "O1"}, {"rg": "T1"}, {"rg": "F3"}]
FORTIFY = [
    {"item": "Foxholes", "size": 3},
    {"item": "Wire"},
    {"item": "AP Mines", "factors": 2, "known": True},
    {"item": "Pillbox", "x": 1, "y": 2, "z": 3},
    {"item": "HIP", "unit": "squad"},
    {"item": "?", "count": 2},
    {"item": "Trench", "location": "23R4"},
]


class Table(War):
    """A War whose every submission is followed by `after(self)`."""

    def __init__(self, *args, after=None, **kwargs):
        self.after = after or (lambda table: None)
        self.submissions = {"allied": 0, "german": 0}
        super().__init__(*args, **kwargs)

    def act(self, who, kind, data=None, side=None, dice=None):
        result = super().act(who, kind, data, side, dice)
        self.after(self)
        return result

    def by(self, side, kind, data=None, dice=None):
        self.submissions[side] = self.submissions.get(side, 0) + 1
        return super().by(side, kind, data, dice)

    def attempt(self, side, kind, data):
        """A submission that may be refused (a limit, nothing to buy): refusals change nothing."""
        try:
            self.by(side, kind, data)
            return True
        except DomainError:
            return False

    # --- the Refit Phase as the page offers it ---------------------------------------------------
    def play_refit(self, side: str, stop_at: str | None = None, limit: int = 60) -> None:
        for _ in range(limit):
            state = self.state
            step = refit_progress.current(state, side)
            if (
                step is None
                or refit_progress.waiting(state, side)
                or (stop_at and step.id == stop_at)
            ):
                return
            settle = refit_progress.without_decision(state, side, step)
            if settle:
                self.by(side, *settle)
            else:
                self.decide(state, side, step)

    def decide(self, state, side, step) -> None:
        mine = state["game"]["sides"][side]
        units = mine["retained"]
        pending = mine.get("pending", {}).get(step.id) or {}
        if pending.get("half_day") != state["game"]["public"]["half_day"]:
            pending = {}
        kind = kind_name(step)
        if step.id == "1.600":
            self.by(side, kind, aftermath(state, side))
        elif step.id == "1.6063":
            if pending:
                outcomes = [
                    {"stack": s["stack"], "unit": s["units"][0], "becomes": ""}
                    for s in pending["stacks"]
                ]
                self.by(side, kind, {"action": "resolve", "outcomes": outcomes})
            else:
                isolated = [u["id"] for u in units if u.get("isolated")]
                self.by(
                    side,
                    kind,
                    {
                        "action": "roll",
                        "stacks": [{"units": isolated[:2], "distance": "adjacent"}]
                        + [{"units": [u]} for u in isolated[2:]],
                    },
                )
                if (
                    refit_progress.current(self.state, side) is step
                    and not self.state["game"]["sides"][side]["pending"]
                ):
                    self.by(side, "ap.check", {"step": step.id})
        elif step.id == "1.6112":
            mmc = [
                u["id"]
                for u in units
                if u["kind"] in ("squad", "half_squad", "crew") and not u.get("vehicular")
            ]
            if not pending:  # the MMC named with the DR (v6): the first it allows harden
                order = [{"unit": u, "becomes": "548"} for u in mmc[:2]]
                self.by(side, kind, {"action": "roll", "hardened": order})
                return
            allowed = pending["mmc"] + pending["heroes"]
            self.by(
                side,
                kind,
                {
                    "action": "harden",
                    "hardened": [{"unit": u, "becomes": "548"} for u in mmc[: min(allowed, 2)]],
                },
            )
        elif step.id == "1.6113":
            if pending:
                outcome = next(iter(pending["outcomes"]))
                from campaigns.journal.context import Ctx
                from campaigns.systems.achtung_panzer import SYSTEM
                from campaigns.systems.achtung_panzer.steps.leader_hardening import candidates

                who = candidates(
                    Ctx.reading(SYSTEM, state),
                    state,
                    side,
                    pending,
                    pending["outcomes"][outcome]["leader"],
                )
                self.by(
                    side,
                    kind,
                    {
                        "action": "resolve",
                        "win_drm": outcome,
                        "leader": who[0]["id"] if who else "",
                        "becomes": "9-2" if who else "",
                    },
                )
            else:
                heroic = [
                    {"unit": u["id"], "becomes": "9-1"}
                    for u in units
                    if u["kind"] in ("leader", "armor_leader") and u["status"] == "heroic"
                ]
                self.by(
                    side,
                    kind,
                    {
                        "action": "roll",
                        "leader_kind": "infantry",
                        "heroic": heroic,
                        "nationality": "german" if side == "german" else "french",
                    },
                )
        elif step.id == "1.6066.losses":
            self.by(side, kind, {"units": []})  # nothing lost at the table in the map steps
        elif step.id == "1.6131":
            abandoned = [
                u
                for u in units
                if u["kind"] in ("afv", "vehicle")
                and u["status"] == "abandoned"
                and not u.get("isolated")
            ]
            crews = [u for u in units if u["kind"] in ("crew", "half_squad", "squad")]
            remanned = (
                [{"afv": abandoned[0]["id"], "by": crews[0]["id"]}] if abandoned and crews else []
            )
            manned = {r["afv"] for r in remanned}
            rolls = [
                {"afv": u["id"], "armor_leader_drm": -1}
                for u in units
                if u["kind"] in ("afv", "vehicle")
                and (u["status"] == "immobilized" or u.get("immobilized"))
                and (u["status"] != "abandoned" or u["id"] in manned)
            ]
            self.by(side, kind, {"remanned": remanned, "rolls": rolls})
        elif step.id == "1.6132":
            weapons = [
                {"unit": u["id"]}
                for u in units
                if u["kind"] in ("sw", "gun")
                and u["status"] == "malfunctioned"
                and not u.get("captured")
            ]
            weapons += [
                {"unit": u["id"], "weapon": "MA", "main_armament": True}
                for u in units
                if u["kind"] in ("afv", "vehicle")
                and u["status"] == "malfunctioned"
                and not u.get("captured")
            ]
            self.by(side, kind, {"weapons": weapons})
        elif step.id == "1.6135":
            afvs = [u for u in units if u["kind"] in ("afv", "vehicle") and u.get("captured")]
            self.by(side, kind, {"vehicular": [{"unit": u["id"], "weapon": "MA"} for u in afvs]})
        elif step.id == "1.615":
            if not self.attempt(
                side,
                kind,
                {"items": [{"kind": "wire", "location": "7D7", "position": "front_line"}]},
            ):
                self.by(side, kind, {"items": []})
            if refit_progress.current(self.state, side) is step:
                self.by(side, kind, {"items": []})
        elif step.id == "1.618":
            self.by(side, kind, {"ec": "Moist"})
        elif step.id == "1.619.declare":
            self.by(side, kind, {"special": "none"})
        elif step.id == "1.619":
            for buy in ALLIED_BUYS if side == "allied" else GERMAN_BUYS:
                self.attempt(side, kind, {"action": "buy", **buy})
            bought = [
                p
                for p in self.side(side)["purchases"]
                if not p.get("given") and p["half_day"] == self.public["half_day"]
            ]
            if bought:  # give one back and buy it again: removal within the step
                self.by(side, kind, {"action": "remove", "purchase": bought[-1]["id"]})
                self.attempt(side, kind, {"action": "buy", "rg": bought[-1]["rg"]})
            self.by(side, "ap.check", {"step": "1.619"})
        elif step.id == "1.621":
            for item in FORTIFY:
                self.attempt(side, kind, {"action": "buy", **item})
            mine_now = self.side(side)["fortifications"]
            if mine_now:
                self.by(side, kind, {"action": "remove", "fortification": mine_now[-1]["id"]})
            self.by(side, "ap.check", {"step": "1.621"})
        elif step.id == "1.622":
            if side != "german" or not self.attempt(
                side, kind, {"conduct": True, "extra_cpp": True}
            ):
                self.by(side, kind, {"conduct": False})
        else:
            raise AssertionError(f"no answer for {step.id}")

    def initiative(self, allied="attack", german="idle"):
        key = f"initiative:{self.public['half_day']}"
        for side, choice in (("allied", allied), ("german", german)):
            if not self.attempt(side, "sealed.submitted", {"key": key, "choice": choice}):
                self.by(
                    side, "sealed.submitted", {"key": key, "choice": "idle"}
                )  # no CPP left for a chit

    def both(self, stop_at=None, rounds=12):
        for _ in range(rounds):
            before = {s: getattr(self.current(s), "id", None) for s in PLAYERS}
            for side in PLAYERS:
                self.play_refit(side, stop_at)
            if {s: getattr(self.current(s), "id", None) for s in PLAYERS} == before:
                return


def aftermath(state, side) -> dict:
    """The end of the scenario with losses of every kind the RePh reads."""
    units = state["game"]["sides"][side]["retained"]
    by_kind = {}
    for unit in units:
        by_kind.setdefault(unit["kind"], []).append(unit)
    rows = []
    squads = by_kind.get("squad", [])
    if len(squads) >= 4:
        rows += [
            {"unit": squads[0]["id"], "fate": "eliminated"},
            {"unit": squads[1]["id"], "fate": "captured"},
            {"unit": squads[2]["id"], "isolated": True, "pocket": "A", "encircled": True},
            {"unit": squads[3]["id"], "fate": "exited", "elite": True},
        ]
        if side == "allied" and len(squads) > 4:
            rows.append({"unit": squads[4]["id"], "disrupted": True})
    for leader in by_kind.get("leader", [])[:1]:
        rows.append({"unit": leader["id"], "status": "wounded"})
    for leader in by_kind.get("leader", [])[1:2]:
        rows.append({"unit": leader["id"], "status": "heroic"})
    afvs = by_kind.get("afv", [])
    if afvs:
        rows.append({"unit": afvs[0]["id"], "status": "abandoned"})
    if len(afvs) > 1:
        rows.append({"unit": afvs[1]["id"], "status": "immobilized"})
    if len(afvs) > 2:
        rows.append({"unit": afvs[2]["id"], "status": "malfunctioned"})
    for weapon in by_kind.get("sw", [])[:1]:
        rows.append({"unit": weapon["id"], "status": "malfunctioned"})
    platoons = sorted({u["platoon"] for u in afvs if u.get("platoon")})
    return {
        "units": rows,
        "platoons_on_map": platoons,
        "cvp": 7 if side == "allied" else 5,
        "added": [
            {"kind": "sw", "type": "LMG", "captured": True},
            {"kind": "hero", "type": "hero"},
        ],
        "note": "Hard fighting at the bridges",
    }


def play_cg(club, people, variant="cg1", dice_mode="server", after=None, half_days=1) -> Table:
    """A CG played for `half_days` half-days after its Initial Scenario, the next RePh included."""
    table = Table(
        club, people, variant=variant, dice_mode=dice_mode, after=after, name=f"Table {variant}"
    )
    table.by("allied", "ap.declare", {"special": "none"})
    table.both()
    for _ in range(half_days):
        index = table.state["current"]
        table.by("allied", "note.added", {"scenario": index, "text": "We attack at dawn."})
        table.by(
            "german",
            "note.added",
            {"scenario": index, "text": "Hold the bridges.", "private": True},
        )
        for side in PLAYERS:
            table.by(side, "ap.aftermath", aftermath(table.state, side))
        table.result(
            {
                "allied_objectives_end": "23BB5 23X3 hill_520",
                "german_objectives_end": "23R4 23H4",
                "allied_cvp": 7,
                "german_cvp": 5,
                "allied_oba_missions": 1,
                "german_half_boards": 1,
            }
        )
        table.both()
        first_squad = next(
            (u for u in table.side("allied")["retained"] if u["kind"] == "squad"), None
        )
        if first_squad is not None and table.public["phase"] == "refit":
            table.attempt(
                "allied",
                "ap.retained",
                {"action": "update", "id": first_squad["id"], "note": "moved"},
            )
        table.initiative()
        table.both()
    return table


def correct_and_undo(table: Table) -> None:
    """A correction of an Allied step agreed by the Germans, an undo proposed then rejected."""
    from campaigns.models import Event

    event = (
        Event.objects.filter(campaign=table.campaign, kind="ap.1.622", side="allied")
        .order_by("-seq")
        .first()
    )
    if event is not None:
        table.act(
            "alice",
            "proposal.made",
            {
                "action": "correct",
                "target": str(event.uid),
                "data": {"conduct": False, "extra_cpp": False},
                "reason": "typo",
            },
        )
        made = (
            Event.objects.filter(campaign=table.campaign, kind="proposal.made")
            .order_by("-seq")
            .first()
        )
        written = Event.objects.filter(campaign=table.campaign).count()
        try:
            table.act("bob", "proposal.approved", {"proposal": str(made.uid)})
        except (
            DomainError
        ) as error:  # a later event may no longer fit: refused with its reason, nothing written
            assert "After this change" in str(error), error
            assert Event.objects.filter(campaign=table.campaign).count() == written
        else:
            assert table.state["proposals"][str(made.seq)]["status"] == "applied"
            assert str(event.seq) in table.state["corrected"]
            assert Event.objects.filter(
                campaign=table.campaign, kind="proposal.applied", data__proposal=made.seq
            ).exists()
    note = Event.objects.filter(
        campaign=table.campaign, kind="note.added", audience="public"
    ).first()
    if note is not None:
        table.act(
            "alice", "proposal.made", {"action": "undo", "target": str(note.uid), "reason": "wrong"}
        )
        made = (
            Event.objects.filter(campaign=table.campaign, kind="proposal.made")
            .order_by("-seq")
            .first()
        )
        table.act("bob", "proposal.rejected", {"proposal": str(made.uid)})
        assert table.state["proposals"][str(made.seq)]["status"] == "rejected"
        assert str(note.seq) not in table.state["undone"]


__all__ = ["Table", "play_cg", "correct_and_undo", "DiceNeeded", "default_faces", "submit"]
