"""An Achtung! Panzer! CG III campaign ("Armor on the Somme") played through the services over
all 13 half-days (5/29A-6/4A): every Refit Phase step answered (the end of each scenario with
losses, escape, hardening, repairs, fortifications, purchases of several kinds and a purchase
given back, initiative chits), notes, a retained-unit update, results entered and confirmed.

The answers follow campaigns/systems/achtung_panzer/tests/table_play.py (the page guard's player), copied here
because benchmarks are not tests and never import them; they are a player's choices, not
rules. A step that refuses a choice (nothing left to buy, no CPP for a chit) gets the plain
answer instead, as a player at the table would.
"""

from __future__ import annotations

from campaigns.errors import DiceNeeded, DomainError
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from campaigns.systems.achtung_panzer import refit_progress
from campaigns.systems.achtung_panzer.steps.base import kind_name

SIDES = ("allied", "german")
ALLIED_BUYS = [
    {"rg": "I2"},
    {"rg": "O1", "pre_registered": True},
    {"rg": "I1", "reserve": True},
    {"rg": "T1"},
    {"rg": "G1", "on_map": True},
    {"rg": "A1"},
    {"rg": "F1"},
]
GERMAN_BUYS = [{"rg": "A2"}, {"rg": "O1"}, {"rg": "T1"}, {"rg": "F3"}]
FORTIFY = [
    {"item": "Foxholes", "size": 3},
    {"item": "Wire"},
    {"item": "AP Mines", "factors": 2, "known": True},
    {"item": "Pillbox", "x": 1, "y": 2, "z": 3},
]
RESULT = {
    "allied_objectives_end": "23BB5 23X3 hill_520",
    "german_objectives_end": "23R4 23H4",
    "allied_cvp": 7,
    "german_cvp": 5,
    "allied_oba_missions": 1,
    "german_half_boards": 1,
}
AFV = ("afv", "vehicle")


class Game:
    """One A!P! campaign and its people: `players` side -> user, `organizer`, `referee`."""

    def __init__(
        self, club, organizer, players: dict, referee, variant="cg3", name="Armor on the Somme"
    ):
        self.players, self.submissions = players, 0
        self.campaign = svc.create_campaign(
            club=club,
            user=organizer,
            system="achtung_panzer",
            variant=variant,
            name=name,
            options={"dice_mode": "server"},
        )
        for side, user in players.items():
            svc.assign_player(self.campaign, organizer, side=side, username=user.username)
        svc.assign_referee(self.campaign, organizer, username=referee.username)
        submit(self.campaign, organizer, "campaign.started")

    @property
    def state(self) -> dict:
        self.campaign.refresh_from_db()
        return current_state(self.campaign)

    def side(self, side: str) -> dict:
        return self.state["game"]["sides"][side]

    def by(self, side: str, kind: str, data=None) -> None:
        self.campaign.refresh_from_db()
        submit(self.campaign, self.players[side], kind, data or {})
        self.submissions += 1

    def attempt(self, side: str, kind: str, data) -> bool:
        try:
            self.by(side, kind, data)
            return True
        except (DomainError, DiceNeeded):
            return False

    # --- the Refit Phase, one step at a time ------------------------------------------------------
    def refit(self, side: str, limit: int = 80) -> None:
        for _ in range(limit):
            state = self.state
            step = refit_progress.current(state, side)
            if step is None or refit_progress.waiting(state, side):
                return
            settle = refit_progress.without_decision(state, side, step)
            if settle:
                self.by(side, *settle)
            else:
                self.decide(state, side, step)
        raise RuntimeError(f"{side}'s Refit Phase did not settle")

    def both(self, rounds: int = 12) -> None:
        for _ in range(rounds):
            before = {s: getattr(refit_progress.current(self.state, s), "id", None) for s in SIDES}
            for side in SIDES:
                self.refit(side)
            if {
                s: getattr(refit_progress.current(self.state, s), "id", None) for s in SIDES
            } == before:
                return

    def decide(self, state, side, step) -> None:
        units = state["game"]["sides"][side]["retained"]
        pending = state["game"]["sides"][side].get("pending", {}).get(step.id) or {}
        if pending.get("half_day") != state["game"]["public"]["half_day"]:
            pending = {}
        kind = kind_name(step)
        answer = _ANSWERS.get(step.id)
        if answer is None:
            raise RuntimeError(f"no answer for {step.id}")
        answer(self, state, side, step, kind, units, pending)
        after = self.state
        if (
            refit_progress.current(after, side) is step
            and step.repeatable
            and not after["game"]["sides"][side].get("pending", {}).get(step.id)
        ):
            self.by(side, "ap.check", {"step": step.id})  # done with a repeatable step


def _aftermath(game, state, side, step, kind, units, pending):
    game.by(side, kind, aftermath(state, side))


def _escape(game, state, side, step, kind, units, pending):
    if pending:
        outcomes = [
            {"stack": s["stack"], "unit": s["units"][0], "becomes": ""} for s in pending["stacks"]
        ]
        game.by(side, kind, {"action": "resolve", "outcomes": outcomes})
        return
    isolated = [u["id"] for u in units if u.get("isolated")]
    game.by(side, kind, {"action": "roll", "stacks": [{"units": [u]} for u in isolated]})


def _hardening(game, state, side, step, kind, units, pending):
    mmc = [
        u["id"]
        for u in units
        if u["kind"] in ("squad", "half_squad", "crew") and not u.get("vehicular")
    ]
    if not pending:  # the MMC named with the DR (A!P! v6): the first it allows harden
        order = [{"unit": u, "becomes": "548"} for u in mmc[:2]]
        game.by(side, kind, {"action": "roll", "hardened": order})
        return
    allowed = pending.get("mmc", 0) + pending.get("heroes", 0)
    if not game.attempt(
        side,
        kind,
        {
            "action": "harden",
            "hardened": [{"unit": u, "becomes": "548"} for u in mmc[: min(allowed, 2)]],
        },
    ):
        game.by(side, kind, {"action": "harden", "hardened": []})


def _leaders(game, state, side, step, kind, units, pending):
    if pending:
        from campaigns.journal.context import Ctx
        from campaigns.systems.achtung_panzer import SYSTEM
        from campaigns.systems.achtung_panzer.steps.leaders import candidates

        outcome = next(iter(pending["outcomes"]))
        who = candidates(
            Ctx.reading(SYSTEM, state), state, side, pending, pending["outcomes"][outcome]["leader"]
        )
        game.by(
            side,
            kind,
            {
                "action": "resolve",
                "win_drm": outcome,
                "leader": who[0]["id"] if who else "",
                "becomes": "9-2" if who else "",
            },
        )
        return
    heroic = [
        {"unit": u["id"], "becomes": "9-1"}
        for u in units
        if u["kind"] in ("leader", "armor_leader") and u["status"] == "heroic"
    ]
    game.by(
        side,
        kind,
        {
            "action": "roll",
            "leader_kind": "infantry",
            "heroic": heroic,
            "nationality": "german" if side == "german" else "french",
        },
    )


def _immobilized(game, state, side, step, kind, units, pending):
    abandoned = [
        u
        for u in units
        if u["kind"] in AFV and u["status"] == "abandoned" and not u.get("isolated")
    ]
    crews = [u for u in units if u["kind"] in ("crew", "half_squad", "squad")]
    remanned = [{"afv": abandoned[0]["id"], "by": crews[0]["id"]}] if abandoned and crews else []
    manned = {r["afv"] for r in remanned}
    rolls = [
        {"afv": u["id"], "armor_leader_drm": -1}
        for u in units
        if u["kind"] in AFV
        and (u["status"] == "immobilized" or u.get("immobilized"))
        and (u["status"] != "abandoned" or u["id"] in manned)
    ]
    if not game.attempt(side, kind, {"remanned": remanned, "rolls": rolls}):
        game.by(side, kind, {"remanned": [], "rolls": [r for r in rolls if r["afv"] not in manned]})


def _repair(game, state, side, step, kind, units, pending):
    weapons = [
        {"unit": u["id"]}
        for u in units
        if u["kind"] in ("sw", "gun") and u["status"] == "malfunctioned" and not u.get("captured")
    ]
    for u in units:
        if u["kind"] in AFV and not u.get("captured"):
            known = u.get("weapons") or {}
            named = [w for w, status in known.items() if status == "malfunctioned"]
            if u["status"] == "malfunctioned" and not named:  # marked at the end of this scenario
                named = [next((w for w in ("MA", *known) if known.get(w) != "disabled"), "MA")]
            weapons += [{"unit": u["id"], "weapon": w, "main_armament": w == "MA"} for w in named]
    game.by(side, kind, {"weapons": weapons})


def _captured(game, state, side, step, kind, units, pending):
    afvs = [u for u in units if u["kind"] in AFV and u.get("captured")]
    vehicular = [
        {"unit": u["id"], "weapon": w}
        for u in afvs
        for w, status in (u.get("weapons") or {"MA": "ok"}).items()
        if status == "ok"
    ]
    if not game.attempt(side, kind, {"vehicular": vehicular}):
        game.by(side, kind, {"vehicular": []})


def _replenish(game, state, side, step, kind, units, pending):
    if not game.attempt(
        side, kind, {"items": [{"kind": "wire", "location": "7D7", "position": "front_line"}]}
    ):
        game.by(side, kind, {"items": []})
    if refit_progress.current(game.state, side) is step:
        game.by(side, kind, {"items": []})


def _purchases(game, state, side, step, kind, units, pending):
    for buy in ALLIED_BUYS if side == "allied" else GERMAN_BUYS:
        game.attempt(side, kind, {"action": "buy", **buy})
    half_day = game.state["game"]["public"]["half_day"]
    bought = [
        p for p in game.side(side)["purchases"] if not p.get("given") and p["half_day"] == half_day
    ]
    if bought:  # give one back and buy it again: removal within the step
        game.by(side, kind, {"action": "remove", "purchase": bought[-1]["id"]})
        game.attempt(side, kind, {"action": "buy", "rg": bought[-1]["rg"]})


def _fortify(game, state, side, step, kind, units, pending):
    for item in FORTIFY:
        game.attempt(side, kind, {"action": "buy", **item})
    mine = game.side(side)["fortifications"]
    if mine:
        game.attempt(side, kind, {"action": "remove", "fortification": mine[-1]["id"]})


def _recon(game, state, side, step, kind, units, pending):
    if side != "german" or not game.attempt(side, kind, {"conduct": True, "extra_cpp": True}):
        game.by(side, kind, {"conduct": False})


def _fixed(data):
    return lambda game, state, side, step, kind, units, pending: game.by(side, kind, data)


_ANSWERS = {
    "1.600": _aftermath,
    "1.6066.losses": _fixed({"units": []}),  # nothing lost at the table in the map steps
    "1.6063": _escape,
    "1.6112": _hardening,
    "1.6113": _leaders,
    "1.6131": _immobilized,
    "1.6132": _repair,
    "1.6135": _captured,
    "1.615": _replenish,
    "1.618": _fixed({"ec": "Moist"}),
    "1.619.declare": _fixed({"special": "none"}),
    "1.619": _purchases,
    "1.621": _fortify,
    "1.622": _recon,
}


def aftermath(state, side) -> dict:
    """The end of the scenario with losses of every kind the Refit Phase reads."""
    by_kind: dict[str, list] = {}
    for unit in state["game"]["sides"][side]["retained"]:
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
    for leader in by_kind.get("leader", [])[:1]:
        rows.append({"unit": leader["id"], "status": "wounded"})
    for leader in by_kind.get("leader", [])[1:2]:
        rows.append({"unit": leader["id"], "status": "heroic"})
    afvs = by_kind.get("afv", [])
    for afv, status in zip(afvs, ("abandoned", "immobilized", "malfunctioned")):
        rows.append({"unit": afv["id"], "status": status})
    for weapon in by_kind.get("sw", [])[:1]:
        rows.append({"unit": weapon["id"], "status": "malfunctioned"})
    platoons = sorted({u["platoon"] for u in afvs if u.get("platoon")})
    return {
        "units": rows,
        "platoons_on_map": platoons,
        "cvp": 7 if side == "allied" else 5,
        "added": [{"kind": "sw", "type": "LMG", "captured": True}],
        "note": "Hard fighting at the bridges",
    }


def play(
    club,
    organizer,
    players: dict,
    referee,
    half_days: int = 13,
    log=None,
    watch=None,
    stop_at: tuple[int, str] | None = None,
    name: str = "Armor on the Somme",
) -> Game:
    """CG III from its Initial Scenario through `half_days` half-days (13: the whole calendar).

    `watch(game, n, where)`, if given, is called at the positions a page-weight test measures:
    n half-days played, `where` "play" (a scenario in play) or "refit" (its Refit Phase begun).
    `stop_at` (n, where) leaves the campaign at that position: (12, "refit") is the campaign
    stopped mid-Refit Phase in its 12th half-day, both sides' Refit forms on the page."""
    game = Game(club, organizer, players, referee, name=name)
    seen = watch or (lambda game, n, where: None)

    def watch(game, n, where):
        seen(game, n, where)
        if stop_at == (n, where):
            raise _Stop

    try:
        _play(game, half_days, log, watch)
    except _Stop:
        pass
    else:
        if stop_at is not None:
            raise RuntimeError(f"the CG III player did not reach {stop_at}")
    return game


class _Stop(Exception):
    """Raised where `stop_at` is reached: the campaign stays there."""


def _play(game: Game, half_days: int, log, watch) -> None:
    game.by("allied", "ap.declare", {"special": "none"})
    game.both()
    watch(game, 0, "play")
    for n in range(half_days):
        state = game.state
        if state["status"] != "active":
            break
        index = state["current"]
        game.by("allied", "note.added", {"scenario": index, "text": "We attack at dawn."})
        game.by(
            "german",
            "note.added",
            {"scenario": index, "text": "Hold the bridges.", "private": True},
        )
        for side in SIDES:
            game.by(side, "ap.aftermath", aftermath(game.state, side))
        game.by("allied", "result.submitted", {"scenario": index, "data": RESULT})
        game.by("german", "result.confirmed", {"scenario": index})
        watch(game, n + 1, "refit")
        game.both()
        if game.state["status"] != "active":
            break
        first = next((u for u in game.side("allied")["retained"] if u["kind"] == "squad"), None)
        if first is not None and game.state["game"]["public"]["phase"] == "refit":
            game.attempt(
                "allied", "ap.retained", {"action": "update", "id": first["id"], "note": "moved"}
            )
        key = f"initiative:{game.state['game']['public']['half_day']}"
        for side, choice in (("allied", "attack"), ("german", "idle")):
            if not game.attempt(side, "sealed.submitted", {"key": key, "choice": choice}):
                game.attempt(side, "sealed.submitted", {"key": key, "choice": "idle"})
        game.both()
        watch(game, n + 1, "play")
        if log:
            log(
                f"    CG III half-day {n + 1}: {state['scenarios'][index]['label']} played, "
                f"{game.campaign.last_seq} journal events"
            )
