"""1.620 with entered dice: every roll hits the row the book gives for its final value, with every
DRM (boundaries included); given RGs roll in the initial refit; II.2 exempts the FT-17s.
Historical DRM 5/29A: Allied −2, German +1; 6/1A: Allied +1, German −2 (1.6161)."""

from __future__ import annotations

import copy

import pytest

from campaigns.errors import DiceNeeded
from campaigns.systems.achtung_panzer import elr, state as ap_state
from campaigns.systems.achtung_panzer.steps import purchases as P, reinforcements as R

from .rg_harness import Run, make_state, run, side_state


def bought(state, side, rg, nationality=None, **options):
    data = {
        "action": "buy",
        "rg": rg,
        "nationality": nationality,
        "on_map": False,
        "reserve": False,
        "pre_registered": False,
        "purchase": "",
    }
    data.update(options)
    run(P.run_purchase, state, side, data)
    return P.purchases(state, side)[-1]


def rich(cg="cg1", half_day="5/29A", special=None, **kw):
    return make_state(
        cg=cg,
        half_day=half_day,
        allied=side_state(cpp=99),
        german=side_state(cpp=99),
        special=special,
        **kw,
    )


def units(state, side, purchase, kind=None):
    by_id = {u["id"]: u for u in state["game"]["sides"][side]["retained"]}
    return [by_id[i]["type"] for i in purchase["units"] if kind is None or by_id[i]["kind"] == kind]


def last_roll(state, side):
    return state["game"]["sides"][side]["rolls"][-1]


# --- 1.6201 strength ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "faces, final, row, strength, squads",
    [
        ([1, 1], 3, "3-8", "full", 12),  # 2 +1 historical: just above "≤2"
        ([3, 4], 8, "3-8", "full", 12),
        ([4, 4], 9, "≥9", "depleted", 9),  # 8 +1: depleted
    ],
)
def test_german_strength_with_historical_drm(faces, final, row, strength, squads):
    state = rich()
    p = bought(state, "german", "I1")
    run(R.run_strength, state, "german", dice={"5/29A/1.6201/german/p1": faces})
    report = last_roll(state, "german")
    assert (report["final"], report["row"], report["result"]) == (
        final,
        row,
        {"strength": strength},
    )
    assert report["modifiers"] == [
        {"label": "Historical DRM (5/29A)", "rule": "1.6161", "value": 1}
    ]
    assert p["strength"] == strength and units(state, "german", p) == ["467"] * squads


def test_attached_adds_the_weapon_and_its_crew():
    state = rich()
    p = bought(state, "allied", "I2")  # French 1st Line: 437 3/2, 457 9/7
    dice = {"5/29A/1.6201/allied/p1": [2, 2], "5/29A/1.6201/allied/p1/attached": [1]}
    run(R.run_strength, state, "allied", dice=dice)  # 4 −2 = 2: Attached
    assert p["strength"] == "attached" and p["attached"] == "25LL"
    assert units(state, "allied", p, "squad") == ["437"] * 3 + ["457"] * 9  # full strength
    assert units(state, "allied", p, "gun") == ["25LL"] and units(state, "allied", p, "crew") == [
        "228"
    ]


@pytest.mark.parametrize(
    "die, item, kinds",
    [
        (3, "MMG", {"sw": ["MMG"], "half_squad": ["first-line HS"]}),
        (2, "81* Mortar", {"sw": ["81* Mortar"], "crew": ["228"]}),
    ],
)
def test_attached_sw_crews(die, item, kinds):
    state = rich(cg="cg2", half_day="6/1A")
    p = bought(state, "german", "I1")
    dice = {
        "6/1A/1.6201/german/p1": [1, 1],
        "6/1A/1.6201/german/p1/attached": [die],
    }  # 2 −2 = 0: Attached
    run(R.run_strength, state, "german", dice=dice)
    assert p["attached"] == item
    for kind, types in kinds.items():
        assert units(state, "german", p, kind) == types


def test_armor_is_never_attached():
    state = rich()
    p = bought(state, "allied", "A5")
    run(R.run_strength, state, "allied", dice={"5/29A/1.6201/allied/p1": [1, 1]})  # 2 −2 = 0
    assert last_roll(state, "allied")["result"] == {"strength": "attached"}
    assert (
        p["strength"] == "full"
        and p["attached"] is None
        and units(state, "allied", p) == ["LaW15T"] * 3
    )


@pytest.mark.parametrize(
    "record, mod",
    [
        ({"won": 1, "lost": 2}, -1),  # 3 played, 1/3 won: tier 1
        ({"won": 1, "lost": 3}, -2),  # 4 played, 1/4 won: tier 2 only, not both
        ({"won": 2, "lost": 2}, None),
    ],
)
def test_balance_provision(record, mod):
    winners = ["german"] * record["won"] + ["allied"] * record["lost"]
    roster = [{"half_day": f"x{i}", "winner": w} for i, w in enumerate(winners)]
    state = rich(
        record={"allied": {"won": record["lost"], "lost": record["won"]}, "german": record},
        roster=roster,
    )
    bought(state, "german", "I1")
    run(R.run_strength, state, "german", dice={"5/29A/1.6201/german/p1": [4, 4]})
    mods = last_roll(state, "german")["modifiers"]
    assert [m["rule"] for m in mods] == (["1.6161", "1.32"] if mod else ["1.6161"])
    if mod:
        assert mods[1]["value"] == mod
        assert last_roll(state, "german")["final"] == 9 + mod


def test_unit_type_subtables():
    state = rich(cg="cg3")
    a2 = bought(state, "german", "A2")
    t2 = bought(state, "german", "T2")
    a3 = bought(state, "german", "A3")
    dice = {
        "5/29A/1.6201/german/p1": [3, 3],
        "5/29A/1.6201/german/p1/type": [5],
        "5/29A/1.6201/german/p2": [4, 4],
        "5/29A/1.6201/german/p2/type": [4],
        "5/29A/1.6201/german/p3": [3, 3],
        "5/29A/1.6201/german/p3/type": [6],
    }
    run(R.run_strength, state, "german", dice=dice)
    assert units(state, "german", a2) == ["PzKwII F"] * 4  # m: 5-6 → F
    assert units(state, "german", t2) == ["Opel Blitz"] * 4  # n: 1-4; 8 +1 = 9 depleted: 5/4 → 4
    assert units(state, "german", a3) == ["Pz38t(A)"] * 4  # p: 5-6


@pytest.mark.parametrize(
    "die, strength_dice, expected",
    [
        (1, [3, 3], ["PSW231(8)"] * 4),
        (4, [3, 3], ["PSW 221"] * 2 + ["PSW 222"] * 3),
        (
            6,
            [5, 5],
            ["PSW 221"] * 1 + ["PSW 222"] * 2,
        ),  # 10 +1: depleted, the chart's right-hand numbers
    ],
)
def test_psw_chart(die, strength_dice, expected):
    state = rich()
    p = bought(state, "german", "A10")
    run(
        R.run_strength,
        state,
        "german",
        dice={"5/29A/1.6201/german/p1": strength_dice, "5/29A/1.6201/german/p1/type": [die]},
    )
    assert units(state, "german", p) == expected


def test_french_tank_tables():
    state = rich(special="armor")
    a1, a2, a3 = (
        bought(state, "allied", "A1"),
        bought(state, "allied", "A2"),
        bought(state, "allied", "A3"),
    )
    dice = {
        "5/29A/1.6201/allied/p1": [4, 4],
        "5/29A/1.6201/allied/p1/type": [2],
        "5/29A/1.6201/allied/p2": [4, 4],
        "5/29A/1.6201/allied/p2/type": [6, 6],
        "5/29A/1.6201/allied/p3": [6, 6],
        "5/29A/1.6201/allied/p3/type": [3],
    }
    run(R.run_strength, state, "allied", dice=dice)
    assert units(state, "allied", a1) == ["AMR33"] * 4  # 8 −2 = 6 full; 1-2 → AMR33
    assert units(state, "allied", a2) == ["R35(L)"] * 4  # DR 12 → R35(L)
    assert units(state, "allied", a3) == ["Souma"] * 3  # 12 −2 = 10 depleted; 3-6 → Souma


def test_british_carriers_roll_a_half_squad_each():
    state = rich(special="british")
    p = bought(state, "allied", "T1")
    dice = {"5/29A/1.6201/allied/p1": [3, 3]}
    dice.update(
        {f"5/29A/1.6201/allied/p1/carrier{n}": [f] for n, f in zip(range(1, 6), [1, 4, 5, 6, 2])}
    )
    run(R.run_strength, state, "allied", dice=dice)
    assert units(state, "allied", p, "afv") == ["Car A"] * 4 + ["Car B"]
    assert units(state, "allied", p, "half_squad") == ["247", "247", "248", "248", "247"]


def test_missing_dice_are_asked_for():
    state = rich()
    bought(state, "german", "I1")
    bought(state, "german", "A2")
    with pytest.raises(DiceNeeded) as needed:
        run(R.run_strength, state, "german", dice={})
    assert {d["key"] for d in needed.value.needs} >= {
        "5/29A/1.6201/german/p1",
        "5/29A/1.6201/german/p2",
    }


# --- given RGs in the initial refit ------------------------------------------------------------------


def initial(cg):
    state = {"house_rules": {}}
    state["game"] = {"public": {"half_day": "x", "rolls": []}, "sides": {}}
    hist = Run(state).ctx().table("1.6161")
    state["game"] = ap_state.initial_state(
        cg, {}, hist, 4, lambda side, value: elr.groups(value, side)
    )
    return state


def test_given_rgs_roll_in_the_initial_refit():
    state = initial("cg1")
    german = {p["id"]: p for p in state["game"]["sides"]["german"]["purchases"]}
    assert [p["rg"] for p in german.values()] == ["I1", "I1", "I5", "G1", "A2"]
    dice = {f"5/29A/1.6201/german/{pid}": [3, 3] for pid in ("p1", "p2", "p3", "p5")}
    run(R.run_strength, state, "german", dice=dice)  # no type roll for the OB's PzIIA
    assert units(state, "german", german["p5"]) == ["PzIIA"] * 4
    assert units(state, "german", german["p1"]) == ["467"] * 12
    assert german["p4"]["strength"] is None  # the AT battery rolls at 1.6204
    run(
        R.run_oba_and_guns, state, "german", dice={"5/29A/1.6204/german/p4": [4, 4]}
    )  # 8 +1 = 9: depleted
    assert german["p4"]["guns"] == 3 and units(state, "german", german["p4"], "gun") == ["37L"] * 3


def test_ii2_ft17_platoon_is_exempt():
    state = initial("cg2")
    allied = state["game"]["sides"]["allied"]["purchases"]
    ft17 = next(p for p in allied if p["rg"] is None)
    dice = {f"6/1A/1.6201/allied/{p['id']}": [6, 6] for p in allied if p["rg"] == "I1"}
    run(R.run_strength, state, "allied", dice=dice)  # no DR for the FT-17s
    assert ft17["strength"] == "full"
    assert units(state, "allied", ft17) == ["FT-17c"] * 2 + ["FT-17m"] * 3 + ["FT-17 75BS"]
    assert not R.STEPS[4].applies(state, "allied")  # 1.6206: no armor leader for them
    run(R.run_armor_leaders, state, "allied")
    assert ft17["armor_leader"] is None


# --- 1.6202 support weapons -------------------------------------------------------------------------


def _infantry(rg, side="german", strength_dice=(3, 3), nationality=None):
    state = rich()
    p = bought(state, side, rg, nationality)
    run(R.run_strength, state, side, dice={f"5/29A/1.6201/{side}/p1": list(strength_dice)})
    return state, p


def test_sw_full_strength():
    state, p = _infantry("I1")
    key = "5/29A/1.6202/german/p1/sw"
    dice = {
        f"{key}/mmg/1": [4],
        f"{key}/lmg/1": [6],
        f"{key}/lmg/2": [6],
        f"{key}/atr/1": [5],
        f"{key}/mtr/1": [6],
    }
    run(R.run_support_weapons, state, "german", dice=dice)
    # MMG ≤4 yes (boundary); both LMG fail but 2 of a type: one always; ATR ≤5 yes; MTR 6 no.
    assert p["sw"] == ["MMG", "LMG", "ATR"]
    assert units(state, "german", p, "sw") == ["MMG", "LMG", "ATR"]


def test_sw_depleted_adds_one():
    state, p = _infantry("I1", strength_dice=(4, 4))
    key = "5/29A/1.6202/german/p1/sw"
    dice = {
        f"{key}/mmg/1": [4],
        f"{key}/lmg/1": [4],
        f"{key}/lmg/2": [5],
        f"{key}/atr/1": [4],
        f"{key}/mtr/1": [1],
    }
    run(R.run_support_weapons, state, "german", dice=dice)
    rolls = [r for r in state["game"]["sides"]["german"]["rolls"] if r["step"] == "1.6202"]
    assert rolls[0]["modifiers"] == [{"label": "Depleted RG", "rule": "1.6202", "value": 1}]
    assert [r["final"] for r in rolls] == [5, 5, 6, 5, 2]
    assert p["sw"] == ["LMG", "ATR", "MTR"]  # MMG 5 > 4; LMG 5 ≤5, 6 > 5; ATR 5; MTR 2


def test_always_received_sw_need_no_roll():
    state, p = _infantry("I4")  # pioneers: LMG 1^5, DC 2 always
    run(R.run_support_weapons, state, "german", dice={"5/29A/1.6202/german/p1/sw/lmg/1": [6]})
    assert p["sw"] == ["DC", "DC"]


def test_hw_platoon_full_gets_its_crews():
    state, p = _infantry("I5")
    run(R.run_support_weapons, state, "german")
    assert p["sw"] == ["MMG", "MMG", "81* MTR", "81* MTR"]
    assert units(state, "german", p, "crew") == ["247", "247", "228", "228"]  # footnote t


def test_hw_platoon_depleted_loses_one_random_weapon():
    state, p = _infantry("I5", strength_dice=(4, 4))
    dice = {"5/29A/1.6202/german/p1/hw_lost/1": [5], "5/29A/1.6202/german/p1/hw_lost/2": [3]}
    run(R.run_support_weapons, state, "german", dice=dice)  # 5 > 4 re-rolled; 3 → the first mortar
    assert p["sw"] == ["MMG", "MMG", "81* MTR"] and p["sw_lost"] == "81* MTR"
    assert units(state, "german", p, "crew") == ["247", "247", "228"]


# --- 1.6204 OBA and guns ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "side, rg, faces, final, ammo",
    [
        ("german", "O1", [1, 2], 4, "normal"),  # 3 +1: just out of "≤3"
        ("german", "O1", [1, 1], 3, "plentiful"),
        ("german", "O1", [4, 5], 10, "scarce"),
        ("allied", "O1", [5, 5], 8, "normal"),  # 10 −2
        ("allied", "O1", [5, 6], 9, "scarce"),
    ],
)
def test_oba_ammo(side, rg, faces, final, ammo):
    state = rich()
    p = bought(state, side, rg)
    run(R.run_oba_and_guns, state, side, dice={f"5/29A/1.6204/{side}/p1": faces})
    assert last_roll(state, side)["final"] == final and p["ammo"] == ammo


def test_british_oba_table():
    state = rich(special="british")
    p = bought(state, "allied", "O1")
    run(
        R.run_oba_and_guns, state, "allied", dice={"5/29A/1.6204/allied/p1": [2, 2]}
    )  # 4 −2 = 2: ≤2
    assert p["ammo"] == "plentiful"


@pytest.mark.parametrize("faces, strength, guns", [([3, 3], "full", 4), ([3, 4], "depleted", 3)])
def test_gun_battery(faces, strength, guns):
    state = rich()
    p = bought(state, "german", "G1")
    run(
        R.run_oba_and_guns, state, "german", dice={"5/29A/1.6204/german/p1": faces}
    )  # +1: 7 full, 8 depleted
    assert (p["strength"], p["guns"]) == (strength, guns)
    assert units(state, "german", p, "crew") == ["228"] * guns


def test_german_infantry_gun_battery_depleted_random_gun():
    state = rich()
    p = bought(state, "german", "G2")
    run(
        R.run_oba_and_guns,
        state,
        "german",
        dice={"5/29A/1.6204/german/p1": [6, 6], "5/29A/1.6204/german/p1/gun_lost1": [5]},
    )
    assert units(state, "german", p, "gun") == ["75*", "75*"]  # 1d3 from a 5 = 3: the 150* is lost


def test_german_g2_never_fewer_than_two_guns():
    state = rich(house_rules={"gun.depleted_fewer_guns": 2})
    p = bought(state, "german", "G2")
    run(
        R.run_oba_and_guns,
        state,
        "german",
        dice={"5/29A/1.6204/german/p1": [6, 6], "5/29A/1.6204/german/p1/gun_lost1": [1]},
    )
    assert p["guns"] == 2 and units(state, "german", p, "gun") == ["75*", "150*"]


def test_portee_battery_brings_its_trucks():
    state = rich(special="british")
    p = bought(state, "allied", "G1")
    run(
        R.run_oba_and_guns, state, "allied", dice={"5/29A/1.6204/allied/p1": [6, 6]}
    )  # 12 −2 = 10: depleted
    assert (
        units(state, "allied", p, "gun") == ["25LL"] * 3
        and units(state, "allied", p, "vehicle") == ["15cwt trucks"] * 3
    )


# --- 1.6205 / 1.6206 leaders ------------------------------------------------------------------------


def test_infantry_leaders_german():
    state, p = _infantry("I1")
    run(R.run_leaders, state, "german", dice={"5/29A/1.6205/german/p1": [3, 3]})
    report = last_roll(state, "german")
    assert [m["value"] for m in report["modifiers"]] == [-1]  # German; I1 Lead Mod 0
    assert (report["final"], report["row"]) == (5, "5")
    assert p["leaders"] == ["9-2", "8-1", "8-0"] and units(state, "german", p, "leader") == [
        "9-2",
        "8-1",
        "8-0",
    ]


def test_infantry_leaders_lowest_row():
    state, p = _infantry("I2")  # Elite, Lead Mod −1
    run(R.run_leaders, state, "german", dice={"5/29A/1.6205/german/p1": [1, 1]})
    assert last_roll(state, "german")["final"] == 0 and last_roll(state, "german")["row"] == "≤1"
    assert p["leaders"] == ["10-3", "9-1", "8-0"]


def test_infantry_leaders_depleted_capped_by_squads():
    state = rich()
    p = bought(state, "allied", "I3")  # French Sappers 458 6/4, Lead Mod +1
    run(
        R.run_strength, state, "allied", dice={"5/29A/1.6201/allied/p1": [6, 6]}
    )  # 12 −2 = 10: depleted, 4 squads
    run(R.run_leaders, state, "allied", dice={"5/29A/1.6205/allied/p1": [1, 1]})  # 2 +1 +1 +1 = 5
    report = last_roll(state, "allied")
    assert [m["label"] for m in report["modifiers"]] == [
        "French",
        "Leadership modifier of I3",
        "Depleted",
    ]
    assert report["final"] == 5
    assert p["leaders"] == ["9-2"] and p["leaders_not_received"] == [
        "8-1",
        "8-0",
    ]  # 4 squads: one leader


def test_infantry_leaders_open_top_row():
    state = rich()
    p = bought(state, "allied", "I1")  # French 2nd Line, Lead Mod +1
    run(
        R.run_strength, state, "allied", dice={"5/29A/1.6201/allied/p1": [6, 6]}
    )  # depleted: 5 + 4 squads
    run(
        R.run_leaders, state, "allied", dice={"5/29A/1.6205/allied/p1": [6, 6]}
    )  # 12 +3 = 15: "≥13"
    assert last_roll(state, "allied")["row"] == "≥13" and p["leaders"] == ["8-0", "6+1"]


def test_hw_platoon_gets_one_leader():
    state, p = _infantry("I5")
    run(R.run_leaders, state, "german", dice={"5/29A/1.6205/german/p1": [4, 4]})  # 8 −1 = 7
    assert p["leaders"] == ["9-1"] and p["leaders_not_received"] == ["8-1", "7-0"]


def test_british_carriers_one_best_leader():
    state = rich(special="british")
    p = bought(state, "allied", "T1")
    dice = {"5/29A/1.6201/allied/p1": [4, 4]}  # 8 −2 = 6: full
    dice.update({f"5/29A/1.6201/allied/p1/carrier{n}": [1] for n in range(1, 6)})
    run(R.run_strength, state, "allied", dice=dice)
    run(R.run_leaders, state, "allied", dice={"5/29A/1.6205/allied/p1": [3, 4]})  # 7 −1 = 6
    assert p["leaders"] == ["9-1"]


@pytest.mark.parametrize(
    "side, rg, faces, final, leader",
    [
        ("german", "A4", [2, 2], 2, "10-2"),  # 4 −1 German −1 Lead Mod
        ("german", "A4", [3, 2], 3, "9-2"),
        ("allied", "A2", [3, 3], 7, None),  # 6 +1: "6-11" none
        ("allied", "A2", [6, 5], 12, "Inexperienced"),
    ],
)
def test_armor_leaders(side, rg, faces, final, leader):
    state = rich()
    p = bought(state, side, rg)
    strength = {f"5/29A/1.6201/{side}/p1": [3, 3]}
    if rg == "A2":
        strength[f"5/29A/1.6201/{side}/p1/type"] = [4, 4] if side == "allied" else [1]
    else:
        pass
    run(R.run_strength, state, side, dice=strength)
    run(R.run_armor_leaders, state, side, dice={f"5/29A/1.6206/{side}/p1": faces})
    assert last_roll(state, side)["final"] == final and p["armor_leader"] == leader
    if leader == "Inexperienced":
        assert all(
            "Inexperienced crew" in u["note"]
            for u in state["game"]["sides"][side]["retained"]
            if u["kind"] == "afv"
        )
        assert units(state, side, p, "armor_leader") == []
    elif leader:
        assert units(state, side, p, "armor_leader") == [leader]


def test_steps_roll_each_rg_once():
    state, p = _infantry("I1")
    assert not R.STEPS[0].applies(state, "german")
    run(R.run_strength, state, "german")  # nothing left to roll, no dice asked
    assert len(units(state, "german", p, "squad")) == 12


def test_rolls_are_private_to_the_side():
    state, _ = _infantry("I1")
    assert state["game"]["public"]["rolls"] == []
    assert all(
        r["key"].startswith("5/29A/1.6201/german/")
        for r in state["game"]["sides"]["german"]["rolls"]
    )
    assert state["game"]["sides"]["allied"]["rolls"] == []


# --- odds before rolling -----------------------------------------------------------------------------


def test_upcoming_rolls_carry_the_modifiers():
    from fractions import Fraction
    from itertools import product

    from campaigns.dice.table_rolls import odds

    state = rich()
    bought(state, "german", "I2")
    bought(state, "german", "O3")
    run_ = Run(state)
    ctx = run_.ctx("german")
    (strength,) = R.upcoming_strength(state, "german", ctx)
    assert (strength.key, strength.table, strength.column) == (
        "5/29A/1.6201/german/p1",
        "1.6201",
        "strength",
    )
    assert strength.modifiers == (("Historical DRM (5/29A)", "1.6161", 1),)
    shown = {
        o["outcome"]: Fraction(o["fraction"])
        for o in odds(ctx.table("1.6201"), [R.Mod("h", "1.6161", 1)], "strength")
    }
    throws = [a + b + 1 for a, b in product(range(1, 7), repeat=2)]
    assert shown == {
        "full": Fraction(sum(3 <= t <= 8 for t in throws), 36),
        "depleted": Fraction(sum(t >= 9 for t in throws), 36),
    }
    (oba,) = R.upcoming_1_6204(state, "german", ctx)
    assert oba.table == "1.6204.oba.german" and oba.column == "ammo"
    (leaders,) = R.upcoming_leaders(state, "german", ctx)
    assert leaders.modifiers == (
        ("German", "1.6205", -1),
        ("Leadership modifier of I2", "1.6205", -1),
    )
    assert R.upcoming_armor_leaders(state, "german", ctx) == []


def test_entered_dice_ask_only_for_dice_that_are_due():
    # Allied 5/29A: a placeholder strength DR would read "Attached" (2 −2); the attached dr is
    # asked for only once the real strength DR is known.
    state = rich()
    bought(state, "allied", "I2")
    with pytest.raises(DiceNeeded) as needed:
        run(
            R.run_strength, copy.deepcopy(state), "allied", dice={}
        )  # a refused event changes nothing
    assert [d["key"] for d in needed.value.needs] == ["5/29A/1.6201/allied/p1"]
    run(
        R.run_strength, state, "allied", dice={"5/29A/1.6201/allied/p1": [5, 5]}
    )  # 10 −2 = 8: full, nothing more
    assert state["game"]["sides"]["allied"]["purchases"][0]["strength"] == "full"


def test_entered_dice_second_pass_for_the_attached_dr():
    state = rich()
    bought(state, "allied", "I2")
    with pytest.raises(DiceNeeded) as needed:
        run(
            R.run_strength, state, "allied", dice={"5/29A/1.6201/allied/p1": [1, 2]}
        )  # 3 −2 = 1: Attached
    assert [d["key"] for d in needed.value.needs] == ["5/29A/1.6201/allied/p1/attached"]


def test_motorcycles_and_horses():
    state = rich()
    i3 = bought(state, "german", "I3")
    i5 = bought(state, "allied", "I5")
    run(
        R.run_strength, state, "german", dice={"5/29A/1.6201/german/p1": [4, 4]}
    )  # depleted: 9 squads
    run(
        R.run_strength, state, "allied", dice={"5/29A/1.6201/allied/p1": [5, 5]}
    )  # 10 −2 = 8 full: 9 + 3
    assert (
        units(state, "german", i3, "vehicle") == ["motorcycle or motorcycle/sidecar"] * 9
    )  # German u
    assert units(state, "allied", i5, "vehicle") == ["horse"] * 12  # French j


def test_french_hw_platoon():
    state, p = _infantry("I4", side="allied", strength_dice=(5, 5))  # 10 −2 = 8: full
    run(R.run_support_weapons, state, "allied")
    assert p["sw"] == ["37*", "HMG", "81* MTR", "81* MTR"]
    assert (
        units(state, "allied", p, "crew") == ["228"] * 4
        and units(state, "allied", p, "squad") == []
    )
