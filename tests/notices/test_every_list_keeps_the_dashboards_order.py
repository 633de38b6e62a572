"""The dashboard, "my campaigns" and the club page list a person's campaigns in one order (what
has waited longest for them first, by their open waiting notices; then in play, being set up,
finished; then the latest public change), whatever their states, and leave archived ones out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from campaigns.models import Campaign, Notice
from campaigns.selectors.clubs import club_page
from campaigns.selectors.dashboard import dashboard, mine
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from tests.web.wars import skirmish_war

STAGE = {Campaign.ACTIVE: 0, Campaign.SETUP: 1}
NEVER = datetime(1970, 1, 1, tzinfo=UTC)  # (no notice: ordered by what follows)


@pytest.fixture
def wars(notices_inline, club, people):
    """In play and waiting for alice (and bob), in play after alice's step, being set up,
    finished, archived; their last public changes in another order than their creation."""
    olga = people["olga"]
    made = [skirmish_war(club, people, f"Waits {i}") for i in range(3)]
    stepped = skirmish_war(club, people, "Stepped")
    submit(stepped, people["alice"], "skirmish.supply", {}, side="red")
    made += [stepped, skirmish_war(club, people, "Spring", start=False)]
    made += [skirmish_war(club, people, "Autumn", start=False)]
    for name in ("Ended 0", "Ended 1"):
        ended = skirmish_war(club, people, name)
        svc.finish_campaign(ended, olga, reason="The club called it a draw.")
        made.append(ended)
    shelved = skirmish_war(club, people, "Shelved")
    svc.finish_campaign(shelved, olga, reason="Nobody came back to it.")
    svc.archive_campaign(shelved, olga)
    start = timezone.now()
    for n, campaign in enumerate(reversed(made)):  # the last made: the oldest change
        Campaign.objects.filter(pk=campaign.pk).update(updated_at=start - timedelta(minutes=n))
    return made


def _expected(person, club) -> list[str]:
    """The order, worked out from the rows: the person's oldest open waiting notice, the stage,
    the latest change, the key."""
    since: dict[int, datetime] = {}
    for campaign_id, at in Notice.objects.filter(
        recipient=person, waiting=True, resolved_at=None
    ).values_list("campaign_id", "created_at"):
        since[campaign_id] = min(at, since.get(campaign_id, at))
    rows = Campaign.objects.filter(club=club, archived_at=None)
    return [
        c.name
        for c in sorted(
            rows,
            key=lambda c: (
                c.pk not in since,
                since.get(c.pk, NEVER),
                STAGE.get(c.status, 2),
                -c.updated_at.timestamp(),
                -c.pk,
            ),
        )
    ]


def _names(campaigns) -> list[str]:
    return [c.name for c in campaigns]


@pytest.mark.parametrize("name", ["alice", "bob", "rita"])
def test_a_player_s_lists_agree_with_the_dashboard(wars, club, people, name):
    person = people[name]
    expected = _expected(person, club)
    assert "Shelved" not in expected and len(expected) == 8
    waited = Notice.objects.filter(recipient=person, waiting=True, resolved_at=None)
    assert 0 < waited.values("campaign").distinct().count() < len(expected)
    board = dashboard(person, shown=50)
    found, count, _ = mine(person, 1, 50)
    assert _names(board.campaigns) == _names(found) == expected
    assert board.played_count == count == len(expected)
    assert _names(club_page(person, club, first=50).campaigns) == expected
    # The first few of each list are the first of the whole list.
    assert _names(dashboard(person, shown=3).campaigns) == expected[:3]
    assert _names(club_page(person, club, first=3).campaigns) == expected[:3]
    assert _names(mine(person, 2, 3)[0]) == expected[3:6]


def test_an_organizer_s_and_a_member_s_lists_agree_with_the_dashboard(wars, club, people):
    olga, carol = people["olga"], people["carol"]
    expected = _expected(olga, club)
    board = dashboard(olga, shown=50)
    assert board.campaigns == [] and _names(board.organized) == expected
    first = dashboard(olga, shown=3)  # the first few, counted in full
    assert _names(first.organized) == expected[:3] and first.organized_count == len(expected)
    assert first.more and not board.more
    assert _names(mine(olga, 1, 50)[0]) == expected
    assert _names(club_page(olga, club, first=50).campaigns) == expected
    # A member who plays nothing: nothing on the dashboard, the club's campaigns on its page.
    assert dashboard(carol).count == 0
    assert _names(club_page(carol, club, first=50).campaigns) == _expected(carol, club)
