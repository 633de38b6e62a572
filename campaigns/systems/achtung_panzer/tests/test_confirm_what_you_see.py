"""A player confirms only what they can see: the result being
confirmed stands in words inside the Confirm form, right before Dispute: every field, the
objective points and CVP it implies, and the winner it gives."""

from __future__ import annotations

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War
from tests.page_forms import page_forms

pytestmark = pytest.mark.django_db
HILL = ["40I7", "40I8", "40J7", "40J8", "40K7", "40K8", "40L7"]


def client(people, name):
    made = Client(raise_request_exception=True)
    made.force_login(people[name])
    return made


def test_the_german_sees_the_result_he_confirms_inside_the_confirm_form(club, people):
    war = War(club, people, dice_mode="server")
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    assert war.public["phase"] == "play"
    war.by(
        "allied",
        "result.submitted",
        {
            "scenario": 0,
            "data": {
                "allied_objectives_end": ", ".join(HILL),
                "allied_cvp": 4,
                "german_cvp": 9,
                "german_half_boards": 2,
            },
        },
    )
    page = client(people, "bob").get(f"/campaigns/{war.campaign.pk}/").content.decode()
    forms = [f for f in page_forms(page) if f.body().get("_kind", "").startswith("result.")]
    kinds = [f.body()["_kind"] for f in forms]
    assert kinds[:2] == ["result.confirmed", "result.disputed"]  # Dispute right after Confirm
    confirm = forms[0].text
    assert "The result of 5/29A entered by alice (Allied):" in confirm
    assert (
        "Allied objective hexes at the end: Hill 520 (all 7 hexes) — 7 hexes, 3 objective points (1.2); "
        "at the start: 0."
    ) in confirm
    assert (
        "German objective hexes at the end: none — 0 hexes, 0 objective points (1.2); at the start: 0."
        in confirm
    )
    assert "CVP sustained (A26.2): Allied 4, German 9." in confirm
    assert "Half boards completely within the perimeter: Allied 0, German 2 (1.6232)." in confirm
    assert "Provisional result: Allied win." in confirm
    assert confirm.index("Provisional result") < confirm.rindex(
        "Confirm the result"
    )  # before the button
    # The one who entered it sees it with Withdraw; nobody's Confirm shows a result not pending.
    alice = client(people, "alice").get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert not [f for f in page_forms(alice) if f.body().get("_kind") == "result.confirmed"]
