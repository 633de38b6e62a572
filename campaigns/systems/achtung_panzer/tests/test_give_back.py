"""Giving back a purchase (1.619) or a fortification (1.621) through the page, as a player who
mis-tapped does it: the link among the other things one can do, the form it opens, its button;
without JavaScript (a plain post) and with it (htmx). The Buy form never answers for it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.campaign_harness import War
from tests.page_forms import find_form

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def client(people, name):
    made = Client(raise_request_exception=True)
    made.force_login(people[name])
    return made


def link(page: str, words: str) -> str:
    found = re.search(rf'<a href="(\?do=\w+)#now">{re.escape(words)}</a>', page)
    assert found, f"no link {words!r} on the page"
    return found.group(1)


def errors(answer) -> str:
    return "; ".join(
        re.findall(
            r'class="(?:error|errors|notice)"[^>]*>(?:<p>)?([^<]*)<', answer.content.decode()
        )
    )


def give_back(who, war, words, kind, htmx, **chosen):
    """Follow the link, read the form it opens, press its button (with `chosen` picked first)."""
    url = f"/campaigns/{war.campaign.pk}/"
    page = who.get(url + link(who.get(url).content.decode(), words)).content.decode()
    form = find_form(page, kind, action="remove")
    return form, who.post(url + "submit/", form.body(**chosen), **(HTMX if htmx else {}))


@pytest.mark.parametrize("htmx", [False, True], ids=["without-js", "with-js"])
def test_a_purchase_is_given_back_through_the_page(club, people, htmx):
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    cpp = war.side("allied")["cpp"]
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "I2"})
    bought = war.side("allied")["purchases"][-1]
    assert war.side("allied")["cpp"] == cpp - bought["cost"]
    form, answer = give_back(
        client(people, "alice"), war, "Give back a purchase of this step", "ap.purchase", htmx
    )
    assert (
        form.choices("purchase") == [bought["id"]] and form.value("purchase") == bought["id"]
    )  # chosen
    assert "I2 1st Line" in form.text and "This field is required" not in form.text
    assert answer.status_code == (204 if htmx else 302), errors(answer)
    mine = war.side("allied")
    assert bought["id"] not in {p["id"] for p in mine["purchases"]} and mine["cpp"] == cpp
    # Nothing left to give back: the link is gone, the Buy form is there again.
    page = client(people, "alice").get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert "Give back a purchase" not in page
    assert find_form(page, "ap.purchase", action="buy")


@pytest.mark.parametrize("htmx", [False, True], ids=["without-js", "with-js"])
def test_a_fortification_is_given_back_through_the_page(club, people, htmx):
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("german", "ap.check", {"step": "1.619"})
    assert war.current("german").id == "1.621"
    fpp = war.side("german")["fpp"]
    war.by("german", "ap.fortify", {"action": "buy", "item": "Foxholes", "size": 3})
    war.by("german", "ap.fortify", {"action": "buy", "item": "Wire"})
    wire = war.side("german")["fortifications"][-1]
    foxholes = war.side("german")["fortifications"][0]
    # The last one bought is chosen; the player picks the Foxholes instead.
    form, answer = give_back(
        client(people, "bob"),
        war,
        "Give back a fortification of this step",
        "ap.fortify",
        htmx,
        fortification=foxholes["id"],
    )
    assert form.value("fortification") == wire["id"]
    assert "Wire: 7 FPP back" in form.text and "Foxholes (3-squad): 3 FPP back" in form.text
    assert answer.status_code == (204 if htmx else 302), errors(answer)
    mine = war.side("german")
    assert [f["type"] for f in mine["fortifications"]] == ["Wire"]
    assert mine["fpp"] == fpp - wire["cost"]
    assert war.current("german").id == "1.621"  # still buying


def test_a_give_back_refused_comes_back_as_the_give_back_form(club, people):
    """A purchase already given back (a second tap on an old page) is refused with the reason, in
    the give-back form, never in a Buy picker asking for an RG."""
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "I2"})
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
    first = war.side("allied")["purchases"][-2]["id"]
    alice = client(people, "alice")
    url = f"/campaigns/{war.campaign.pk}/"
    page = alice.get(
        url + link(alice.get(url).content.decode(), "Give back a purchase of this step")
    ).content.decode()
    form = find_form(page, "ap.purchase", action="remove")
    assert alice.post(url + "submit/", form.body(purchase=first), **HTMX).status_code == 204
    again = alice.post(url + "submit/", form.body(purchase=first), **HTMX)
    assert again.status_code == 400
    body = again.content.decode()
    assert "Purchase to give back" in body and "This field is required" not in body
    assert 'name="rg"' not in body
