"""A!P! through the campaign page's generic forms: step events, a refused purchase, the half-day
log (flattened result fields) and a joint checklist step."""

import pytest
from django.test import Client

from tests.achtung_panzer.campaign_harness import QUIET, War

pytestmark = pytest.mark.django_db


def _client(people, name):
    client = Client()
    client.force_login(people[name])
    return client


def _post(client, war, kind, side, **data):
    body = {"kind": kind, "side": side, **{k: str(v) for k, v in data.items()}}
    return client.post(f"/campaigns/{war.campaign.pk}/submit/", body)


def test_a_refit_and_a_half_day_log_through_the_page(club, people):
    war = War(club, people, dice_mode="server", name="By the page")
    alice, bob = _client(people, "alice"), _client(people, "bob")
    page = alice.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert 'value="ap.declare"' in page and 'value="ap.purchase"' not in page
    assert _post(alice, war, "ap.declare", "allied", special="none").status_code == 302
    refused = _post(bob, war, "ap.purchase", "german", action="buy", rg="A5")
    assert refused.status_code == 400 and "A5" in refused.content.decode()
    assert war.side("german")["cpp"] == 8
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    page = alice.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert 'name="data.allied_objectives_end"' in page and 'name="data.german_cvp"' in page
    body = {"kind": "result.submitted", "side": "allied", "scenario": "0", "data.allied_objectives_end": "hill_520",
            "data.allied_cvp": "4", "data.german_cvp": "9"}
    bad = alice.post(f"/campaigns/{war.campaign.pk}/submit/", dict(body, **{"data.allied_objectives_end": "hill_999"}))
    assert bad.status_code == 400 and "hill_999 is not an objective hex or area of 1.2" in bad.content.decode()
    assert war.state["scenarios"][0]["status"] == "current"
    assert alice.post(f"/campaigns/{war.campaign.pk}/submit/", body).status_code == 302
    assert war.state["scenarios"][0]["status"] == "pending"
    assert _post(bob, war, "result.confirmed", "german", scenario=0).status_code == 302
    assert war.public["phase"] == "refit"
    page = bob.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert 'value="ap.joint"' in page and "1.601" in page
    assert _post(bob, war, "ap.joint", "german", step="1.601").status_code == 302
    assert war.current("allied").id == "1.602"
