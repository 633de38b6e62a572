"""The end of a scenario (aftermath.py) and what the Refit Phase reads from it: losses, the
states 1.603-1.6142 act on, CG8 exits, CG4's retained OBA modules, the club's CVP list."""

from __future__ import annotations

import copy

import pytest

from campaigns.errors import DomainError
from campaigns.schema.fields import clean_fields
from campaigns.systems.achtung_panzer import aftermath, refit_losses, refit_steps
from campaigns.systems.achtung_panzer.tests.step_harness import make_ctx, make_state, unit


def _state(units, side="allied", **private):
    return make_state(
        half_day="5/29A", phase="play", **{side: {"retained": list(units), **private}}
    )


def record(state, side, data, house_rules=None):
    ctx = make_ctx(state)
    if house_rules:
        state["house_rules"] = house_rules
    return aftermath.apply(state, side, clean_fields(aftermath.EVENT.fields, data), ctx)


def _units(state, side="allied"):
    return {u["id"]: u for u in state["game"]["sides"][side]["retained"]}


def test_what_happened_is_recorded_and_everything_else_is_ok():
    state = _state(
        [
            unit("S1", nationality="french", isolated=True, pocket="B"),
            unit("S2", nationality="french"),
            unit("L1", "leader", type="8-1", nationality="french", status="wounded"),
            unit("T1", "afv", type="S35", nationality="french", platoon="p4"),
            unit("S3", nationality="french"),
        ]
    )
    entry = record(
        state,
        "allied",
        {
            "units": [
                {"unit": "S2", "fate": "eliminated"},
                {"unit": "L1", "status": "heroic"},
                {"unit": "S3", "isolated": True, "pocket": "A", "encircled": True},
                {"unit": "T1", "status": "immobilized"},
            ],
            "added": [{"kind": "sw", "type": "MMG", "captured": True}],
            "platoons_on_map": ["p4"],
            "cvp": 2,
        },
    )
    units = _units(state)
    assert "S2" not in units and state["game"]["sides"]["allied"]["eliminated"][-1]["id"] == "S2"
    # S1 was isolated in pocket B last time; unticked now, it is recorded as ok and not isolated.
    assert (
        units["S1"]["isolated"] is False
        and units["S1"]["pocket"] is None
        and units["S1"]["status"] == "ok"
    )
    assert units["L1"]["status"] == "heroic"
    assert (units["S3"]["isolated"], units["S3"]["pocket"], units["S3"]["encircled"]) == (
        True,
        "A",
        True,
    )
    assert units["T1"]["status"] == "immobilized" and units["T1"]["immobilized"] is True
    mmg = [u for u in units.values() if u["type"] == "MMG"]
    assert (
        len(mmg) == 1 and mmg[0]["captured"] is True and "captured from the enemy" in mmg[0]["note"]
    )
    assert state["game"]["sides"]["allied"]["platoons_on_map"] == ["p4"]
    assert entry["cvp"] == 2 and state["game"]["public"]["cvp_reported"]["5/29A"] == {"allied": 2}


def test_refusals_change_nothing():
    state = _state(
        [unit("S1"), unit("F1", nationality="french"), unit("T1", "afv", platoon="p2")],
        side="german",
    )
    for data, field in [
        ({"units": [{"unit": "X9"}]}, "units[0].unit"),
        ({"units": [{"unit": "S1"}, {"unit": "S1", "fate": "eliminated"}]}, "units[1].unit"),
        (
            {"units": [{"unit": "S1", "disrupted": True}]},
            "units[0].disrupted",
        ),  # only French infantry (1.603)
        (
            {"units": [{"unit": "S1", "pocket": "A"}]},
            "units[0].pocket",
        ),  # a pocket is for an isolated unit
        ({"platoons_on_map": ["p9"]}, "platoons_on_map[0]"),
        ({"oba_fired": ["p2"]}, "oba_fired[0]"),
    ]:
        before = copy.deepcopy(state)
        with pytest.raises(DomainError) as caught:
            record(state, "german", data)
        assert caught.value.field == field and state == before
    record(state, "german", {})
    with pytest.raises(DomainError, match="already recorded"):
        record(state, "german", {})


def test_an_exit_under_recall_or_disrupted_is_an_elimination_cg8():
    state = _state(
        [
            unit("T1", "afv", nationality="french"),
            unit("T2", "afv", nationality="french"),
            unit("S1", nationality="french"),
        ]
    )
    record(
        state,
        "allied",
        {
            "units": [
                {"unit": "T1", "fate": "exited", "status": "recalled"},
                {"unit": "T2", "fate": "exited"},
                {"unit": "S1", "fate": "exited", "disrupted": True},
            ]
        },
    )
    units = _units(state)
    assert set(units) == {"T2"} and units["T2"]["exited"] == "5/29A"
    reasons = [e["reason"] for e in state["game"]["sides"]["allied"]["eliminated"]]
    assert all("(CG8)" in r for r in reasons) and len(reasons) == 2


def test_cvp_come_from_the_clubs_list_when_it_covers_every_loss():
    """A26.2 is not in the A!P! text: with the club's values (squad 2, leader 1 here) two squads
    and a leader lost are 2 + 2 + 1 = 5 CVP; without a value for a kind nothing is guessed."""
    rules = {"cvp.squad": {"value": 2, "book": None}, "cvp.leader": {"value": 1, "book": None}}
    state = _state([unit("S1"), unit("S2"), unit("L1", "leader", type="8-0"), unit("T1", "afv")])
    entry = record(
        state,
        "allied",
        {"units": [{"unit": u, "fate": "eliminated"} for u in ("S1", "S2", "L1")]},
        house_rules=rules,
    )
    assert entry["cvp"] == 5 and state["game"]["public"]["cvp_reported"]["5/29A"]["allied"] == 5
    state = _state([unit("S1"), unit("T1", "afv")])
    entry = record(
        state,
        "allied",
        {"units": [{"unit": u, "fate": "eliminated"} for u in ("S1", "T1")]},
        house_rules=rules,
    )
    assert (
        entry["cvp"] is None and "cvp_reported" not in state["game"]["public"]
    )  # no AFV value: entered


def _oba(pid, half_day="5/29A", **extra):
    return {
        "id": pid,
        "rg": "O1",
        "nationality": "german",
        "kind": "oba",
        "half_day": half_day,
        **extra,
    }


def test_cg4_an_oba_module_that_fired_no_mission_is_retained():
    """ "An OBA RG are retained if no Fire Missions were used": no mission logged → both kept; missions
    logged with one module → it fired; with two, the side's record says which."""
    line = {"half_day": "5/29A", "oba_missions": {"allied": 0, "german": 0}}
    state = _state([], side="german", purchases=[_oba("p1"), _oba("p2")])
    aftermath.oba_retention(state, "german", line)
    assert [p.get("retained_oba") for p in state["game"]["sides"]["german"]["purchases"]] == [
        True,
        True,
    ]

    line["oba_missions"]["german"] = 2
    state = _state([], side="german", purchases=[_oba("p1")])
    aftermath.oba_retention(state, "german", line)
    assert state["game"]["sides"]["german"]["purchases"][0]["fired"] == "5/29A"

    state = _state([], side="german", purchases=[_oba("p1"), _oba("p2")])
    record(state, "german", {"oba_fired": ["p2"]})
    aftermath.oba_retention(state, "german", line)
    p1, p2 = state["game"]["sides"]["german"]["purchases"]
    assert p1.get("retained_oba") is True and "fired" not in p1 and p2["fired"] == "5/29A"


def test_1_603_eliminates_disrupted_french_infantry_when_the_players_confirm_it():
    state = make_state(
        half_day="5/29A",
        allied={
            "retained": [
                unit("F1", nationality="french", disrupted=True),
                unit("F2", nationality="french"),
            ]
        },
    )
    step = refit_steps.BY_ID["1.603"]
    step.confirm(make_ctx(state), state, None)
    assert [u["id"] for u in state["game"]["sides"]["allied"]["retained"]] == ["F2"]
    assert "(1.603)" in state["game"]["sides"]["allied"]["eliminated"][-1]["reason"]


def test_1_6141_eliminates_mobile_non_isolated_afv_under_recall():
    state = make_state(
        german={
            "retained": [
                unit("T1", "afv", status="recalled"),
                unit("T2", "afv", status="recalled", isolated=True),
                unit("T3", "afv", status="recalled", immobilized=True),
                unit("T4", "afv"),
            ]
        }
    )
    refit_steps.BY_ID["1.6141"].confirm(make_ctx(state), state, "german")
    assert [u["id"] for u in state["game"]["sides"]["german"]["retained"]] == ["T2", "T3", "T4"]


def test_the_cvp_of_kinds_the_list_does_not_cover_are_entered_the_rest_counted():
    """The club's list covers squads (2) and leaders (1), not AFVs: a squad, a leader and an AFV lost
    with 5 CVP entered for the AFV are 2 + 1 + 5 = 8; a number entered with no uncovered unit lost is
    refused; the total, when given (the API, older journals), is taken as it is."""
    rules = {"cvp.squad": {"value": 2, "book": None}, "cvp.leader": {"value": 1, "book": None}}
    lost = [{"unit": u, "fate": "eliminated"} for u in ("S1", "L1", "T1")]
    units = [unit("S1"), unit("L1", "leader", type="8-0"), unit("T1", "afv", type="PzIIA")]
    state = _state(units)
    assert aftermath.uncovered(make_ctx(dict(state, house_rules=rules)), units) == ["afv"]
    entry = record(state, "allied", {"units": lost, "cvp_unlisted": 5}, house_rules=rules)
    assert entry["cvp"] == 8 and state["game"]["public"]["cvp_reported"]["5/29A"]["allied"] == 8
    state = _state(units)
    with pytest.raises(
        DomainError, match="Every unit marked lost is on the club's CVP list"
    ) as caught:
        record(state, "allied", {"units": lost[:2], "cvp_unlisted": 5}, house_rules=rules)
    assert caught.value.field == "cvp_unlisted"
    state = _state(units)
    assert (
        record(
            state, "allied", {"units": lost, "cvp": 11, "cvp_unlisted": None}, house_rules=rules
        )["cvp"]
        == 11
    )


def test_the_losses_step_asks_the_cvp_of_the_uncovered_kinds_only():
    from campaigns.systems.achtung_panzer.tests.step_harness import make_state as fresh

    rules = {"cvp.squad": {"value": 2, "book": None}, "cvp.leader": {"value": 1, "book": None}}
    units = [unit("S1"), unit("S2"), unit("T1", "afv", type="PzIIA")]
    state = fresh(half_day="5/29A", german={"retained": list(units)})
    state["house_rules"] = rules
    state["game"]["public"]["roster"][0].update(played=True, winner=None)
    ctx = make_ctx(state)
    data = clean_fields(refit_losses.LOSS_FIELDS, {"units": ["S1", "T1"]})
    with pytest.raises(DomainError) as caught:
        refit_losses.record_losses(ctx, state, "german", data, "1.6067")
    assert caught.value.field == "cvp_unlisted"
    assert caught.value.message.startswith("Enter the CVP of PzIIA AFV:")  # named, never by id
    assert caught.value.message.endswith("has no value for AFVs (PzIIA).")
    before = state["game"]["public"]["roster"][0]["cvp"]["german"]
    refit_losses.record_losses(ctx, state, "german", dict(data, cvp_unlisted=6), "1.6067")
    assert state["game"]["public"]["roster"][0]["cvp"]["german"] == before + 2 + 6
