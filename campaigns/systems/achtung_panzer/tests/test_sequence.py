"""The Refit Phase sequence through the real services: rulebook order, order enforcement,
the Initial Scenario path (1.5), sync points, checklists, phases and the end of a CG."""

import pytest

from campaigns.access import visibility
from campaigns.errors import DomainError
from campaigns.selectors.campaign_page import campaign_page
from campaigns.selectors.history import history
from campaigns.systems.achtung_panzer import SYSTEM, refit_marks, refit_progress, refit_steps
from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War, refused

pytestmark = pytest.mark.django_db

BOTH = {"allied": QUIET, "german": QUIET}
WIN_INITIAL = {"allied_objectives_end": "hill_520", "allied_cvp": 6, "german_cvp": 9}


@pytest.fixture
def war(club, people):
    return War(club, people)


def _events(war):
    return war.campaign.events.count()


def test_steps_are_in_rulebook_order():
    ids = [s.id for s in refit_steps.STEPS]
    numbers = [refit_steps._order_key(s) for s in refit_steps.STEPS]
    assert numbers == sorted(numbers)
    for earlier, later in [
        ("1.601", "1.6066"),
        ("1.6066", "1.6067"),
        ("1.6067", "1.607"),
        ("1.609", "1.6121"),
        ("1.6121", "1.6141"),
        ("1.6141", "1.616"),
        ("1.616", "1.619"),
        ("1.619", "1.625"),
    ]:
        assert ids.index(earlier) < ids.index(later)
    assert [s.id for s in refit_steps.STEPS if s.scope == "system"][:2] == ["1.6067", "1.6121"]
    assert refit_steps.STEPS[-1].id == "1.625"


def test_the_initial_scenario_runs_only_1_619_to_1_622_then_commences(war):
    pub = war.public
    assert pub["phase"] == "refit" and pub["initial"] and pub["half_day"] == "5/29A"
    listed = {
        line.id.split(":")[0]
        for line in SYSTEM.procedure(war.state, frozenset({"allied", "german"}))
    }
    assert listed == {s.id for s in refit_steps.STEPS if s.initial}
    assert "1.616" not in listed and "1.601" not in listed and "1.623" not in listed
    assert all(s.id.startswith(("1.619", "1.62")) for s in refit_steps.STEPS if s.initial)
    error = refused(war.by, "allied", "result.submitted", {"scenario": 0, "data": WIN_INITIAL})
    assert "Refit Phase is not finished" in error.message
    war.walk_both(answers=BOTH)
    pub = war.public
    assert pub["phase"] == "play"
    line = pub["roster"][0]
    # I.1: an Allied assault with a free attack chit; the OB: Allies set up and move first (AP-55).
    assert (line["type"], line["sets_up_first"], line["moves_first"]) == (
        "allied_assault",
        "allied",
        "allied",
    )
    assert line["attack_chits"] == {"allied": True, "german": False}
    assert (line["weather"], line["ec"]) == ("Overcast", "Moist")
    # 1.625, every nationality (CG14): French 3, British 4, German 3, German pioneers 5
    assert pub["elr"] == {
        "allied": {"french": 3, "british": 4},
        "german": {"german": 3, "german_pioneers": 5},
    }
    assert pub["san"] == {"allied": 2, "german": 3}
    assert line["elr"] == pub["elr"]  # the CG Roster keeps what was announced


def test_a_step_out_of_order_is_refused_naming_the_sides_own_step_and_changes_nothing(war):
    before = _events(war)
    error = refused(war.by, "allied", "ap.purchase", {"action": "buy", "rg": "I1"})
    assert error.message == (
        "Not yet: your side's current step is Allied declaration: Armor or British "
        "half-day (CG13), not Purchase Reinforcement Groups (1.619)."
    )
    error = refused(war.by, "german", "ap.check", {"step": "1.625"})
    assert "not confirmed this way" in error.message
    error = refused(war.by, "german", "ap.joint", {"step": "1.601"})
    assert "Refit Phase step" in error.message or "Not yet" in error.message
    assert _events(war) == before


def test_after_a_half_day_the_refit_starts_at_1_601_and_1_6067_waits_for_both_sides(war):
    war.walk_both(answers=BOTH)
    war.result(WIN_INITIAL)
    assert war.public["phase"] == "refit"
    # Neither side recorded the end of the scenario while playing: that comes first, then the map steps.
    assert war.current("allied").id == war.current("german").id == "1.600"
    war.by("allied", "ap.aftermath", {})
    assert war.current("allied").id == "1.601" and refit_progress.waiting(war.state, "allied")
    war.by("german", "ap.aftermath", {})
    assert war.current("allied").id == war.current("german").id == "1.601"
    assert refused(war.by, "allied", "ap.check", {"step": "1.607"}).message.startswith("Not yet")
    war.by(
        "german", "ap.joint", {"step": "1.601"}
    )  # a joint step is confirmed once, by either side
    assert war.current("allied").id == war.current("german").id == "1.602"
    war.walk_both(until="1.6066", answers=BOTH)
    assert war.public["roster"][0]["winner"] is None
    war.by("allied", "ap.joint", {"step": "1.6066"})
    # 1.6067 waits for each side's losses of the map steps (R-A19), then runs.
    assert war.current("allied").id == "1.6066.losses" and war.public["roster"][0]["winner"] is None
    war.by("allied", "ap.losses", {})
    assert war.public["roster"][0]["winner"] is None and refit_progress.waiting(war.state, "allied")
    war.by("german", "ap.losses", {})
    line = war.public["roster"][0]
    assert line["winner"] == "allied" and "Initial Scenario" in line["victory"]["text"]
    assert war.public["record"]["allied"]["won"] == 1 and line["op"] == {"allied": 3, "german": 0}


def test_sides_work_on_their_own_and_wait_at_the_new_half_day(war, people):
    war.walk_both(answers=BOTH)
    war.result(WIN_INITIAL)
    war.walk_both(until="1.607", answers=BOTH)
    war.walk("allied", answers=QUIET)
    assert war.current("allied").id == "1.6121" and refit_progress.waiting(war.state, "allied")
    assert war.current("german").id == "1.607"
    page = campaign_page(war.campaign, visibility.viewer_for(people["alice"], war.campaign))
    mine = {line.id: line.status for line in page.procedure if line.side == "allied"}
    theirs = {line.id: line.status for line in page.procedure if line.id.endswith(":german")}
    assert mine["1.607:allied"] == "done" and mine["1.6122:allied"] == "waiting"
    assert set(theirs.values()) <= {"done", "waiting"}
    assert all(line.side is None for line in page.procedure if line.id.endswith(":german"))
    assert {"ap.check", "ap.joint"}.isdisjoint(
        {t.kind for t in page.actions if t.side == "allied"} - {"ap.retained"}
    )
    war.walk("german", answers=QUIET)
    pub = war.public
    assert pub["half_day"] == "5/29P" and war.state["current"] == 1 and not pub["initial"]
    assert war.state["scenarios"][1]["status"] == "current"


def test_skipped_steps_show_only_to_their_own_side(war, people):
    war.walk_both(answers=BOTH)
    war.result(WIN_INITIAL)
    war.walk_both(until="1.6121", answers=BOTH)
    state = war.state
    skipped = refit_marks.skipped(state, "allied")
    assert skipped, "a side with no wounded leader skips 1.610"
    # Public marks are those of the shared steps only; a side's own steps are marked in private.
    public_marks = state["game"]["public"]["steps"][state["game"]["public"]["refit_key"]]
    assert set(public_marks) <= {s.id for s in refit_steps.STEPS if not refit_marks.is_own(s)}
    assert (
        "1.610" in state["game"]["sides"]["allied"]["marks"][state["game"]["public"]["refit_key"]]
    )
    bob = visibility.viewer_for(people["bob"], war.campaign)
    view = visibility.view_state(state, bob)
    assert "allied" not in view["game"]["sides"]
    assert view["game"]["public"]["reached"] == {
        "allied": "1.623",
        "german": "1.623",
    }  # both at the initiative
    lines = SYSTEM.procedure(state, frozenset({"german"}))
    assert not [line for line in lines if line.id.endswith(":allied") and line.status == "skipped"]


def test_side_events_are_described_by_their_label_only_and_hidden_from_the_other_side(war, people):
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("german", "ap.purchase", {"action": "buy", "rg": "I1"})
    event = war.campaign.events.filter(kind="ap.purchase").get()
    assert event.audience == "side" and event.side == "german"
    alice_history = history(war.campaign, visibility.viewer_for(people["alice"], war.campaign))
    assert not [
        h for h in alice_history if h.kind in ("ap.purchase", "dice.rolled") and h.side == "german"
    ]
    from campaigns.journal.records import Record

    assert (
        SYSTEM.describe(Record.from_event(event)) == "RG I1 bought"
    )  # read only by the German and the referee


def test_the_cg_ends_when_the_allies_control_every_objective(war):
    war.walk_both(answers=BOTH)
    war.result({"allied_objectives_end": "hill_520"})
    every = " ".join(row.label for row in SYSTEM.tables.bound("1.2").rows)
    war.walk_both(until="1.6066", answers=BOTH)
    war.by("allied", "ap.joint", {"step": "1.6066", "control": {"allied_objectives_end": every}})
    war.walk_both(answers=BOTH)
    state = war.state
    assert state["status"] == "finished" and state["winner"] == "allied"
    assert state["game"]["public"]["phase"] == "finished"
    assert state["game"]["public"]["roster"][0]["op"]["allied"] == 29


def test_cvp_before_1_6067_count_for_victory_after_it_only_privately(war, people):
    war.walk_both(answers=BOTH)
    war.result({"allied_objectives_end": hexes4(), "german_cvp": 15})  # 4 hexes: not enough
    war.walk_both(until="1.6064", answers=BOTH)
    war.by("german", "ap.cvp", {"cvp": 5, "note": "escape failed"})
    assert war.public["roster"][0]["cvp"]["german"] == 20
    war.walk_both(until="1.607", answers=BOTH)
    assert (
        war.public["roster"][0]["winner"] == "german"
    )  # CVP do not matter in the initial scenario
    war.by("allied", "ap.cvp", {"cvp": 7})
    assert war.public["roster"][0]["cvp"]["allied"] == 0
    assert war.side("allied")["cvp_after_victory"] == {"5/29A": 7}
    event = war.campaign.events.filter(kind="ap.cvp", side="allied").get()
    assert event.audience == "side"


def hexes4():
    return "23BB5 23X3 23R4 23H4"


def test_retained_units_are_added_updated_and_removed_with_a_reason(war):
    before = len(war.side("german")["retained"])
    war.by("german", "ap.retained", {"action": "add", "kind": "squad", "type": "467", "count": 2})
    units = war.side("german")["retained"][before:]
    assert [u["type"] for u in units] == ["467", "467"] and units[0]["nationality"] == "german"
    war.by(
        "german",
        "ap.retained",
        {
            "action": "update",
            "id": units[0]["id"],
            "type": "548",
            "reason": "battle hardened (A15)",
        },
    )
    changed = next(u for u in war.side("german")["retained"] if u["id"] == units[0]["id"])
    assert changed["type"] == "548" and changed["history"][0]["before"] == {"type": "467"}
    war.by(
        "german", "ap.retained", {"action": "remove", "id": units[1]["id"], "reason": "eliminated"}
    )
    assert war.side("german")["eliminated"][-1]["reason"] == "eliminated"
    error = refused(war.by, "german", "ap.retained", {"action": "remove", "id": "u999"})
    assert error.message == "Your side retains no unit u999."
    error = refused(war.by, "german", "ap.retained", {"action": "add", "kind": "squad"})
    assert error.field == "type"


def test_balance_1_31_gives_the_opponent_elr_4(club, people):
    war = War(club, people, options={"balance": "allied"}, name="Both want the Allies")
    # "ALLIED: Initial German ELR is 4": the German nationality's; pioneers keep CG14's 5
    assert war.side("allied")["elr"] == {"french": 3, "british": 4}
    assert war.side("german")["elr"] == {"german": 4, "german_pioneers": 5}
    with pytest.raises(DomainError):
        War(club, people, options={"balance": "french"}, name="Bad")


def test_given_rgs_become_purchases_of_the_initial_half_day(war):
    allied = war.side("allied")["purchases"]
    german = war.side("german")["purchases"]
    assert [p["rg"] for p in allied] == ["I2", "I2", "I3", "A3", "A2", "O1", "O4"]
    assert [p["rg"] for p in german] == ["I1", "I1", "I5", "G1", "A2"]
    assert all(p["given"] and p["cost"] == 0 and p["half_day"] == "5/29A" for p in allied + german)
    assert allied[5]["options"]["pre_registered"] is True
    assert (war.side("allied")["cpp"], war.side("german")["cpp"], war.side("german")["fpp"]) == (
        15,
        8,
        50,
    )
    hist = [(line["half_day"], line["hist"]) for line in war.public["roster"]]
    assert hist[0] == ("5/29A", {"allied": -2, "german": 1}) and hist[-1] == (
        "5/31P",
        {"allied": 0, "german": 1},
    )


@pytest.mark.parametrize(
    "variant, type_, moves_first, elr, cpp",
    [
        # CG II's OB: Allied ELR 2 ("unless noted otherwise", CG14), the French; British stay at 4
        (
            "cg2",
            "german_assault",
            "german",
            {"allied": {"french": 2, "british": 4}, "german": {"german": 3, "german_pioneers": 5}},
            {"allied": 10, "german": 12},
        ),
        (
            "cg3",
            "allied_assault",
            "allied",
            {"allied": {"french": 3, "british": 4}, "german": {"german": 3, "german_pioneers": 5}},
            {"allied": 15, "german": 8},
        ),
    ],
)
def test_cg2_and_cg3_start_from_their_own_initial_scenarios(
    club, people, variant, type_, moves_first, elr, cpp
):
    war = War(club, people, variant=variant, name=variant)
    assert {s: war.side(s)["cpp"] for s in ("allied", "german")} == cpp
    war.walk_both(answers=BOTH)
    pub = war.public
    assert pub["phase"] == "play" and pub["roster"][0]["type"] == type_
    assert pub["moves_first"] == moves_first and pub["elr"] == elr
    assert len(pub["roster"]) == len(war.state["scenarios"])
