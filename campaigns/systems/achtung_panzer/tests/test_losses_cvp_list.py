"""The losses step (1.6067) and the club's CVP list: ASL's A26.2 is
not in the campaign rules, so the club's list per unit kind may be incomplete. The form names up
front the kinds among the side's units the list does not cover, asks the CVP of the lost units of
those kinds only (the rest still counted from the list) and links to completing the list."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War
from tests.page_forms import find_form

pytestmark = pytest.mark.django_db
CLUB_LIST = {
    "cvp.leader": 1,
    "cvp.sw": 0,
    "cvp.armor_leader": 1,
    "cvp.hero": 1,
    "cvp.half_squad": 1,
    "cvp.crew": 1,
}


def client(people, name):
    made = Client(raise_request_exception=True)
    made.force_login(people[name])
    return made


def at_the_losses_step(club, people, house_rules):
    war = War(club, people, dice_mode="server", house_rules=house_rules)
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    war.result({"allied_objectives_end": "", "allied_cvp": 0, "german_cvp": 0})
    for side in ("allied", "german"):
        war.by(side, "ap.aftermath", {})
    war.by("german", "ap.joint", {"through": "1.6066"})
    assert war.current("german").id == "1.6066.losses"
    return war


def test_the_form_names_the_kinds_the_list_misses_and_asks_their_cvp_only(club, people):
    war = at_the_losses_step(club, people, CLUB_LIST)
    bob = client(people, "bob")
    url = f"/campaigns/{war.campaign.pk}/"
    page = bob.get(url).content.decode()
    form = find_form(page, "ap.losses")
    units = war.side("german")["retained"]
    kinds = {u["kind"] for u in units}
    assert "squad" in kinds and "leader" in kinds
    assert re.search(
        r"The club.s CVP list \(A26\.2, not in the campaign rules\) has no value for squads \(",
        form.text,
    )
    assert "; the others are counted from the list (" in form.text and "leader 1" in form.text
    assert "cvp" not in form.names() and "cvp_unlisted" in form.names()  # never the total
    assert "CVP of the squads" in form.text
    link = re.search(r'<a href="([^"]+)">Complete the club(?:\'|&#x27;)s CVP list', page)
    assert link and link.group(1).startswith("?rule_table=constants&amp;rule_row=cvp.squad")
    opened = bob.get(url + link.group(1).replace("&amp;", "&").split("#")[0]).content.decode()
    assert re.search(
        r'<option value="cvp.squad" selected>', opened
    )  # the house rule form, on the value

    squad = next(u for u in units if u["kind"] == "squad")
    leader = next(u for u in units if u["kind"] == "leader")
    cvp_before = war.public["roster"][0]["cvp"]["german"]
    refused = bob.post(url + "submit/", form.body(units=[squad["id"], leader["id"]]))
    assert refused.status_code == 400
    assert (
        "Enter the CVP of " in refused.content.decode()
        and war.public["roster"][0]["cvp"]["german"] == cvp_before
    )
    done = bob.post(url + "submit/", form.body(units=[squad["id"], leader["id"]], cvp_unlisted="2"))
    assert done.status_code == 302
    assert (
        war.public["roster"][0]["cvp"]["german"] == cvp_before + 2 + 1
    )  # the squad entered, the leader listed


def test_with_a_complete_list_nothing_is_asked(club, people):
    complete = {**CLUB_LIST, "cvp.squad": 2, "cvp.afv": 3, "cvp.vehicle": 1, "cvp.gun": 1}
    war = at_the_losses_step(club, people, complete)
    form = find_form(
        client(people, "bob").get(f"/campaigns/{war.campaign.pk}/").content.decode(), "ap.losses"
    )
    assert "CVP are counted from the club's CVP list (A26.2): squad 2" in form.text
    assert not {"cvp", "cvp_unlisted"} & form.names()
    assert "Complete the club" not in form.text
