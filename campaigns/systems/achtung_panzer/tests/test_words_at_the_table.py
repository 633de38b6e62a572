"""Words a player reads: the message after a purchase says what
was bought and what is left; "Done buying" and "Done with fortifications" list what was bought;
weapon repair asks an AFV's weapon only for AFVs; the leader hardening choice is a sentence."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer import words
from campaigns.systems.achtung_panzer.steps import equipment, leader_hardening_form
from campaigns.systems.achtung_panzer.tests.campaign_harness import War
from campaigns.systems.achtung_panzer.tests.step_harness import make_ctx, make_state, unit
from tests.page_forms import find_form
from tests.page_words import raw_words, visible_text

pytestmark = pytest.mark.django_db


def client(people, name):
    made = Client(raise_request_exception=True)
    made.force_login(people[name])
    return made


def message(page) -> str:
    return " ".join(
        re.findall(r'<li class="[^"]*success[^"]*"[^>]*>(.*?)</li>', page.content.decode(), re.S)
    )


def test_messages_say_what_was_bought_and_what_is_left(club, people):
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    alice = client(people, "alice")
    url = f"/campaigns/{war.campaign.pk}/"
    buy = find_form(alice.get(url).content.decode(), "ap.purchase", action="buy")
    page = alice.post(url + "submit/", buy.body(rg="I2"), follow=True)
    bought = war.side("allied")["purchases"][-1]
    cpp = war.side("allied")["cpp"]
    said = message(page)
    name = words.Names(war.side("allied")).rg(bought["id"])
    assert re.fullmatch(r"(\d\w\w )?RG I2 \(1st Line( Coy)?\)", name), name
    assert (
        said
        == f"Bought {name} for {bought['cost']} CPP; {cpp} CPP left. This step: {name} ({bought['cost']} CPP)."
    )
    assert "Done: Purchase" not in said
    done = find_form(page.content.decode(), "ap.check", step="1.619")
    said = message(alice.post(url + "submit/", done.body(), follow=True))
    assert said.startswith(f"Done buying: {name} ({bought['cost']} CPP); {cpp} CPP left.")
    assert "RG strength" in said  # then the rolls of 1.620, in words
    assert not raw_words(said), raw_words(said)

    bob = client(people, "bob")
    war.by("german", "ap.check", {"step": "1.619"})
    fpp = war.side("german")["fpp"]
    fortify = find_form(bob.get(url).content.decode(), "ap.fortify", action="buy")
    said = message(bob.post(url + "submit/", fortify.body(item="Wire"), follow=True))
    assert said == f"Bought Wire for 7 FPP; {fpp - 7} FPP left."
    finish = find_form(bob.get(url).content.decode(), "ap.check", step="1.621")
    said = message(bob.post(url + "submit/", finish.body(), follow=True))
    assert said.startswith(f"Done with fortifications: Wire; {fpp - 7} FPP forfeit (1.621).")
    assert "Done: Done" not in said


def test_weapon_repair_asks_the_weapon_of_an_afv_only():
    state = make_state(
        german={
            "retained": [
                unit("u1", "sw", type="MMG", status="malfunctioned", rg="p1"),
                unit("u2", "afv", type="PzIIIF", status="malfunctioned", rg="p2"),
            ],
            "purchases": [
                {"id": "p1", "rg": "I1", "group_type": "Rifle Coy", "nationality": "german"},
                {"id": "p2", "rg": "A4", "group_type": "Pz IIIF Plt", "nationality": "german"},
            ],
        }
    )
    fields = {f.name: f for f in equipment.form_repair(make_ctx(state), state, "german")}
    assert [s.name for s in fields["weapons"].item.fields] == ["unit", "non_qualified"]
    assert dict(fields["weapons"].item.fields[0].labels) == {
        "u1": "MMG SW of RG I1 (Rifle Coy) (malfunctioned)"
    }
    assert [s.name for s in fields["afv_weapons"].item.fields] == [
        "unit",
        "weapon",
        "main_armament",
        "non_qualified",
    ]
    from campaigns.systems.achtung_panzer.pages import form_data

    data = form_data(
        state,
        "german",
        "ap.1.6132",
        {"weapons": [{"unit": "u1"}], "afv_weapons": [{"unit": "u2", "weapon": "MA"}]},
    )
    assert data == {"weapons": [{"unit": "u1"}, {"unit": "u2", "weapon": "MA"}]}


def test_the_leader_hardening_choice_is_a_sentence():
    state = make_state(
        half_day="5/29P",
        german={
            "retained": [
                unit("u7", "leader", type="8-0", rg="p1"),
                unit("u8", "leader", type="9-1", rg="p1"),
            ],
            "purchases": [
                {"id": "p1", "rg": "I1", "group_type": "Rifle Coy", "nationality": "german"}
            ],
        },
    )
    pend = {
        "nationality": "german",
        "leader_kind": "infantry",
        "outcomes": {
            "none": {"leader": "9-2", "final": 3},
            "ignore": {"leader": "9-1", "final": 5},
        },
    }
    fields = {
        f.name: f
        for f in leader_hardening_form._resolve_form(make_ctx(state), state, "german", pend)
    }
    said = [text for _, text in fields["choice"].labels]
    assert (
        "The DR as rolled: final DR 3, the table names a 9-2; you have none, so your lowest, the 8-0 leader "
        "of RG I1 (Rifle Coy), battle hardens"
    ) in said
    assert any(
        t.startswith("Ignore the ")
        and t.endswith("the table names a 9-1: your 9-1 leader of RG I1 (Rifle Coy) battle hardens")
        for t in said
    ), said
    assert fields["becomes"].label == "The leader who hardens becomes"
    assert not raw_words(visible_text("<p>" + "</p><p>".join(said) + "</p>"))
