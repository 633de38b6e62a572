"""The campaign page kept whole, forms included, per audience position and seat
(campaigns.kept_answers.pages): a kept page is exactly the page drawn afresh for the same person,
with its own CSRF token and fresh idempotency keys; one drawn for a side never reaches the other
side, the referee's never a player, and neither a move nor a seat change reuses one."""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from campaigns.kept_answers import pages
from campaigns.models import Campaign
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from tests.kept_answers import drawn

pytestmark = pytest.mark.django_db

PEOPLE = ("olga", "alice", "bob", "rita", "carol")
_KEYS = re.compile(r'name="idempotency_key" value="([0-9a-f]+)"')
_NOISE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), "csrf"),
    (re.compile(r'"X-CSRFToken": "[^"]+"'), "csrf"),
    (_KEYS, "key"),
    (re.compile(r'<time datetime="[^"]+">[^<]*</time>'), "<time>"),
]


def _client(people, name: str) -> Client:
    client = Client()
    client.force_login(people[name])
    return client


def _page(client: Client, campaign) -> str:
    return drawn.read(client, f"/campaigns/{campaign.pk}/")


def _normalized(text: str) -> str:
    for pattern, replacement in _NOISE:
        text = pattern.sub(replacement, text)
    return text


def _fresh(client: Client, campaign, monkeypatch) -> str:
    """The page drawn afresh: with a key space nothing was kept in."""
    return drawn.drawn_afresh(client, f"/campaigns/{campaign.pk}/", monkeypatch)


@pytest.fixture(autouse=True)
def _kept_names(monkeypatch):
    """The names pages are kept under, whatever the cache (local memory or Redis)."""
    drawn.record_kept_names(monkeypatch)


def _kept_pages() -> int:
    return sum(1 for name in drawn.KEPT if pages.kept(name) is not None)


def _everyone_reads(people, campaign) -> dict[str, str]:
    """Each person's page, read twice: drawn (or found kept), then served from the kept page."""
    pages_read = {}
    for name in PEOPLE:
        client = _client(people, name)
        _page(client, campaign)
        pages_read[name] = _page(client, campaign)
    return pages_read


def _steps(skirmish, people) -> list:
    """Moves of the game: red's secret steps, blue's, red's sealed choice."""
    return [
        lambda: submit(skirmish, people["alice"], "skirmish.supply"),
        lambda: submit(skirmish, people["alice"], "skirmish.buy", {"count": 1}),
        lambda: submit(skirmish, people["bob"], "skirmish.supply"),
        lambda: submit(
            skirmish, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"}
        ),
    ]


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_every_kept_page_is_the_page_drawn_afresh_for_that_person(
    skirmish, people, monkeypatch, warm
):
    """After each move, with everyone's pages kept (warm) or none (cold): what each person is
    served is what would be drawn for them alone. A page kept for red (its forms, its secrets)
    served to blue, the referee's to a player, or a page of before the move would differ."""
    for step in [lambda: None, *_steps(skirmish, people)]:
        step()
        skirmish.refresh_from_db()
        if warm:
            _everyone_reads(people, skirmish)
        else:
            cache.clear()
        served = _everyone_reads(people, skirmish)
        assert _kept_pages() >= len(PEOPLE)
        for name in PEOPLE:
            fresh = _fresh(_client(people, name), skirmish, monkeypatch)
            assert _normalized(served[name]) == _normalized(fresh), name
        # Pages of different seats differ (names, forms): none was served to another.
        assert len({_normalized(text) for text in served.values()}) == len(PEOPLE)


def test_a_side_reads_another_sides_kept_forms_never(skirmish, people):
    for name in PEOPLE:  # every page kept
        _page(_client(people, name), skirmish)
    red = _page(_client(people, "alice"), skirmish)
    blue = _page(_client(people, "bob"), skirmish)
    assert 'name="_side" value="red"' in red and 'name="_side" value="red"' not in blue
    assert 'name="_side" value="blue"' in blue and 'name="_side" value="blue"' not in red


def test_a_kept_page_has_its_own_csrf_token_and_fresh_idempotency_keys(skirmish, people):
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["alice"])
    first, second = _page(client, skirmish), _page(client, skirmish)
    assert _kept_pages() == 1
    keys_first, keys_second = _KEYS.findall(first), _KEYS.findall(second)
    assert keys_first and len(set(keys_first)) == len(keys_first)  # one per form
    assert not set(keys_first) & set(keys_second)  # every render its own
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', second)
    assert token is not None and f'"X-CSRFToken": "{token.group(1)}"' in second
    # The kept form posts as a drawn one does: its token and key are accepted, once.
    posted = {
        "csrfmiddlewaretoken": token.group(1),
        "_kind": "skirmish.supply",
        "_side": "red",
        "idempotency_key": keys_second[0],
    }
    assert 'name="_kind" value="skirmish.supply"' in second
    response = client.post(f"/campaigns/{skirmish.pk}/submit/", posted)
    assert response.status_code in (200, 302), response.content[:500]
    assert skirmish.events.filter(kind="skirmish.supply").count() == 1
    client.post(f"/campaigns/{skirmish.pk}/submit/", posted)  # a double click
    assert skirmish.events.filter(kind="skirmish.supply").count() == 1


def test_leaving_a_side_in_play_never_reuses_a_kept_page(skirmish, people, monkeypatch):
    alice = _client(people, "alice")
    assert 'name="_side" value="red"' in _page(alice, skirmish)
    assert not svc.is_proposal(
        svc.remove_player(skirmish, people["olga"], side="red", username="alice")
    )
    skirmish.refresh_from_db()
    left = _page(alice, skirmish)
    assert 'name="_side" value="red"' not in left
    assert _normalized(left) == _normalized(_fresh(alice, skirmish, monkeypatch))


def test_becoming_referee_never_reuses_a_kept_page(club, people, monkeypatch):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Second war"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    carol = _client(people, "carol")
    before = _page(carol, campaign)
    assert not svc.is_proposal(svc.assign_referee(campaign, olga, username="carol"))
    campaign.refresh_from_db()
    referee = _page(carol, campaign)
    assert "you referee" in referee and "you referee" not in before
    assert _normalized(referee) == _normalized(_fresh(carol, campaign, monkeypatch))


def test_an_organizer_made_or_unmade_never_reuses_a_kept_page(skirmish, people, monkeypatch):
    """Club roles are not in the journal: the seat names them."""
    from campaigns.models import Membership

    carol = _client(people, "carol")
    before = _page(carol, skirmish)
    Membership.objects.filter(user=people["carol"]).update(role=Membership.ORGANIZER)
    after = _page(carol, skirmish)
    assert "Setup: players, referee" in after and "Setup: players, referee" not in before
    assert _normalized(after) == _normalized(_fresh(carol, skirmish, monkeypatch))


def test_a_seat_key_names_who_looks_from_where(skirmish, people):
    from campaigns.access import visibility

    seats = {
        name: pages.seat(skirmish, visibility.viewer_for(people[name], skirmish), people[name].pk)
        for name in PEOPLE
    }
    assert len(set(seats.values())) == len(PEOPLE)  # olga and alice both play red
    Campaign.objects.filter(pk=skirmish.pk).update(name="Renamed war")
    skirmish.refresh_from_db()
    alice = visibility.viewer_for(people["alice"], skirmish)
    assert pages.seat(skirmish, alice, people["alice"].pk) != seats["alice"]  # not in the journal


def test_a_message_is_shown_not_a_kept_page(skirmish, people):
    """After a step the page says what was saved, once: a page waiting with a message is drawn for
    that request, not served from the kept one."""
    client = _client(people, "alice")
    kept = _page(client, skirmish)
    key = _KEYS.findall(kept)[0]
    posted = {"_kind": "skirmish.supply", "_side": "red", "idempotency_key": key}
    response = client.post(f"/campaigns/{skirmish.pk}/submit/", posted, follow=True)
    shown = response.content.decode()
    assert response.status_code == 200 and '<li class="msg success">' in shown
    again = _page(client, skirmish)
    assert '<li class="msg success">' not in again


def test_the_live_parts_are_drawn_for_each_request(skirmish, people):
    """The unread notices of the header move without the position moving: never kept."""
    from campaigns.models import Notice

    def unread(page: str) -> int:
        found = re.search(r"Notices: (\d+) unread", page)
        return int(found.group(1)) if found else 0

    client = _client(people, "bob")
    first = _page(client, skirmish)
    Notice.objects.create(
        recipient=people["bob"], campaign=skirmish, key="test/x", words="Look", link="/"
    )
    second = _page(client, skirmish)
    assert _kept_pages() == 1
    assert unread(second) == unread(first) + 1 and 'id="sheets"' in second


def test_a_query_or_a_post_is_drawn_for_itself(skirmish, people):
    client = _client(people, "alice")
    client.get(f"/campaigns/{skirmish.pk}/?do=nothing")
    assert _kept_pages() == 0


def test_a_kept_page_read_again_is_cut_once_and_served_with_its_own_parts(monkeypatch):
    """A page read again is not decompressed again (its cut is remembered by the bytes kept); each
    serving still puts in its own token, a fresh key per form and its live parts."""
    import zlib

    decompressed = []
    decompress = zlib.decompress
    monkeypatch.setattr(
        pages.zlib, "decompress", lambda data: decompressed.append(1) or decompress(data)
    )
    drawn = (
        f"<p>{pages.CSRF}</p><form>{pages.idempotency_mark(0)}</form>"
        f"<form>{pages.idempotency_mark(1)}{pages.idempotency_mark(1)}</form>"
        f"{pages.live_mark('_inbox_link.html')}<i>{pages.CSRF}</i>"
    )
    pages.keep("muster:view:test:cut-once", drawn)
    first, second = pages.kept("muster:view:test:cut-once"), pages.kept("muster:view:test:cut-once")
    assert first == second == pages.cut(drawn) and len(decompressed) == 1

    def live(template: str) -> str:
        return f"[{template}]"

    served = [pages.served(None, second, live, token="TOKEN") for _ in range(2)]  # type: ignore[arg-type]
    keys = [re.findall(r"<form>([0-9a-f]{32})", text) for text in served]
    for text, (one, two) in zip(served, keys, strict=True):
        assert text == (
            f"<p>TOKEN</p><form>{one}</form><form>{two}{two}</form>[_inbox_link.html]<i>TOKEN</i>"
        )
        assert one != two  # a key per form
    assert not set(keys[0]) & set(keys[1])  # every serving its own


def test_a_page_the_cache_no_longer_holds_is_not_served_from_the_process(skirmish, people):
    """The cut pages a process remembers are found through the bytes the cache still holds: a page
    gone from the cache (expired, evicted, cleared) is drawn again, never served from memory."""
    client = _client(people, "alice")
    _page(client, skirmish)
    (name,) = drawn.KEPT
    assert pages.kept(name) is not None
    cache.delete(name)
    assert pages.kept(name) is None
    _page(client, skirmish)
    assert pages.kept(name) is not None  # drawn and kept again


def test_the_headers_link_is_drawn_once_per_count_and_for_nobody_in_particular(
    skirmish, people, monkeypatch
):
    """A kept page's link to the notices is drawn from the count alone, once per count: two people
    with the same count are served the same link (nothing of either in it), a new count draws anew."""
    from django.template import Context

    from campaigns.models import Notice
    from campaigns.views import play

    drawings = []
    render = Context.__init__

    def counted(self, values=None, *args, **kwargs):
        if values is not None and set(values) == {"unread_notices"}:
            drawings.append(values["unread_notices"])
        render(self, values, *args, **kwargs)

    play._INBOX_LINKS.clear()
    monkeypatch.setattr(Context, "__init__", counted)

    def link(name: str) -> str:
        found = re.search(
            r'<a href="/notices/"[^>]*>.*?</a>', _page(_client(people, name), skirmish)
        )
        assert found is not None
        return found.group(0)

    alice, bob = link("alice"), link("bob")
    assert alice == bob == link("alice") and "alice" not in alice and drawings == [0]
    Notice.objects.create(
        recipient=people["bob"], campaign=skirmish, key="test/y", words="Look", link="/"
    )
    assert link("bob") != bob and "Notices: 1 unread" in link("bob") and drawings == [0, 1]
