"""Long forms on pages of their own: the end of the scenario is a link on the
campaign page; its page first asks, grouped by RG, which units something happened to, then asks
only about those; a refused post comes back on that page with the same rows, and a good one
records the losses. Works without JavaScript: plain links and GET forms."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War
from tests.page_forms import find_form, long_form_page, page_forms

pytestmark = pytest.mark.django_db


def _client(people, name):
    client = Client()
    client.force_login(people[name])
    return client


def test_the_end_of_the_scenario_is_picked_by_rg_then_asked_for_the_picked_units_only(club, people):
    war = War(club, people, dice_mode="server")
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    alice = _client(people, "alice")
    url = f"/campaigns/{war.campaign.pk}/"
    page = alice.get(url).content.decode()
    assert (
        'name="units-0-_on"' not in page and 'value="ap.aftermath"' not in page
    )  # not sent: a link
    first = long_form_page(alice, page, "ap.aftermath")
    assert 'value="ap.aftermath"' not in first  # nothing posted from the first screen
    pick = next(f for f in page_forms(first) if f.method == "get")
    units = war.side("allied")["retained"]
    assert sorted(pick.choices("picked")) == sorted(u["id"] for u in units)
    assert re.search(r"<legend>RG [A-Z]\d", first)  # grouped by RG, named as the players name them
    # In the game's words (Action.pick_help / pick_button), not the shared screen's defaults.
    assert (
        "Tick the units something happened to" in first and "Next: what happened to them" in first
    )

    squad = next(u for u in units if u["kind"] == "squad")
    body = pick.body(picked=[squad["id"]])
    form_page = alice.get(url, body).content.decode()
    form = find_form(form_page, "ap.aftermath")
    assert form.value("units-0-unit") == squad["id"] and "units-1-unit" not in form.names()

    refused = alice.post(
        url + "submit/", form.body(**{"units-0-fate": "eliminated", "units-0-pocket": "P" * 30})
    )
    assert refused.status_code == 400
    again = refused.content.decode()
    assert 'id="status"' not in again  # its own page again, not the whole campaign page
    form = find_form(again, "ap.aftermath")
    assert form.value("units-0-unit") == squad["id"] and "units-1-unit" not in form.names()
    assert war.state["game"]["sides"]["allied"].get("eliminated", []) == []

    done = alice.post(
        url + "submit/", form.body(**{"units-0-fate": "eliminated", "units-0-pocket": ""})
    )
    assert done.status_code == 302
    assert [u["id"] for u in war.side("allied")["eliminated"]] == [squad["id"]]
    assert {u["id"] for u in war.side("allied")["retained"]} == {u["id"] for u in units} - {
        squad["id"]
    }
