"""Odds before rolling on the campaign page and in the API: exact chances, each side its own.

Skirmish's supply roll is 1d6 on table "supply" (≤1: 0, 2-4: 1, 5: 2, ≥6: 3 points): with no
modifier the chances are 1/6, 3/6, 1/6, 1/6. Red rolls first here, so only blue has a supply
roll ahead afterwards; red's page and API must then show no odds of blue and vice versa.
"""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from campaigns.services.journal import submit

from .conftest import text_of


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _odds_section(html: str) -> str:
    match = re.search(r'<section id="odds".*?</section>', html, re.S)
    return match.group(0) if match else ""


def _page(client, campaign, capture):
    url = reverse("campaign", args=[campaign.pk])
    with capture(execute=True):  # the odds task runs inline after the (test) commit
        client.get(url)
    return _odds_section(text_of(client.get(url)))


def test_the_page_shows_the_exact_chances_of_the_sides_own_roll(
    skirmish, client_for, django_capture_on_commit_callbacks
):
    section = _page(client_for("bob"), skirmish, django_capture_on_commit_callbacks)
    assert "Odds before rolling" in section and "Blue" in section and "Red" not in section
    rows = dict(re.findall(r"<tr><td>(\d)</td><td>([\d.]+)%</td></tr>", section))
    assert rows == {"0": "16.67", "1": "50.0", "2": "16.67", "3": "16.67"}


def test_a_pending_computation_says_so_until_the_task_has_run(skirmish, client_for):
    section = _odds_section(text_of(client_for("bob").get(reverse("campaign", args=[skirmish.pk]))))
    assert "Computing the odds" in section and "hx-trigger" in section


def test_no_side_sees_the_other_sides_odds(
    skirmish, people, client_for, django_capture_on_commit_callbacks
):
    submit(
        skirmish, people["alice"], "skirmish.supply"
    )  # red's roll is done: only blue has one ahead
    assert _page(client_for("alice"), skirmish, django_capture_on_commit_callbacks) == ""
    assert (
        _page(client_for("olga"), skirmish, django_capture_on_commit_callbacks) == ""
    )  # organizer playing red
    assert (
        _page(client_for("carol"), skirmish, django_capture_on_commit_callbacks) == ""
    )  # plays no side
    assert "Blue" in _page(client_for("bob"), skirmish, django_capture_on_commit_callbacks)
    referee = _page(client_for("rita"), skirmish, django_capture_on_commit_callbacks)
    assert "Blue" in referee and "Red" not in referee  # red has nothing ahead


def test_the_api_answers_only_the_viewers_sides(
    skirmish, people, django_capture_on_commit_callbacks
):
    from rest_framework.test import APIClient

    def odds(name):
        client = APIClient()
        client.force_login(people[name])
        url = f"/api/v1/campaigns/{skirmish.pk}/odds/"
        with django_capture_on_commit_callbacks(execute=True):
            client.get(url)
        response = client.get(url)
        assert response.status_code == 200
        return {entry["side"]: entry for entry in response.json()}

    assert set(odds("alice")) == {"red"} and set(odds("olga")) == {"red"}
    assert set(odds("bob")) == {"blue"} and odds("carol") == {}
    assert set(odds("rita")) == {"red", "blue"}
    blue = odds("bob")["blue"]
    assert blue["status"] == "ready" and "seq" not in blue
    (roll,) = blue["rolls"]
    assert roll["table"] == "supply" and roll["modifiers"] == []
    assert {o["outcome"]: o["fraction"] for o in roll["outcomes"]} == {
        "0": "1/6",
        "1": "1/2",
        "2": "1/6",
        "3": "1/6",
    }
