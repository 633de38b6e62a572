"""A campaign page read by GET settles the session, the person and the campaign in one query, and
reads with it what the header and the sheets panel show of the person (their unread open notices,
the paper they print on, whether the campaign holds a print job they may read): a page served kept
costs one query (two when the person has print jobs to list), and shows the same figures as a page
drawn the long way, never stale after the person acts."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Notice
from rosters.models import PaperChoice
from rosters.services import request_sheet


def _notice(person, campaign, key, **when):
    return Notice.objects.create(
        recipient=person, campaign=campaign, key=key, words=f"About {key}.", link="/", **when
    )


def _unread_shown(response) -> str:
    page = response.content.decode()
    return page.split('class="inbox-link"', 1)[1].split("</a>", 1)[0]


def test_the_unread_count_and_the_paper_come_with_the_sign_in(skirmish, people, client_for):
    from django.utils import timezone

    bob = people["bob"]
    _notice(bob, skirmish, "one")
    _notice(bob, skirmish, "two")
    _notice(bob, skirmish, "read", read_at=timezone.now())
    _notice(bob, skirmish, "done", resolved_at=timezone.now())
    _notice(people["alice"], skirmish, "hers")
    PaperChoice.objects.create(user=bob, paper=PaperChoice._meta.get_field("paper").choices[1][0])
    client = client_for("bob")
    url = f"/campaigns/{skirmish.pk}/"
    client.get(url)  # drawn and kept

    with CaptureQueriesContext(connection) as queries:
        kept = client.get(url)
    assert len(queries) == 1, [q["sql"][:80] for q in queries.captured_queries]
    assert 'aria-label="Notices: 2 unread"' in _unread_shown(kept)
    assert '<option value="Letter" selected' in kept.content.decode()

    # Read one in the inbox: the next page says so at once.
    opened = client.get(f"/notices/{Notice.objects.get(key='one').pk}/")
    assert opened.status_code == 302
    assert 'aria-label="Notices: 1 unread"' in _unread_shown(client.get(url))


def test_a_page_drawn_the_long_way_shows_the_same_figures(skirmish, people, client_for):
    bob = people["bob"]
    _notice(bob, skirmish, "one")
    client = client_for("bob")
    url = f"/campaigns/{skirmish.pk}/"
    kept_twice = [_unread_shown(client.get(url)) for _ in range(2)]
    long_way = _unread_shown(client.get(url + "?do=nothing"))  # a query: never served kept
    assert kept_twice == [long_way, long_way]
    assert 'aria-label="Notices: 1 unread"' in long_way
    assert '<option value="A4" selected' in client.get(url).content.decode()


def _jobs_listed(response) -> int:
    panel = response.content.decode().split('id="sheets"', 1)[1].split("</section>", 1)[0]
    return panel.count("<li>")


def test_the_jobs_are_asked_for_only_when_the_person_may_read_one(
    skirmish, people, client_for, django_capture_on_commit_callbacks
):
    """Whether the campaign holds a print job the person reads comes with the sign-in: a page
    served kept asks for the jobs only then, and never because another side printed."""
    with django_capture_on_commit_callbacks(execute=False):  # queued, not rendered
        request_sheet(people["alice"], skirmish, "supply", "A4", "red")
    url = f"/campaigns/{skirmish.pk}/"
    # red's job: red's players and the referee read it; blue and a member playing nothing do not.
    for name, listed in (("alice", 1), ("olga", 1), ("rita", 1), ("bob", 0), ("carol", 0)):
        client = client_for(name)
        client.get(url)  # drawn and kept
        with CaptureQueriesContext(connection) as queries:
            kept = client.get(url)
        assert len(queries) == (2 if listed else 1), name
        assert _jobs_listed(kept) == _jobs_listed(client.get(url + "?do=nothing")) == listed, name

    # Bob prints his side's sheet: his next page lists it at once; red's pages still list one.
    with django_capture_on_commit_callbacks(execute=False):
        request_sheet(people["bob"], skirmish, "supply", "A4", "blue")
    assert _jobs_listed(client_for("bob").get(url)) == 1
    assert _jobs_listed(client_for("alice").get(url)) == 1
    assert _jobs_listed(client_for("rita").get(url)) == 2
