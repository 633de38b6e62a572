"""Each game's demo, walked change by change: after every change, each person's open notices
name exactly what the dashboard says waits for them (no more, no fewer, nobody else's), and
over the whole walk each wait made exactly one notice: a notice for every time something
started to wait for a person, never a second one while it waited."""

from __future__ import annotations

from collections import Counter

import pytest

from campaigns.models import Notice
from campaigns.notices.waiting import NOT_WAITING, key_of
from campaigns.selectors.todos import waiting_for
from campaigns.services import demo
from campaigns.systems import all_systems


def _dashboard_keys(user, campaign) -> set[str]:
    """What the dashboard lists as waiting for `user` in `campaign`, as notices key it."""
    return {
        key_of(todo)
        for listed, todos in waiting_for(user)
        if listed.pk == campaign.pk
        for todo in todos
        if todo.kind not in NOT_WAITING
    }


# the games that ship (the test suite's own Skirmish system has no demo to walk)
GAMES = sorted(
    slug for slug, game in all_systems().items() if type(game).__module__.startswith("campaigns.")
)


@pytest.mark.parametrize("slug", GAMES)
def test_each_wait_of_the_demo_makes_one_notice_for_the_right_person(slug, notices_inline, db):
    with_people = demo.Demo(club=None, users={})  # filled below, like load_demo
    users = {key: demo._demo_user(name) for key, (name, _) in demo.PEOPLE.items()}
    with_people.club, with_people.users = demo._demo_club(users), users
    system = all_systems()[slug]
    table = demo.DemoTable(with_people.club, users, system)
    waited: dict[str, set[str]] = {name: set() for name in users}
    opened: Counter = Counter()
    steps = []

    def compare(campaign_id):
        campaign = table.campaign
        if campaign is None or campaign.pk != campaign_id:
            return
        steps.append(campaign.last_seq)
        for role, user in users.items():
            keys = _dashboard_keys(user, campaign)
            notices = Notice.objects.filter(
                recipient=user, campaign=campaign, waiting=True, resolved_at=None
            )
            assert sorted(n.key for n in notices) == sorted(keys), (role, campaign.last_seq)
            opened.update((role, key) for key in keys - waited[role])
            waited[role] = keys

    notices_inline.after.append(compare)
    system.demo(table)
    assert table.campaign is not None, f"{system.name} made no demo campaign"
    assert steps, "the demo changed its campaign"
    made = Counter(
        (role, n.key)
        for role, user in users.items()
        for n in Notice.objects.filter(recipient=user, campaign=table.campaign, waiting=True)
    )
    assert made == opened
    assert sum(made.values()) > 0, "the demo waited for somebody"
