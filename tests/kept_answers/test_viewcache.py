"""Answers kept per audience position (campaigns.kept_answers.viewcache): what moves a position, what a
cached answer costs, and that one audience's entry never answers another."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.access import visibility
from campaigns.kept_answers import audiences, viewcache
from campaigns.services.journal import submit
from campaigns.services.state import current_state

pytestmark = pytest.mark.django_db


def _positions(campaign) -> dict:
    campaign.refresh_from_db()
    return {
        name: value
        for name, value in campaign.positions.items()
        if name not in ("seq", "newest", "projected")
    }


def test_a_sides_hidden_step_moves_only_that_side_and_the_referee(skirmish, people):
    before = _positions(skirmish)
    assert set(before) == {"club", "referee", "side:red", "side:blue"}
    submit(skirmish, people["alice"], "skirmish.buy", {"count": 1})  # red's secret purchase
    after = _positions(skirmish)
    assert after["side:blue"] == before["side:blue"] and after["club"] == before["club"]
    assert after["side:red"] != before["side:red"] and after["referee"] != before["referee"]


def test_a_hidden_choice_the_other_side_is_told_of_moves_its_position(skirmish, people):
    """Why a side's newest readable event is not enough: red's sealed choice is red's event, yet
    blue's cut says that red has chosen (the page: "1 of 2 sides have chosen")."""
    for user in ("alice", "bob"):
        submit(skirmish, people[user], "skirmish.supply")
    before = _positions(skirmish)
    submit(skirmish, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"})
    after = _positions(skirmish)
    assert after["side:blue"] != before["side:blue"]
    bob = visibility.viewer_for(people["bob"], skirmish)
    assert visibility.view_state(current_state(skirmish), bob)["sealed"]["stance:0"][
        "submitted"
    ] == ["red"]


def test_positions_are_what_a_fresh_computation_gives(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    stored = {name: value for name, value in skirmish.positions.items() if name != "projected"}
    assert audiences.positions(skirmish, current_state(skirmish)) == stored


def test_a_row_without_positions_gets_them_on_first_read(skirmish, people):
    from campaigns.models import Campaign

    stored = _positions(skirmish)
    Campaign.objects.filter(pk=skirmish.pk).update(
        positions={}
    )  # as written before positions existed
    skirmish.refresh_from_db()
    assert viewcache.position(skirmish, "side:red") == stored["side:red"]
    skirmish.refresh_from_db()
    assert skirmish.positions["side:red"] == stored["side:red"]


def test_keys_name_the_audience_and_the_organizer(skirmish, people):
    keys = {
        name: viewcache.key(skirmish, visibility.viewer_for(people[name], skirmish), "x")
        for name in ("olga", "alice", "bob", "rita", "carol")
    }
    assert len(set(keys.values())) == 5  # olga and alice both play red; olga organizes
    assert (
        ":side:red:" in keys["alice"]
        and ":side:blue:" in keys["bob"]
        and ":referee:" in keys["rita"]
    )
    assert ":club:" in keys["carol"]
    assert viewcache.key(skirmish, visibility.viewer_for(people["outsider"], skirmish), "x") is None


def test_a_kept_answer_costs_one_query_for_the_user_and_the_campaign_row(skirmish, people):
    """The session comes from the cache (cached_db); the user, membership, seat and campaign in
    one query (api.kept)."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(people["bob"])
    for tail in ("", "state/"):
        url = f"/api/v1/campaigns/{skirmish.pk}/{tail}"
        first = client.get(url)
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url)
        assert again.content == first.content and again.status_code == 200
        assert len(queries) == 1, [q["sql"][:80] for q in queries]


def test_a_fragment_holding_a_form_is_never_kept(skirmish, people):
    from django.template import Context, Template

    template = Template(
        '{% load viewcache %}{% viewcache "f" %}<form method="post"></form>{{ n }}{% endviewcache %}'
    )
    key = viewcache.key(skirmish, visibility.viewer_for(people["bob"], skirmish), "page-fragments")
    assert template.render(Context({"view_key": key, "n": 1})).endswith("1")
    assert template.render(Context({"view_key": key, "n": 2})).endswith(
        "2"
    )  # drawn again, not served
    plain = Template('{% load viewcache %}{% viewcache "g" %}{{ n }}{% endviewcache %}')
    assert plain.render(Context({"view_key": key, "n": 1})) == "1"
    assert plain.render(Context({"view_key": key, "n": 2})) == "1"  # kept: the key did not move


def test_a_kept_answer_whose_data_has_keys_that_are_not_text_is_encoded_not_a_500(skirmish, people):
    """orjson refuses keys that are not text; every other API answer falls back to DRF's encoder
    for them (api.renderers), and so does an answer kept per audience position."""
    import json
    from types import SimpleNamespace

    from api.common import cached_json

    skirmish.refresh_from_db()
    bob = visibility.viewer_for(people["bob"], skirmish)
    answer = cached_json(
        SimpleNamespace(), skirmish, bob, "test:int-keys", lambda: {"rounds": {1: "won"}}
    )
    assert answer.status_code == 200 and json.loads(answer.content) == {"rounds": {"1": "won"}}
