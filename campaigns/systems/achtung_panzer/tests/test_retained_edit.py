"""Correct your retained units → change a unit: the unit is picked
first (a plain GET form, no JavaScript needed), its form opens filled with what it is now, and
the event records only the fields the person changed, so nothing left alone is written over."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.campaign_harness import War
from tests.page_forms import find_form, find_pick

pytestmark = pytest.mark.django_db


def client(people, name):
    made = Client(raise_request_exception=True)
    made.force_login(people[name])
    return made


def german_with_units(club, people):
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("german", "ap.purchase", {"action": "buy", "rg": "I1"})
    war.by("german", "ap.check", {"step": "1.619"})  # 1.620 fills the RGs with units
    return war


def open_unit(who, war, unit_id):
    """The page → "change or remove a unit" → pick the unit → its filled form."""
    url = f"/campaigns/{war.campaign.pk}/"
    page = who.get(url).content.decode()
    do = re.search(
        r'<a href="\?do=(\w+)#now">Correct your retained units: change or remove a unit</a>', page
    )
    assert do, "no link to change a retained unit"
    page = who.get(f"{url}?do={do.group(1)}").content.decode()
    pick = find_pick(page, "Open this unit")
    assert unit_id in pick.choices("id")
    query = pick.body(id=unit_id)
    page = who.get(url, query).content.decode()
    return find_form(page, "ap.retained", id=unit_id), page


def test_changing_one_field_keeps_every_other(club, people):
    war = german_with_units(club, people)
    units = war.side("german")["retained"]
    leader = next(u for u in units if u["kind"] == "leader")
    other_rg = next(p["id"] for p in war.side("german")["purchases"] if p["id"] != leader["rg"])
    bob = client(people, "bob")
    form, page = open_unit(bob, war, leader["id"])
    # The form starts from the unit as it is.
    assert form.value("type") == leader["type"] and form.value("kind") == "leader"
    assert form.value("rg") == leader["rg"] and form.value("status") == "ok"
    assert form.value("action") == "update"
    answer = bob.post(
        f"/campaigns/{war.campaign.pk}/submit/", form.body(rg=other_rg, reason="on the wrong RG")
    )
    assert answer.status_code == 302
    after = next(u for u in war.side("german")["retained"] if u["id"] == leader["id"])
    assert after["rg"] == other_rg
    assert {k: v for k, v in after.items() if k not in ("rg", "history")} == {
        k: v for k, v in leader.items() if k not in ("rg", "history")
    }
    assert after["history"][-1]["before"] == {"rg": leader["rg"]}
    event = war.campaign.events.filter(kind="ap.retained").latest("seq")
    assert event.data == {
        "action": "update",
        "id": leader["id"],
        "rg": other_rg,
        "reason": "on the wrong RG",
    }


def test_nothing_changed_is_refused_with_a_reason(club, people):
    war = german_with_units(club, people)
    unit = war.side("german")["retained"][0]
    bob = client(people, "bob")
    form, _ = open_unit(bob, war, unit["id"])
    answer = bob.post(f"/campaigns/{war.campaign.pk}/submit/", form.body())
    assert answer.status_code == 400
    assert "Nothing was changed: change at least one value of the unit." in answer.content.decode()
    assert not war.campaign.events.filter(kind="ap.retained").exists()


def test_a_unit_is_removed_from_its_own_form(club, people):
    war = german_with_units(club, people)
    unit = war.side("german")["retained"][0]
    bob = client(people, "bob")
    form, _ = open_unit(bob, war, unit["id"])
    answer = bob.post(
        f"/campaigns/{war.campaign.pk}/submit/", form.body(action="remove", reason="recombined")
    )
    assert answer.status_code == 302
    assert unit["id"] not in {u["id"] for u in war.side("german")["retained"]}
    event = war.campaign.events.filter(kind="ap.retained").latest("seq")
    assert event.data == {"action": "remove", "id": unit["id"], "reason": "recombined"}


def test_units_are_added_from_their_own_form(club, people):
    war = german_with_units(club, people)
    bob = client(people, "bob")
    url = f"/campaigns/{war.campaign.pk}/"
    do = re.search(
        r'<a href="\?do=(\w+)#now">Correct your retained units: add units</a>',
        bob.get(url).content.decode(),
    )
    form = find_form(
        bob.get(f"{url}?do={do.group(1)}").content.decode(), "ap.retained", action="add"
    )
    assert form.value("nationality") == "german" and form.value("status") == "ok"
    answer = bob.post(url + "submit/", form.body(kind="sw", type="LMG", count="2"))
    assert answer.status_code == 302
    assert [u["type"] for u in war.side("german")["retained"]][-2:] == ["LMG", "LMG"]


def test_an_older_full_update_still_folds_as_it_did(club, people):
    """Journals written before the form sent only the changes hold every field: the fold reads
    them as before (an empty type set the type to empty)."""
    war = german_with_units(club, people)
    unit = war.side("german")["retained"][0]
    war.by(
        "german",
        "ap.retained",
        {
            "action": "update",
            "id": unit["id"],
            "kind": unit["kind"],
            "type": "",
            "status": "ok",
            "isolated": False,
            "captured": False,
            "vehicular": False,
            "note": "",
            "reason": "",
        },
    )
    after = next(u for u in war.side("german")["retained"] if u["id"] == unit["id"])
    assert after["type"] == "" and after["history"][-1]["before"]["type"] == unit["type"]
