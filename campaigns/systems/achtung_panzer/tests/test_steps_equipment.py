"""1.6131, 1.6132, 1.6135, 1.6142 (steps/equipment.py)."""

from __future__ import annotations

from campaigns.systems.achtung_panzer.steps import equipment
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_ctx,
    make_state,
    mod_values,
    rejects,
    roster_line,
    run,
    step_by_id,
    unit,
)

IMMOB = step_by_id(equipment.STEPS, "1.6131")
REPAIR = step_by_id(equipment.STEPS, "1.6132")
CAPTURED = step_by_id(equipment.STEPS, "1.6135")
WITHDRAW = step_by_id(equipment.STEPS, "1.6142")


def _state(units, **kw):
    return make_state(german={"retained": list(units)}, **kw)


def _units(state, side="german"):
    return {u["id"]: u for u in state["game"]["sides"][side]["retained"]}


def k(step, subject, side="german"):
    return (
        f"5/29P/{step}/german/{subject}" if side == "german" else f"5/29P/{step}/{side}/{subject}"
    )


# --- 1.6131 ----------------------------------------------------------------------------


def test_immobilization_every_modifier_and_rows():
    state = _state(
        [
            unit("T1", "afv", type="PzIIIF", status="immobilized", isolated=True),
            unit("T2", "afv", type="PzIIIF", status="immobilized"),
        ]
    )
    ctx = run(
        IMMOB,
        state,
        "german",
        {
            "rolls": [
                {
                    "afv": "T1",
                    "armor_leader_drm": -1,
                    "non_qualified": True,
                    "inexperienced_crew": True,
                },
                {"afv": "T2"},
            ]
        },
        dice={k("1.6131", "T1"): [1], k("1.6131", "T2"): [2]},
    )
    t1, t2 = state["game"]["sides"]["german"]["rolls"]
    assert mod_values(t1) == [("1.6131", -1), ("1.6131", 1), ("1.6131", 1), ("1.6131", 1)]
    assert t1["final"] == 1 - 1 + 3 and t1["row"] == "≥3"
    assert t2["final"] == 2 and t2["row"] == "≤2"
    units = _units(state)
    assert units["T1"]["status"] == "immobilized" and units["T2"]["status"] == "ok"
    assert set(ctx.provider.sides.values()) == {"german"}


def test_immobilization_needs_every_manned_immobilized_afv_and_only_those():
    state = _state(
        [
            unit("T1", "afv", status="immobilized"),
            unit("T2", "afv"),
            unit("T3", "afv", status="abandoned", immobilized=True),
        ]
    )
    rejects(IMMOB, state, "german", {"rolls": []}, "rolls")
    rejects(IMMOB, state, "german", {"rolls": [{"afv": "T1"}, {"afv": "T2"}]}, "rolls[1].afv")
    rejects(IMMOB, state, "german", {"rolls": [{"afv": "T1"}, {"afv": "T1"}]}, "rolls[1]")
    rejects(
        IMMOB, state, "german", {"rolls": [{"afv": "T1"}, {"afv": "T3"}]}, "rolls[1].afv"
    )  # abandoned


def test_remanning_an_abandoned_afv_then_it_rolls():
    state = _state(
        [
            unit("T3", "afv", status="abandoned", immobilized=True),
            unit("C", "crew"),
            unit("T4", "afv", status="abandoned", isolated=True),
            unit("T5", "afv", status="abandoned"),
        ]
    )
    rejects(
        IMMOB, state, "german", {"remanned": [{"afv": "T4", "by": "C"}]}, "remanned[0].afv"
    )  # isolated
    rejects(IMMOB, state, "german", {"remanned": [{"afv": "T3", "by": "T5"}]}, "remanned[0].by")
    rejects(
        IMMOB,
        state,
        "german",
        {"remanned": [{"afv": "T3", "by": "C"}, {"afv": "T5", "by": "C"}]},
        "remanned[1].by",
    )
    rejects(
        IMMOB, state, "german", {"remanned": [{"afv": "T3", "by": "C"}]}, "rolls"
    )  # now it must roll
    run(
        IMMOB,
        state,
        "german",
        {"remanned": [{"afv": "T3", "by": "C"}], "rolls": [{"afv": "T3"}]},
        dice={k("1.6131", "T3"): [3]},
    )
    t3 = _units(state)["T3"]
    assert t3["manned_by"] == "C" and t3["status"] == "immobilized"


# --- 1.6132 ----------------------------------------------------------------------------


def test_weapon_repair_sw_and_vehicular():
    state = _state(
        [
            unit("M", "sw", type="LMG", status="malfunctioned", isolated=True),
            unit("N", "sw", type="MMG", status="malfunctioned"),
            unit(
                "T", "afv", type="PzIIIF", weapons={"MA": "malfunctioned", "CMG": "malfunctioned"}
            ),
        ]
    )
    run(
        REPAIR,
        state,
        "german",
        {
            "weapons": [
                {"unit": "M", "non_qualified": True},  # 1 +1 +1 = 3: eliminated
                {"unit": "N"},  # 2: repaired
                {"unit": "T", "weapon": "MA", "main_armament": True},  # 5 -2 = 3: disabled, recall
                {"unit": "T", "weapon": "CMG"},  # 4 -2 = 2: repaired
            ]
        },
        dice={
            k("1.6132", "M"): [1],
            k("1.6132", "N"): [2],
            k("1.6132", "T/MA"): [5],
            k("1.6132", "T/CMG"): [4],
        },
    )
    m, n, ma, cmg = state["game"]["sides"]["german"]["rolls"]
    assert mod_values(m) == [("1.6132", 1), ("1.6132", 1)] and m["row"] == "≥3"
    assert (
        mod_values(ma) == [("1.6132", -2)] and ma["final"] == 3 and ma["effect"]["recall"] is True
    )
    assert cmg["final"] == 2 and cmg["row"] == "≤2"
    units = _units(state)
    assert "M" not in units and units["N"]["status"] == "ok"
    assert (
        units["T"]["weapons"] == {"MA": "disabled", "CMG": "ok"}
        and units["T"]["status"] == "recalled"
    )


def test_weapon_repair_refusals():
    state = _state(
        [
            unit("M", "sw", status="malfunctioned"),
            unit("OK", "sw"),
            unit("C", "sw", status="malfunctioned", captured=True),
            unit("T", "afv", weapons={"MA": "ok"}),
        ]
    )
    rejects(REPAIR, state, "german", {"weapons": []}, "weapons")  # M must roll
    rejects(
        REPAIR, state, "german", {"weapons": [{"unit": "M"}, {"unit": "OK"}]}, "weapons[1].unit"
    )
    rejects(REPAIR, state, "german", {"weapons": [{"unit": "M"}, {"unit": "C"}]}, "weapons[1].unit")
    rejects(
        REPAIR,
        state,
        "german",
        {"weapons": [{"unit": "M"}, {"unit": "T", "weapon": "MA"}]},
        "weapons[1].weapon",
    )
    rejects(
        REPAIR, state, "german", {"weapons": [{"unit": "M"}, {"unit": "T"}]}, "weapons[1].weapon"
    )
    rejects(REPAIR, state, "german", {"weapons": [{"unit": "M"}, {"unit": "M"}]}, "weapons[1]")


# --- 1.6135 ----------------------------------------------------------------------------


def test_captured_weapons():
    state = _state(
        [
            unit("A", "sw", type="LMG", captured=True),
            unit("B", "sw", type="MMG", captured=True),
            unit("C", "sw", type="HMG", captured=True, status="malfunctioned"),
            unit("T", "afv", captured=True, weapons={"MA": "ok", "CMG": "malfunctioned"}),
            unit("O", "sw"),
        ]
    )
    ctx = run(
        CAPTURED,
        state,
        "german",
        {
            "vehicular": [
                {"unit": "T", "weapon": "MA"},
                {"unit": "T", "weapon": "CMG", "malfunctioned": True},
            ]
        },
        dice={k("1.6135", "A"): [2], k("1.6135", "B"): [3], k("1.6135", "T/MA"): [6]},
    )
    units = _units(state)
    assert "A" in units and "B" not in units and "C" not in units and "O" in units
    assert (
        units["T"]["weapons"] == {"MA": "disabled", "CMG": "disabled"}
        and units["T"]["status"] == "ok"
    )
    assert sorted(ctx.provider.used) == sorted(
        [k("1.6135", "A"), k("1.6135", "B"), k("1.6135", "T/MA")]
    )
    rows = {
        r["effect"]["unit"] + str(r["effect"]["weapon"]): r["row"]
        for r in state["game"]["sides"]["german"]["rolls"]
    }
    assert rows == {"ANone": "≤2", "BNone": "≥3", "TMA": "≥3"}


def test_captured_vehicular_refusals():
    state = _state(
        [
            unit("T", "afv", weapons={"MA": "ok"}),
            unit("U", "afv", captured=True, weapons={"MA": "ok"}),
        ]
    )
    rejects(
        CAPTURED,
        state,
        "german",
        {"vehicular": [{"unit": "T", "weapon": "MA"}]},
        "vehicular[0].unit",
    )
    rejects(
        CAPTURED,
        state,
        "german",
        {"vehicular": [{"unit": "U", "weapon": "MA", "malfunctioned": True}]},
        "vehicular[0].weapon",
    )


# --- 1.6142 ----------------------------------------------------------------------------


def _platoon_state(roster=None, **kw):
    units = [
        unit("T1", "afv", platoon="p7"),
        unit("T2", "afv", platoon="p7", status="immobilized"),
        unit("T3", "afv", platoon="p7", isolated=True),
        unit("AL", "armor_leader", type="9-1", platoon="p7"),
        unit("S", "squad", platoon="p7"),
        unit("X", "afv", platoon="p8", isolated=True),
    ]
    return _state(units, roster=roster or [roster_line("5/29A", "allied")], **kw)


def test_withdrawal_withdrawn_eliminates_platoon_and_its_armor_leader():
    state = _platoon_state()
    ctx = run(WITHDRAW, state, "german", {"platoons": ["p7"]}, dice={k("1.6142", "p7"): [6]})
    report = last_roll(state, "german")
    assert report["row"] == "6" and mod_values(report) == []
    units = _units(state)
    assert set(units) == {"T3", "S", "X"} and units["T3"]["withdrawal_pending"] is True
    assert report["effect"]["eliminated"] == ["T1", "T2", "AL"]
    assert ctx.provider.sides == {k("1.6142", "p7"): "german"}


def test_withdrawal_retained_on_five():
    state = _platoon_state()
    run(WITHDRAW, state, "german", {"platoons": ["p7"]}, dice={k("1.6142", "p7"): [5]})
    assert last_roll(state, "german")["row"] == "≤5" and len(_units(state)) == 6


def test_withdrawal_losing_record_drm_after_three_half_days():
    two = [roster_line("5/29A", "allied"), roster_line("5/29P", "allied")]
    state = _platoon_state(roster=two)
    assert equipment.withdrawal_mods(make_ctx(state), state, "german") == []  # only 2 completed
    three = two + [roster_line("5/30A", "german")]  # 1 won : 2 lost = 1:2 -> -1
    state = _platoon_state(roster=three)
    run(WITHDRAW, state, "german", {"platoons": ["p7"]}, dice={k("1.6142", "p7"): [6]})
    report = last_roll(state, "german")
    assert mod_values(report) == [("1.6142", -1)] and report["final"] == 5 and report["row"] == "≤5"
    # 2 won : 1 lost -> no DRM (for the other side)
    assert equipment.withdrawal_mods(make_ctx(state), state, "allied") == []


def test_withdrawal_refusals():
    state = _platoon_state()
    rejects(WITHDRAW, state, "german", {"platoons": ["p8"]}, "platoons[0]")  # only isolated AFVs
    rejects(WITHDRAW, state, "german", {"platoons": ["p9"]}, "platoons[0]")
    rejects(WITHDRAW, state, "german", {"platoons": ["p7", "p7"]}, "platoons[1]")


def test_steps_with_nothing_to_roll_for_do_not_apply():
    empty = _state([unit("S", "squad")])
    assert not any(step.applies(empty, "german") for step in equipment.STEPS)
    state = _state([unit("T", "afv", platoon="p1"), unit("C", "sw", captured=True)])
    # An AFV in good order that was never on the map: only the captured SW rolls (1.6135).
    assert [s.id for s in equipment.STEPS if s.applies(state, "german")] == ["1.6135"]
    state = _state(
        [unit("T", "afv", platoon="p1", status="malfunctioned"), unit("C", "sw", captured=True)]
    )
    state["game"]["sides"]["german"]["platoons_on_map"] = ["p1"]  # from the end-of-scenario record
    assert [s.id for s in equipment.STEPS if s.applies(state, "german")] == [
        "1.6132",
        "1.6135",
        "1.6142",
    ]


def test_platoons_recorded_on_the_map_roll_for_withdrawal_without_being_listed():
    """1.6142's secret dr is mandatory: an empty submission still rolls every platoon that had an AFV
    on the map (end-of-scenario record) and still has a non-isolated AFV."""
    state = _state([unit("T1", "afv", platoon="p7"), unit("T2", "afv", platoon="p8")])
    state["game"]["sides"]["german"]["platoons_on_map"] = ["p7"]
    ctx = run(WITHDRAW, state, "german", {}, dice={k("1.6142", "p7"): [6]})
    assert ctx.provider.used == [k("1.6142", "p7")]  # p8 never left the board edge: no roll
    assert set(_units(state)) == {"T2"}  # 6: withdrawn (TH1.6142)
    state = _state([unit("T", "afv", status="abandoned")])
    assert IMMOB.applies(state, "german")
