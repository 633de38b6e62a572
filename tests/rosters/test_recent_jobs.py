"""The sheets panel's jobs (visibility.recent_print_jobs, one prepared query) are those of
visibility.print_jobs_for, newest first, for every viewer."""

import pytest

from campaigns.access import visibility
from rosters.services import request_sheet

pytestmark = pytest.mark.django_db


def test_recent_jobs_are_the_jobs_each_viewer_may_read(
    skirmish, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):  # queued, not rendered: rows are enough
        request_sheet(people["alice"], skirmish, "summary", "A4", None)
        request_sheet(people["alice"], skirmish, "supply", "A4", "red")
        request_sheet(people["bob"], skirmish, "supply", "Letter", "blue")
        request_sheet(people["rita"], skirmish, "umpire", "A4", None)
    seen = {}
    for name in ("olga", "alice", "bob", "rita", "carol", "outsider"):
        viewer = visibility.viewer_for(people[name], skirmish)
        expected = [
            job.pk
            for job in visibility.print_jobs_for(viewer, skirmish).order_by("-created_at")[:3]
        ]
        found = visibility.recent_print_jobs(viewer, skirmish, 3)
        assert [job.pk for job in found] == expected, name
        assert all("context" in job.get_deferred_fields() for job in found)
        seen[name] = {job.audience for job in found}
    assert (
        seen["bob"] == {"public", "side:blue"}
        and seen["carol"] == {"public"}
        and seen["outsider"] == set()
    )
    assert seen["rita"] == {"referee", "side:blue", "side:red"}  # the newest three of all four
