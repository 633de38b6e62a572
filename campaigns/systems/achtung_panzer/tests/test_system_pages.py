"""A!P! through the campaign page's generic forms: step events, a refused purchase, the half-day
log (flattened result fields) and a joint checklist step."""

import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War
from tests.page_forms import long_form_page

pytestmark = pytest.mark.django_db


def _client(people, name):
    client = Client()
    client.force_login(people[name])
    return client


def _post(client, war, kind, side, **data):
    body = {"_kind": kind, "_side": side, **{k: str(v) for k, v in data.items()}}
    return client.post(f"/campaigns/{war.campaign.pk}/submit/", body)


def _result_form(page: str, end: dict, cvp: dict) -> dict:
    """The half-day log as the page posts it: one row per objective hex (radios), then per side."""
    rows = dict(
        (hex_, i) for i, hex_ in re.findall(r'name="objectives-(\d+)-hex" value="([^"]+)"', page)
    )
    body = {"_kind": "result.submitted", "_side": "allied", "scenario": "0"}
    for hex_, i in rows.items():
        body[f"objectives-{i}-hex"] = hex_
        body[f"objectives-{i}-start"] = "none"
        body[f"objectives-{i}-end"] = end.get(hex_, "none")
    for side, value in cvp.items():
        body[f"{side}_cvp"] = str(value)
    return body


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
    assert (
        'name="objectives-0-end"' not in page
    )  # a long form: a page of its own, to keep the campaign page light
    page = long_form_page(alice, page, "result.submitted")
    # Objectives are ticked hex by hex from 1.2 (Hill 520 is 7 hexes), never typed.
    assert 'name="objectives-0-end"' in page and 'name="german_cvp"' in page and "Hill 520" in page
    hill = {h: "allied" for h in ("40I7", "40I8", "40J7", "40J8", "40K7", "40K8", "40L7")}
    body = _result_form(page, hill, {"allied": 4, "german": 9})
    row = next(k for k, v in body.items() if v == "40I7").split("-")[
        1
    ]  # a hex marked Allied, renamed on the way
    tampered = dict(body, **{f"objectives-{row}-hex": "HILL999"})
    bad = alice.post(f"/campaigns/{war.campaign.pk}/submit/", tampered)
    assert (
        bad.status_code == 400
        and "HILL999 is not an objective hex or area of 1.2" in bad.content.decode()
    )
    assert war.state["scenarios"][0]["status"] == "current"
    assert alice.post(f"/campaigns/{war.campaign.pk}/submit/", body).status_code == 302
    assert war.state["scenarios"][0]["status"] == "pending"
    assert war.state["scenarios"][0]["pending"]["data"]["allied_objectives_end"] == sorted(hill)
    assert _post(bob, war, "result.confirmed", "german", scenario=0).status_code == 302
    assert war.public["phase"] == "refit"
    for client, side in (
        (alice, "allied"),
        (bob, "german"),
    ):  # the end of the scenario: all units ok
        assert _post(client, war, "ap.aftermath", side).status_code == 302
    page = bob.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert 'value="ap.joint"' in page and "Done at the table" in page
    assert _post(bob, war, "ap.joint", "german", through="1.6066").status_code == 302
    assert war.current("allied").id == "1.6066.losses"  # 1.601-1.6066 confirmed at once
    page = alice.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert 'value="ap.losses"' in page and "Record (or none)" in page
    for client, side in ((alice, "allied"), (bob, "german")):  # nothing lost in the map steps
        assert _post(client, war, "ap.losses", side).status_code == 302
    assert war.current("allied").id == "1.607"  # then 1.6067 ran
