"""A campaign page read by GET settles the session, the person and the campaign in one query, and
reads with it what the header and the sheets panel show of the person (their unread open notices,
the paper they print on): a page served kept costs two queries, and shows the same figures as a
page drawn the long way, never stale after the person acts."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Notice
from rosters.models import PaperChoice


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
    assert len(queries) == 2, [q["sql"][:80] for q in queries.captured_queries]
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
