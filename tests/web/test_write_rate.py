"""How fast a member may write: MEMBER_WRITES_PER_MINUTE requests that may
change something per person and minute, pages and API together; beyond it 429 naming the limit,
nothing written. Counted at the door only: the journal service takes any number (replays, the
suite's own set-ups)."""

from rest_framework.test import APIClient

from campaigns.models import Event
from campaigns.services.journal import submit


def test_a_member_writing_faster_than_the_limit_is_refused_naming_it(
    skirmish, people, client_for, settings
):
    settings.MEMBER_WRITES_PER_MINUTE = 3
    page = client_for("alice")
    api = APIClient()
    api.force_login(people["alice"])
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    before = Event.objects.count()
    assert (
        api.post(
            url, {"kind": "note.added", "data": {"scenario": 0, "text": "x"}}, format="json"
        ).status_code
        < 500
    )
    for _ in range(5):  # reads are not counted
        assert page.get(f"/campaigns/{skirmish.pk}/").status_code == 200
    page.post(f"/campaigns/{skirmish.pk}/submit/", {"_kind": "skirmish.supply", "_side": "red"})
    page.post(f"/campaigns/{skirmish.pk}/submit/", {"_kind": "skirmish.supply", "_side": "red"})
    written = Event.objects.count()
    refused = page.post(
        f"/campaigns/{skirmish.pk}/submit/", {"_kind": "skirmish.supply", "_side": "red"}
    )
    assert refused.status_code == 429
    assert "at most 3 changes a minute" in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 60
    in_place = page.post(
        f"/campaigns/{skirmish.pk}/submit/",
        {"_kind": "skirmish.supply", "_side": "red"},
        HTTP_HX_REQUEST="true",
    )
    assert in_place.status_code == 429 and in_place["HX-Reswap"] == "beforebegin"  # the form stays
    assert in_place.content.decode().startswith(
        '<p class="error" role="alert">You may send at most 3 changes'
    )
    # htmx swaps a 429 in (its message shown where the form was sent), as it does a 400.
    assert '{"code":"429","swap":true}' in page.get(f"/campaigns/{skirmish.pk}/").content.decode()
    answer = api.post(url, {"kind": "skirmish.supply", "side": "red"}, format="json")
    assert answer.status_code == 429 and "at most 3 changes a minute" in answer.json()["detail"]
    assert answer["Retry-After"]
    assert Event.objects.count() == written >= before
    # Another member is not held up; the journal service itself never counts.
    bob = APIClient()
    bob.force_login(people["bob"])
    assert (
        bob.post(url, {"kind": "skirmish.supply", "side": "blue"}, format="json").status_code == 201
    )
    for n in range(5):
        submit(
            skirmish,
            people["alice"],
            "proposal.made",
            {"action": "export", "reason": f"at the door only {n}"},
        )
    assert APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": "x"}, format="json"
    ).status_code in (400, 401, 403)  # anonymous: not counted here


def test_forged_cross_site_posts_do_not_use_up_a_members_writes(skirmish, people, settings):
    """A post that fails the CSRF check (another site making the member's browser post) is refused
    before it is counted."""
    from django.test import Client

    settings.MEMBER_WRITES_PER_MINUTE = 2
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(people["alice"])
    for _ in range(5):
        assert (
            forged.post(
                f"/campaigns/{skirmish.pk}/submit/", {"_kind": "skirmish.supply"}
            ).status_code
            == 403
        )
    own = Client()
    own.force_login(people["alice"])
    answer = own.post(
        f"/campaigns/{skirmish.pk}/submit/", {"_kind": "skirmish.supply", "_side": "red"}
    )
    assert answer.status_code != 429


def test_with_the_cache_away_writes_are_not_counted_and_go_through(
    skirmish, people, settings, monkeypatch
):
    """Redis restarting must not turn every write into an error (tests/faults stop a real
    Redis): the count is skipped, the write stored."""
    from muster import write_rate

    class Away:
        def add(self, *args, **kwargs):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        incr = add

    monkeypatch.setattr(write_rate, "cache", Away())
    settings.MEMBER_WRITES_PER_MINUTE = 1
    api = APIClient()
    api.force_login(people["alice"])
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    for text in ("one", "two"):
        answer = api.post(
            url, {"kind": "note.added", "data": {"scenario": 0, "text": text}}, format="json"
        )
        assert answer.status_code == 201, answer.content
