"""The sheets panel's forms are drawn once per campaign and audience (rosters_sheets): each render
still carries its own CSRF token, which a post is checked against, and one audience's forms never
show in another's page."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

TOKEN = re.compile(
    r'<form method="post" action="/campaigns/\d+/sheets/request/".*?name="csrfmiddlewaretoken" '
    r'value="([^"]+)"',
    re.S,
)


def _panel(client, campaign) -> str:
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    return page[page.index('id="sheets"') : page.index("</section>", page.index('id="sheets"'))]


def test_each_render_carries_a_token_a_post_is_checked_against(
    skirmish, people, django_capture_on_commit_callbacks
):
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["alice"])
    first, second = _panel(client, skirmish), _panel(client, skirmish)
    tokens = TOKEN.findall(first), TOKEN.findall(second)
    assert tokens[0] and tokens[1] and tokens[0][0] != tokens[1][0]  # masked anew per render
    assert "\x00" not in second
    url = f"/campaigns/{skirmish.pk}/sheets/request/"
    assert client.post(url, {"sheet": "summary", "paper": "A4"}).status_code == 403  # no token
    with django_capture_on_commit_callbacks(execute=False):
        answer = client.post(
            url, {"sheet": "summary", "paper": "A4", "csrfmiddlewaretoken": tokens[1][0]}
        )
    assert answer.status_code in (200, 202, 302)


def test_one_audiences_forms_never_show_in_anothers_page(skirmish, people):
    views = {}
    for name in ("alice", "bob", "carol", "rita", "alice"):
        client = Client()
        client.force_login(people[name])
        views[name] = _panel(client, skirmish)
    assert 'value="red"' in views["alice"] and 'value="blue"' not in views["alice"]
    assert 'value="blue"' in views["bob"] and 'value="red"' not in views["bob"]
    assert "Supply record" not in views["carol"] and "Referee notes" not in views["carol"]
    assert "Referee notes" in views["rita"] and "Referee notes" not in views["alice"]
