"""1.619-1.621 through the journal (real services, entered dice): CG I's initial refit. Purchases are
refused with the limit's name and nothing is written; the given RGs roll their strength with the
dice the players enter; the other side sees only that the steps were done."""

from __future__ import annotations

import pytest

from campaigns.access.visibility import view_state
from campaigns.errors import DiceNeeded
from campaigns.journal.records import Viewer
from campaigns.models import Event

from .campaign_harness import War, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def war(club, people):
    war = War(club, people, dice_mode="entered")
    war.by("allied", "ap.declare", {"special": "none"})
    return war


def test_a_refused_purchase_writes_nothing(war):
    before = Event.objects.filter(campaign=war.campaign).count()
    # CG I German: 8 CPP. A4 Pz IIIF costs 7, on-map +2 = 9.
    error = refused(war.by, "german", "ap.purchase", {"action": "buy", "rg": "A4", "on_map": True})
    assert error.message == "A4 Medium Tank: costs 9 CPP, 8 CPP available (1.619)."
    error = refused(war.by, "german", "ap.purchase", {"action": "buy", "rg": "A5"})
    assert error.message == "A5 Heavy Tank: May maximum is 0 (1.619 German RG table)."
    assert Event.objects.filter(campaign=war.campaign).count() == before
    assert war.side("german")["cpp"] == 8 and war.side("german")["purchases"][-1]["given"]


def test_given_rgs_roll_with_entered_dice(war):
    war.by("german", "ap.purchase", {"action": "buy", "rg": "A2"})  # 5 CPP; 8 → 3
    with pytest.raises(DiceNeeded) as needed:
        war.act(
            "bob", "ap.check", {"step": "1.619"}
        )  # done buying: 1.6201 follows at once, its dice asked
    assert war.current("german").id == "1.619"  # nothing written without the dice
    keys = [n["key"] for n in needed.value.needs if "/1.6201/" in n["key"]]
    # Given: p1, p2 (I1 ×2), p3 (I5), p5 (A2 PzIIA, no type dr); bought: p6 (A2, footnote m dr). G1 rolls at 1.6204.
    assert keys == [
        "5/29A/1.6201/german/p1",
        "5/29A/1.6201/german/p2",
        "5/29A/1.6201/german/p3",
        "5/29A/1.6201/german/p5",
        "5/29A/1.6201/german/p6",
        "5/29A/1.6201/german/p6/type",
    ]
    dice = {key: [4, 4] for key in keys[:-1]}  # 8 +1 = 9: depleted
    dice["5/29A/1.6201/german/p1"] = [1, 1]  # 2 +1 = 3: full
    dice["5/29A/1.6201/german/p6/type"] = [6]  # m: 5-6 → PzKwII F
    # The dice of 1.6202-1.6206 are due whatever these show: asked in the same form.
    assert {n["key"].split("/")[2] for n in needed.value.needs} == {
        "1.6201",
        "1.6202",
        "1.6204",
        "1.6205",
        "1.6206",
    }
    with pytest.raises(
        DiceNeeded
    ) as needed:  # 1.6201 is rolled with these; 1.6202's dice are still missing
        war.act("bob", "ap.check", {"step": "1.619"}, dice=dice)
    assert {n["key"].split("/")[2] for n in needed.value.needs} == {
        "1.6202",
        "1.6204",
        "1.6205",
        "1.6206",
    }
    war.by(
        "german", "ap.check", {"step": "1.619"}, dice=dice
    )  # the rest with the harness's table dice
    purchases = {p["id"]: p for p in war.side("german")["purchases"]}
    assert [purchases[p]["strength"] for p in ("p1", "p2", "p3", "p5", "p6")] == ["full"] + [
        "depleted"
    ] * 4
    squads = [u for u in war.side("german")["retained"] if u["rg"] == "p2" and u["kind"] == "squad"]
    assert len(squads) == 9 and purchases["p6"]["unit_type"] == "PzKwII F"
    assert purchases["p5"]["unit_type"] == "PzIIA"

    # The Allied side sees that the German finished 1.619 and 1.6201, nothing else.
    allied_view = view_state(war.state, Viewer.for_side("allied"))
    assert set(allied_view["game"]["sides"]) == {"allied"}
    text = repr(allied_view["game"]["public"])
    for secret in ("PzKwII F", "p6", "depleted", "1.6201/german"):
        assert secret not in text, secret
    hidden = Event.objects.filter(
        campaign=war.campaign, side="german", kind__in=("ap.purchase", "ap.1.6201", "dice.rolled")
    )
    assert hidden.exists() and all(e.audience == "side" for e in hidden)
