"""The last event of a repeatable step and its end in one submission: the
purchase form's second button "Buy and finish buying" sends the purchase, then "Done buying",
through the page, all or nothing; not offered with dice entered from the table."""

from __future__ import annotations

import pytest
from django.test import Client

from campaigns.errors import DomainError
from campaigns.models import Event
from campaigns.services.journal import submit_then
from campaigns.systems.achtung_panzer.tests.campaign_harness import War

pytestmark = pytest.mark.django_db
FINISH = "Buy and finish buying: roll for my RGs"


def page_of(people, war, name="alice"):
    client = Client(raise_request_exception=True)
    client.force_login(people[name])
    return client, client.get(f"/campaigns/{war.campaign.pk}/").content.decode()


def test_buy_and_finish_buying_is_one_submission(club, people):
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    alice, page = page_of(people, war)
    assert 'name="_then" value="1"' in page and FINISH in page
    response = alice.post(
        f"/campaigns/{war.campaign.pk}/submit/",
        {
            "_kind": "ap.purchase",
            "_side": "allied",
            "action": "buy",
            "rg": "I2",
            "_then": "1",
            "idempotency_key": "k1",
        },
    )
    assert response.status_code == 302
    bought = [p for p in war.side("allied")["purchases"] if p["rg"] == "I2" and not p.get("given")]
    assert len(bought) == 1 and bought[0]["strength"]  # bought, then 1.620 rolled for it
    assert war.current("allied").id == "1.622"  # past 1.620 (and 1.621: no FPP)
    again = alice.post(
        f"/campaigns/{war.campaign.pk}/submit/",
        {  # a double tap writes nothing more
            "_kind": "ap.purchase",
            "_side": "allied",
            "action": "buy",
            "rg": "I2",
            "_then": "1",
            "idempotency_key": "k1",
        },
    )
    assert again.status_code == 302
    assert (
        len([p for p in war.side("allied")["purchases"] if p["rg"] == "I2" and not p.get("given")])
        == 1
    )


def test_the_button_without_then_buys_only(club, people):
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    alice, _ = page_of(people, war)
    response = alice.post(
        f"/campaigns/{war.campaign.pk}/submit/",
        {"_kind": "ap.purchase", "_side": "allied", "action": "buy", "rg": "I2"},
    )
    assert response.status_code == 302 and war.current("allied").id == "1.619"


def test_all_or_nothing(club, people):
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    before = Event.objects.filter(campaign=war.campaign).count()
    with pytest.raises(
        DomainError
    ) as refused:  # the purchase fits; what follows it does not: neither is written
        submit_then(
            war.campaign,
            people["alice"],
            "ap.purchase",
            {"action": "buy", "rg": "I2"},
            (("ap.check", {"step": "1.621"}),),
            side="allied",
        )
    assert (
        refused.value.field == "" and "Not yet" in refused.value.message
    )  # on the form, not on an input
    assert Event.objects.filter(campaign=war.campaign).count() == before


def test_not_offered_with_dice_entered_at_the_table(club, people):
    war = War(club, people, dice_mode="entered")
    war.by("allied", "ap.declare", {"special": "none"})
    _, page = page_of(people, war)
    assert "Purchase Reinforcement Groups" in page and FINISH not in page


@pytest.fixture
def fixed_server_dice(monkeypatch):
    """Muster's own dice, fixed for the test: the harness's table faces (sixes for leader
    hardening: no leader to choose; threes otherwise)."""
    from campaigns.systems.achtung_panzer.tests.campaign_harness import fix_server_dice

    fix_server_dice(monkeypatch)


def test_continue_is_folded_into_fortification_removal(club, people, fixed_server_dice):
    """The checklists and rolls before 1.615 (nothing to decide in them) go with its form: one
    submission confirms them and rolls for the fortification removed."""
    from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET

    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    war.result(
        {
            "german_objectives_start": "23BB5 23X3",
            "allied_objectives_end": "23BB5 23X3",
            "allied_cvp": 3,
            "german_cvp": 31,
        }
    )
    war.walk_both(until="1.6133", answers={"allied": QUIET, "german": QUIET})
    assert war.current("allied").id == "1.6133"
    alice, page = page_of(people, war)
    now = page.split('id="now"')[1].split("Other things you can do")[0]
    assert "Continue:" not in now and "Fortification removal" in now
    assert (
        "Done at the table: AFV MG exchange (1.6133)" in now
    )  # what the submission confirms first
    before = war.campaign.last_seq
    response = alice.post(
        f"/campaigns/{war.campaign.pk}/submit/",
        {
            "_kind": "ap.1.615",
            "_side": "allied",
            "items-0-kind": "wire",
            "items-0-location": "23R5",
            "_then": "1",
            "idempotency_key": "k2",
        },
    )
    assert response.status_code == 302
    kinds = list(
        war.campaign.events.filter(seq__gt=before, side="allied")
        .exclude(kind="dice.rolled")
        .values_list("kind", flat=True)
    )
    assert kinds[:3] == ["ap.continue", "ap.1.615", "ap.1.615"], kinds
    assert war.current("allied").id not in ("1.6133", "1.615")


def test_the_map_steps_are_confirmed_with_the_losses(club, people, fixed_server_dice):
    """1.601-1.6066 (done together on the map) go with the first side's losses step: one
    submission; confirming them with control changed stays one tap away."""
    from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET

    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    war.result(
        {
            "german_objectives_start": "23BB5 23X3",
            "allied_objectives_end": "23BB5 23X3",
            "allied_cvp": 3,
            "german_cvp": 31,
        }
    )
    war.walk_both(until="1.601", answers={"allied": QUIET, "german": QUIET})
    assert war.current("allied").id == "1.601"
    alice, page = page_of(people, war)
    now = page.split('id="now"')[1].split("Other things you can do")[0]
    assert "Your units eliminated at the table in this Refit Phase" in now
    assert "also confirms, for both sides, what was done on the map" in now
    assert now.index("also confirms") < now.index(
        'value="ap.joint"'
    )  # on its own, after: for control
    before = war.campaign.last_seq
    response = alice.post(
        f"/campaigns/{war.campaign.pk}/submit/",
        {"_kind": "ap.losses", "_side": "allied", "idempotency_key": "k3"},
    )
    assert response.status_code == 302
    kinds = list(
        war.campaign.events.filter(seq__gt=before)
        .exclude(kind="dice.rolled")
        .values_list("kind", flat=True)
    )
    assert kinds == ["ap.joint", "ap.losses"], kinds
    assert (
        war.current("allied").id != "1.6066.losses" and war.current("german").id == "1.6066.losses"
    )
    _, page = page_of(people, war, "bob")  # the other side: its losses alone
    assert (
        "also confirms" not in page
        and "Your units eliminated at the table in this Refit Phase" in page
    )


def test_the_ec_and_an_ordinary_half_day_in_one(club, people, fixed_server_dice):
    from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET

    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    war.result(
        {
            "german_objectives_start": "23BB5 23X3",
            "allied_objectives_end": "23BB5 23X3",
            "allied_cvp": 3,
            "german_cvp": 31,
        }
    )
    war.walk_both(until="1.618", answers={"allied": QUIET, "german": QUIET})
    assert war.current("allied").id == "1.618"
    alice, page = page_of(people, war)
    assert "Record the EC; an ordinary half-day (no Armor or British, CG13)" in page
    response = alice.post(
        f"/campaigns/{war.campaign.pk}/submit/",
        {
            "_kind": "ap.1.618",
            "_side": "allied",
            "ec": "Moist",
            "_then": "1",
            "idempotency_key": "k4",
        },
    )
    assert response.status_code == 302
    assert war.current("allied").id == "1.619" and war.public["special_half_day"] in (None, "none")
