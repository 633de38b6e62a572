"""A!P! sheets: the CG Roster (public) and each side's RG Purchase Record and retained units
(side-private) hold exactly their audience's data; rendered to HTML and PDF."""

from __future__ import annotations

import json

import pytest

from campaigns.access.visibility import view_game
from campaigns.journal.records import Viewer
from campaigns.systems.achtung_panzer import sheets as S
from campaigns.systems.achtung_panzer.steps import (
    fortifications as F,
    purchases as P,
    reinforcements as R,
)

from .rg_harness import make_state, run, side_state


def line(hd, hist, op=None, cvp=None, after=None, winner=None):
    return {
        "half_day": hd,
        "hist": hist,
        "op": op or {"allied": None, "german": None},
        "cvp": cvp or {"allied": 0, "german": 0},
        "cvp_after_victory": after or {"allied": 0, "german": 0},
        "winner": winner,
        "played": winner is not None,
    }


@pytest.fixture
def state():
    roster = [
        line(
            "5/29A",
            {"allied": -2, "german": 1},
            {"allied": 4, "german": 9},
            {"allied": 12, "german": 30},
            {"allied": 3, "german": 0},
            winner="german",
        ),
        line("5/29P", {"allied": -1, "german": 0}),
    ]
    state = make_state(allied=side_state(cpp=40), german=side_state(cpp=40, fpp=20), roster=roster)
    buy = {
        "action": "buy",
        "nationality": None,
        "on_map": False,
        "reserve": False,
        "pre_registered": False,
        "purchase": "",
    }
    run(P.run_purchase, state, "german", dict(buy, rg="I1"))
    run(P.run_purchase, state, "german", dict(buy, rg="O1", pre_registered=True))
    run(P.run_purchase, state, "allied", dict(buy, rg="A3"))
    run(R.run_strength, state, "german", dice={"5/29A/1.6201/german/p1": [3, 3]})
    run(
        R.run_strength,
        state,
        "allied",
        dice={"5/29A/1.6201/allied/p1": [3, 3], "5/29A/1.6201/allied/p1/type": [1]},
    )
    run(R.run_oba_and_guns, state, "german", dice={"5/29A/1.6204/german/p2": [3, 3]})
    run(R.run_leaders, state, "german", dice={"5/29A/1.6205/german/p1": [3, 3]})
    fortify = {f.name: f.default for f in F.FIELDS}
    run(
        F.run_fortify,
        state,
        "german",
        dict(fortify, action="buy", item="AP Mines", factors=4, location="23R4"),
    )
    return state


def view(state, viewer):
    return {"game": view_game(state["game"], viewer)}


def test_cg_roster_lines(state):
    ctx = S.sheet_context("cg_roster", view(state, Viewer.club_member()))["roster"]
    first, second = ctx["lines"]
    assert first == {
        "half_day": "5/29A",
        "winner": "German",
        "allied": {"hist": "-2", "op": "4", "cvp": "15"},  # 12 + 3 in the RePh after 1.6067 (1.12)
        "german": {"hist": "+1", "op": "9", "cvp": "30"},
    }
    assert second == {
        "half_day": "5/29P",
        "winner": "",
        "allied": {"hist": "-1", "op": "", "cvp": ""},
        "german": {"hist": "0", "op": "", "cvp": ""},
    }
    assert ctx["totals"] == {"allied": {"op": "4", "cvp": "15"}, "german": {"op": "9", "cvp": "30"}}
    assert ctx["cg"] == "I"


def test_cg_roster_holds_nothing_private(state):
    ctx = json.dumps(S.sheet_context("cg_roster", view(state, Viewer.club_member())))
    for secret in ("I1", "A3", "D2(L)", "467", "AP Mines", "23R4", "cpp", "purchases"):
        assert secret not in ctx, secret


def test_purchase_record_of_a_side(state):
    ctx = S.sheet_context("rg_purchases", view(state, Viewer.for_side("german")))["purchases"]
    assert (
        ctx["side"] == "German"
        and ctx["cpp"] == "30"
        and ctx["spent"] == "10"
        and ctx["fpp"] == "8"
    )
    i1, o1 = ctx["rows"]
    assert (i1["half_day"], i1["rg"], i1["type"], i1["cost"], i1["strength"]) == (
        "5/29A",
        "I1",
        "1st line Coy",
        "7",
        "full",
    )
    # Leaders and SW have their own columns: "Received" lists the rest, and a line stays one line.
    assert i1["units"] == "12× 467" and i1["leaders"] == "9-2, 8-1, 8-0"
    assert (o1["rg"], o1["cost"], o1["options"], o1["units"]) == (
        "O1",
        "3",
        "pre-registered hex",
        "ammo: normal",
    )
    assert ctx["fortifications"] == [
        {
            "id": "f18",
            "half_day": "5/29A",
            "type": "AP Mines",
            "detail": "strength 4",
            "count": "1",
            "cost": "12",
            "location": "23R4",
        }
    ]


def test_side_sheets_hold_only_their_side(state):
    german = json.dumps(S.sheet_context("rg_purchases", view(state, Viewer.for_side("german"))))
    allied = json.dumps(S.sheet_context("rg_purchases", view(state, Viewer.for_side("allied"))))
    assert (
        "D2(L)" in allied
        and "Medium Tank" in allied
        and "D2(L)" not in german
        and "Medium Tank" not in german
    )
    assert (
        "467" in german
        and "AP Mines" in german
        and "467" not in allied
        and "AP Mines" not in allied
    )
    retained = json.dumps(S.sheet_context("retained", view(state, Viewer.for_side("allied"))))
    assert "D2(L)" in retained and "467" not in retained


def test_side_sheet_needs_exactly_one_side(state):
    everything = view(state, Viewer.everything(["allied", "german"]))
    assert S.sheet_context("rg_purchases", everything)["purchases"]["rows"] == []
    assert S.sheet_context("retained", view(state, Viewer.club_member()))["retained"]["rows"] == []


def test_retained_roster(state):
    ctx = S.sheet_context("retained", view(state, Viewer.for_side("german")))["retained"]
    kinds = [row["kind"] for row in ctx["rows"]]
    assert kinds == ["Leader"] * 3 + ["Squad"] * 12
    assert [row["type"] for row in ctx["rows"][:3]] == ["9-2", "8-1", "8-0"]  # best first
    assert ctx["rows"][0]["rg"] == "RG I1 (1st line Coy)" and ctx["rows"][0]["status"] == "ok"
    assert ctx["counts"] == [{"kind": "Leader", "count": "3"}, {"kind": "Squad", "count": "12"}]


def test_templates_render(state, settings):
    from rosters.pdf import sheet_html

    for sheet in S.SHEETS:
        audience = Viewer.club_member() if sheet.audience == "public" else Viewer.for_side("german")
        context = {
            "sheet": {
                "slug": sheet.slug,
                "name": sheet.name,
                "audience": sheet.audience,
                "landscape": sheet.landscape,
            },
            "paper": "A4",
            "audience": {"key": "x", "label": "German only"},
            "club": "Club",
            "as_of": "now",
            "campaign": {"id": 1, "name": "Somme", "system": "Achtung! Panzer!", "variant": "CG I"},
            "side": None if sheet.audience == "public" else {"slug": "german", "name": "German"},
            "core": {},
            "system": S.sheet_context(sheet.slug, view(state, audience)),
        }
        html = sheet_html(sheet.template, context)
        if sheet.slug == "cg_roster":
            assert "5/29A" in html and "5/29P" in html and "Casualties" in html and "I1" not in html
        elif sheet.slug == "rg_purchases":
            assert "1st line Coy" in html and "AP Mines" in html and "23R4" in html
        else:
            assert "u3" in html or "467" in html
