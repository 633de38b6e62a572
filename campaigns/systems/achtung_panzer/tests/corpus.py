"""Achtung! Panzer!'s corpus player (tests/journals/README.md): the campaigns its corpus journals
play, through the game's own harnesses, and the side values kept beside each journal.

`corpus` is the corpus's shared player (tests/journals/players.py: the club's people, seeded dice,
a test module wherever the commit being run keeps it). The same players run on the working tree
(`make_corpus.py achtung_panzer`: TODAY) and in a worktree of an earlier commit, which the files
of this game's earlier corpus directories name (make_corpus.py --again)."""

from __future__ import annotations

import random

TODAY = ("ap-cg1-table", "ap-cg2-table", "ap-cg3-table")  # a new corpus directory's journals
IN_PLAY = ("ap-cg1-table", "ap-cg3-table")  # stopped mid-procedure (tests/ops: after an upgrade)
EARLIER_TESTS = "tests.achtung_panzer"  # where its tests were before they moved to its folder


def _tests(corpus, module):
    return corpus.tests_of("achtung_panzer", module, EARLIER_TESTS)


def _objectives(variant):
    """Objective areas of the CG map (1.2): (allied end, german end) as area keys, split in two."""
    from campaigns.systems import get_system

    table = get_system("achtung_panzer").tables.bound("1.2", {})
    keys = [row.label for row in table.rows if table.value(row, "kind") != "bridge"]
    return keys[: len(keys) // 2], keys[len(keys) // 2 :]


def _listed_platoons(state, side):
    """Every AFV platoon of the side with a non-isolated retained AFV (the 1.6142 answer of a player
    who lists them all)."""
    units = state["game"]["sides"][side]["retained"]
    return {
        "platoons": sorted(
            {
                u["platoon"]
                for u in units
                if u.get("kind") in ("afv", "vehicle")
                and u.get("platoon")
                and not u.get("isolated")
            }
        )
    }


def _fanatic_hardening(state, side):
    """1.6112 as a v1 player could answer it: the first retained squad hardens and is ticked fanatic
    (v1 asked; from v2 only an elite MMC becomes fanatic, and always)."""
    pend = state["game"]["sides"][side]["pending"].get("1.6112") or {}
    squads = [u for u in state["game"]["sides"][side]["retained"] if u.get("kind") == "squad"]
    if not squads or pend.get("mmc", 0) + pend.get("heroes", 0) < 1:
        return {"action": "harden", "hardened": []}
    unit = squads[0]
    return {
        "action": "harden",
        "hardened": [{"unit": unit["id"], "becomes": f"{unit['type']}-hardened", "fanatic": True}],
    }


def _all_fpp_spent(state, side):
    """1.621 as a player spends every FPP: dummy mines, one FPP each (v1 then left the step, which
    applied only while FPP were left)."""
    fpp = state["game"]["sides"][side]["fpp"]
    return {"action": "buy", "item": "Dummy Mines", "count": fpp}


def _retained_edit(kind, **fields):
    """An ap.retained update of the side's first retained unit of `kind` (as a v1 player recorded
    what happened to a unit at the table: bogged, under recall, isolated …)."""

    def edit(state, side):
        unit = next(u for u in state["game"]["sides"][side]["retained"] if u.get("kind") == kind)
        return {"action": "update", "id": unit["id"], **fields}

    return edit


def _ap_v1(
    corpus, variant, half_days, stop, seed, listed_once=None, once=None, edit=None, buys=None
):
    """A CG through the harness of the commit (War: every step walked with plain answers, dice entered
    as the harness enters them), each side buying RGs in every Refit Phase, results and initiative
    chosen by a seeded random; stops at `stop` in the last Refit Phase. `listed_once`: the side that
    lists its AFV platoons for 1.6142 in the third Refit Phase after a scenario, and never again (a
    v1 player, who listed the platoons that had been on the map when he chose to). `once`: (the
    Refit Phase's number, side, step, answer): one answer of one side in one Refit Phase. `edit`:
    (the Refit Phase's number, side, data(state, side)): an ap.retained event of that side as the
    Refit Phase begins. `buys`: (the Refit Phase's number, side, RGs): what that side buys first in
    it."""
    from campaigns.errors import DomainError

    harness = _tests(corpus, "campaign_harness")

    club, named = corpus.people()
    war = harness.War(club, named, variant=variant, dice_mode="entered", name=f"Somme {variant}")
    both = {"allied": harness.QUIET, "german": harness.QUIET}
    allied_end, german_end = _objectives(variant)
    rng = random.Random(seed)

    def buy(side, rgs):
        for rg in rgs:
            try:
                war.by(side, "ap.purchase", {"action": "buy", "rg": rg})
            except DomainError:
                pass

    refits = []  # the Refit Phases begun: the first is the Initial Scenario's purchases

    def refit(until=None):
        refits.append(until)
        answers = both
        if listed_once and len(refits) == 4:  # the Refit Phase keyed 5/30P in CG I
            answers = {**both, listed_once: {**harness.QUIET, "1.6142": _listed_platoons}}
        if edit and len(refits) == edit[0]:
            war.by(edit[1], "ap.retained", edit[2](war.state, edit[1]))
        if once and len(refits) == once[0]:
            answers = {**both, once[1]: {**harness.QUIET, once[2]: once[3]}}
        war.walk_both(until="1.619", answers=answers)
        if until == "1.619":
            return
        if buys and len(refits) == buys[0]:
            buy(buys[1], buys[2])
        buy("allied", ["I1", "I2", "F1"][: rng.randint(1, 2)])
        buy("german", ["I1", "F2", "A4"][: rng.randint(1, 2)])
        war.walk_both(until=until or "1.623", answers=answers)
        if until:
            return
        key = f"initiative:{war.public['half_day']}"
        sealed = war.state["sealed"].get(key)
        if sealed and sealed["open"]:
            war.by(
                "allied", "sealed.submitted", {"key": key, "choice": rng.choice(["attack", "idle"])}
            )
            war.by(
                "german", "sealed.submitted", {"key": key, "choice": rng.choice(["attack", "idle"])}
            )
        war.walk_both(answers=both)

    war.by("allied", "ap.declare", {"special": "none"})
    refit()
    for n in range(half_days):
        split = rng.randint(1, len(allied_end))
        war.result(
            {
                "allied_objectives_end": " ".join(allied_end[:split]),
                "german_objectives_end": " ".join(german_end + allied_end[split:]),
                "allied_cvp": rng.randint(0, 40),
                "german_cvp": rng.randint(0, 40),
            },
            *(("allied", "german") if n % 2 == 0 else ("german", "allied")),
        )
        if n == half_days - 1:
            if stop != "result":
                war.walk_both(until=stop, answers=both)
            break
        refit()
    return war.campaign


def ap_v1_cg1(corpus):
    """The CG I acceptance journal of the commit (3 half-days, dice entered, stopped after 1.617)."""
    War = _tests(corpus, "campaign_harness").War
    play_cg1 = _tests(corpus, "test_cg1_journal").play_cg1

    club, named = corpus.people()
    war = War(club, named, dice_mode="entered", name="Storming the Bridges")
    play_cg1(war)
    return war.campaign


def ap_table(corpus, variant, half_days, dice_mode, stop=None, undo=False):
    """A CG through table_play.py of the commit: every step answered as the page offers it
    (purchases, fortifications, the end of the scenario, escape, hardening …), notes, a correction."""
    table_play = _tests(corpus, "table_play")

    club, named = corpus.people()
    table = table_play.play_cg(
        club, named, variant=variant, dice_mode=dice_mode, half_days=half_days
    )
    if undo:
        table_play.correct_and_undo(table)
    if stop:
        index = table.state["current"]
        for side in ("allied", "german"):
            table.by(side, "ap.aftermath", table_play.aftermath(table.state, side))
        table.result(
            {
                "allied_objectives_end": "23BB5 23X3",
                "german_objectives_end": "23R4 23H4 hill_520",
                "allied_cvp": 9,
                "german_cvp": 4,
            },
            "german",
            "allied",
        )
        assert table.state["scenarios"][index]["status"] == "played"
        if stop != "result":
            table.both(stop_at=stop)
    return table.campaign


def ap_table_captured_afv(corpus):
    """CG I through table_play.py of the commit, the German recording at the end of each scenario a
    French AFV it captured (1.6142 then rolled only for platoons; from 707737a a captured AFV rolls
    as a platoon portion of its own, R-A23)."""
    table_play = _tests(corpus, "table_play")
    original = table_play.aftermath

    def aftermath(state, side):
        data = original(state, side)
        if side == "german":
            captured = {
                "kind": "afv",
                "type": "Somua S35",
                "nationality": "french",
                "captured": True,
            }
            data = {**data, "added": [*data["added"], captured]}
        return data

    table_play.aftermath = aftermath
    try:
        return ap_table(corpus, "cg1", 1, "server", stop="result")
    finally:
        table_play.aftermath = original


def players(corpus):
    return {
        "ap-v1-cg1": lambda: ap_v1_cg1(corpus),
        "ap-v1-cg2": lambda: _ap_v1(corpus, "cg2", 2, "1.616", seed=2),
        "ap-v1-cg3": lambda: _ap_v1(corpus, "cg3", 1, "1.6112", seed=3),
        "ap-v1-cg2-6-3p": lambda: _ap_v1(corpus, "cg2", 5, "1.619", seed=5),
        "ap-v1-cg1-fanatic": lambda: _ap_v1(
            corpus,
            "cg1",
            2,
            "result",
            seed=6,
            once=(2, "german", "1.6112", [{"action": "roll"}, _fanatic_hardening]),
        ),
        "ap-v1-cg1-fpp": lambda: _ap_v1(
            corpus, "cg1", 2, "result", seed=7, once=(1, "german", "1.621", _all_fpp_spent)
        ),
        "ap-v1-cg1-recalled": lambda: _ap_v1(
            corpus,
            "cg1",
            2,
            "result",
            seed=8,
            edit=(2, "german", _retained_edit("afv", status="recalled")),
        ),
        "ap-v1-cg1-bogged": lambda: _ap_v1(
            corpus,
            "cg1",
            2,
            "result",
            seed=9,
            edit=(2, "german", _retained_edit("afv", status="bogged")),
        ),
        "ap-v1-cg1-malfunctioned": lambda: _ap_v1(
            corpus,
            "cg1",
            2,
            "result",
            seed=10,
            edit=(2, "german", _retained_edit("afv", status="malfunctioned")),
        ),
        "ap-v1-cg1-lone-smc": lambda: _ap_v1(
            corpus,
            "cg1",
            2,
            "result",
            seed=11,
            edit=(2, "german", _retained_edit("leader", isolated=True)),
        ),
        "ap-v1-cg1-oba": lambda: _ap_v1(
            corpus, "cg1", 2, "result", seed=12, buys=(2, "allied", ["O1", "O1"])
        ),
        "ap-v1-cg1-platoon": lambda: _ap_v1(
            corpus, "cg1", 5, "1.6112", seed=4, listed_once="german"
        ),
        "ap-cg1-table": corpus.seeded(lambda: ap_table(corpus, "cg1", 1, "server", stop="1.6112")),
        "ap-v2-cg1-captured": corpus.seeded(lambda: ap_table_captured_afv(corpus)),
        "ap-cg2-table": corpus.seeded(
            lambda: ap_table(corpus, "cg2", 2, "server", stop="result", undo=True)
        ),
        "ap-cg3-table": corpus.seeded(lambda: ap_table(corpus, "cg3", 1, "server")),
    }


def side_values(state: dict) -> dict:
    """CPP, ELR, SAN, FPP of each side, the win:loss record, each half-day's type, winner, OP and
    CVP, the phase."""
    game = state["game"]
    pub = game["public"]
    out = {
        side: {k: game["sides"][side].get(k) for k in ("cpp", "elr", "san", "fpp")}
        for side in ("allied", "german")
    }
    for side in ("allied", "german"):
        out[side]["elr"] = _one_elr(out[side]["elr"])
    out["record"] = pub["record"]
    out["bridges_destroyed"] = pub["bridges_destroyed"]
    out["half_days"] = [
        {k: line.get(k) for k in ("half_day", "type", "winner", "op", "cvp")}
        for line in pub["roster"]
        if line.get("played")
    ]
    out["phase"] = pub["phase"]
    return out


def _one_elr(value):
    """Journals written before ELR by nationality (A!P! v5) kept one ELR per side; folded today they
    keep it for every nationality of the side, so they compare as that one number (R-A25)."""
    if isinstance(value, dict) and len(set(value.values())) == 1:
        return next(iter(value.values()))
    return value
