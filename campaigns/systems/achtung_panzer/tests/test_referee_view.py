"""The referee's seat: he acts for both sides, so each thing he
can do names the side it is for ("what happened to the Allied units", never "your units"); a
map step either player confirms for both appears once; his result needs no confirmation."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War
from tests.page_forms import find_form, long_form_page, page_forms

pytestmark = pytest.mark.django_db


def client(people, name):
    made = Client(raise_request_exception=True)
    made.force_login(people[name])
    return made


def titles(page: str) -> list[str]:
    now = page.split('id="now"', 1)[1].split("</section>", 1)[0]
    now = re.sub(r'<span class="rule">[^<]*</span>', "", now).replace("&#x27;", "'")
    return [
        re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r"<h3>(.*?)</h3>", now)
    ] + re.findall(r'<a href="\?do=\w+#now">([^<]+)</a>', now)


def test_the_referee_reads_each_side_named_and_a_joint_step_once(club, people):
    war = War(club, people, dice_mode="server")
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    rita = client(people, "rita")
    url = f"/campaigns/{war.campaign.pk}/"
    page = rita.get(url).content.decode()
    seen = titles(page)
    assert "End of 5/29A: what happened to the Allied units" in seen
    assert "End of 5/29A: what happened to the German units" in seen
    assert "Correct the Allied retained units: change or remove a unit" in seen
    assert "Correct the German retained units: change or remove a unit" in seen
    assert not [t for t in seen if re.search(r"\byour\b", t, re.I)], seen
    assert (
        "Enter the result of 5/29A (final: the referee's result needs no confirmation)"
        in page.replace("&#x27;", "'")
    )
    result = find_form(long_form_page(rita, page, "result.submitted"), "result.submitted")
    assert "_side" not in result.names()  # for no side: the referee's own, final

    # After the result and both records, the map steps: one to-do for the referee, for both sides.
    war.result({"allied_objectives_end": "", "allied_cvp": 0, "german_cvp": 0})
    for side in ("allied", "german"):
        war.by(side, "ap.aftermath", {})
    page = rita.get(url).content.decode()
    joint = [f for f in page_forms(page) if f.body().get("_kind") == "ap.joint"]
    assert len(joint) == 1 and "_side" not in joint[0].names()
    assert rita.post(url + "submit/", joint[0].body()).status_code == 302
    assert war.current("allied").id == war.current("german").id == "1.6066.losses"
    seen = titles(rita.get(url).content.decode())
    assert "The Allied units eliminated at the table in this Refit Phase" in seen
    assert "The German units eliminated at the table in this Refit Phase" in seen


def test_a_player_still_reads_your(club, people):
    war = War(club, people, dice_mode="server")
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    seen = titles(client(people, "alice").get(f"/campaigns/{war.campaign.pk}/").content.decode())
    assert "End of 5/29A: what happened to your units" in seen
    assert not [t for t in seen if "German" in t or t.startswith("Allied:")], seen
