"""The history's first page kept whole, its undo forms included, per audience position and seat
(campaigns.kept_answers.pages, as the campaign page is): what each person is served is the page
drawn afresh for them alone, with its own CSRF token; a side's private entries never reach the
other side, before or after a move; the other pages of the history are drawn for each request."""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from campaigns.kept_answers import pages
from tests.kept_answers import drawn
from tests.kept_answers.test_kept_pages import PEOPLE, _client, _normalized, _steps

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _kept_names(monkeypatch):
    drawn.record_kept_names(monkeypatch)


def _history(client: Client, campaign, query: str = "") -> str:
    return drawn.read(client, f"/campaigns/{campaign.pk}/history/{query}")


def _fresh(client: Client, campaign, monkeypatch) -> str:
    return drawn.drawn_afresh(client, f"/campaigns/{campaign.pk}/history/", monkeypatch)


def _kept_histories() -> int:
    return sum(
        1 for name in drawn.KEPT if ":history-page:" in name and pages.kept(name) is not None
    )


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_every_kept_history_is_the_history_drawn_afresh_for_that_person(
    skirmish, people, monkeypatch, warm
):
    for step in [lambda: None, *_steps(skirmish, people)]:
        step()
        skirmish.refresh_from_db()
        if warm:
            for name in PEOPLE:
                _history(_client(people, name), skirmish)
        else:
            cache.clear()
        served = {}
        for name in PEOPLE:
            client = _client(people, name)
            _history(client, skirmish)
            served[name] = _history(client, skirmish)  # served from the kept page
        assert _kept_histories() >= len(PEOPLE)
        for name in PEOPLE:
            fresh = _fresh(_client(people, name), skirmish, monkeypatch)
            assert _normalized(served[name]) == _normalized(fresh), name
    # Red's secret steps are red's (and the referee's): blue's kept history never shows them.
    assert "private to Red" in served["alice"] and "private to Red" in served["rita"]
    assert "private to Red" not in served["bob"] and "private to Red" not in served["carol"]


def test_a_kept_history_has_its_own_csrf_token_and_its_undo_form_posts(skirmish, people):
    from campaigns.services.journal import submit

    submit(skirmish, people["alice"], "skirmish.supply")
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["alice"])
    first, second = _history(client, skirmish), _history(client, skirmish)
    assert _kept_histories() == 1
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', second)
    assert token is not None and f'"X-CSRFToken": "{token.group(1)}"' in second
    undo = re.search(r'action="([^"]+/undo/)"', second)
    assert undo is not None and undo.group(1) in first
    response = client.post(
        undo.group(1), {"csrfmiddlewaretoken": token.group(1), "reason": "Rolled twice"}
    )
    assert response.status_code in (200, 302), response.content[:500]
    assert skirmish.events.filter(kind="proposal.made").count() == 1


def test_the_older_pages_of_the_history_are_drawn_for_each_request(skirmish, people):
    alice = _client(people, "alice")
    _history(alice, skirmish, "?page=1")
    assert _kept_histories() == 0
    _history(alice, skirmish)
    assert _kept_histories() == 1


def _seat_changes(skirmish, people) -> list:
    """Seat changes outside the moves: alice leaves red in play; carol made an organizer."""
    from campaigns.models import Membership
    from campaigns.services import campaigns as svc

    return [
        lambda: svc.remove_player(skirmish, people["olga"], side="red", username="alice"),
        lambda: Membership.objects.filter(user=people["carol"]).update(role=Membership.ORGANIZER),
    ]


def test_every_kept_history_is_the_history_drawn_for_that_request_alone(skirmish, people):
    """The kept first page, after each move and seat change, is the page `?page=1` draws for that
    request alone (not kept): the forms, the private entries and the undo offers of that person
    now, never of the key's earlier seat; carol made an organizer reads the club's history at the
    same position as olga, and only the seat keeps their pages apart."""
    for step in [lambda: None, *_steps(skirmish, people), *_seat_changes(skirmish, people)]:
        step()
        skirmish.refresh_from_db()
        for name in PEOPLE:
            client = _client(people, name)
            _history(client, skirmish)
            kept = _history(client, skirmish)
            alone = _history(client, skirmish, "?page=1")
            assert _normalized(kept) == _normalized(alone), name
    assert _kept_histories() >= len(PEOPLE)
