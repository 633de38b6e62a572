"""A member asking for a sheet while a write of theirs commits: no deadlock (found by the fault
tests). The print limits (rosters.print_limits) lock the member's row, then the campaign's; a
submission holds the campaign's row and, at its commit, PostgreSQL checks the event's foreign key
to the member's row (FOR KEY SHARE). A FOR UPDATE on the member's row would block that check: each
would wait for the other until PostgreSQL ended one ("deadlock detected", a 503 or a 500 page).
The limits take FOR NO KEY UPDATE, which such checks pass."""

import threading

import pytest
from django.db import connection, connections

from campaigns.services import journal
from campaigns.services.journal import submit
from rosters import services
from rosters.models import PrintJob
from tests.workers import need

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_sheet_asked_for_while_the_members_write_commits_waits_for_it(
    skirmish, people, monkeypatch
):
    need(
        connection.vendor == "postgresql",
        "needs PostgreSQL (set DATABASE_URL=postgres://...): its row locks",
    )
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)
    alice = people["alice"]
    written, go_on = threading.Event(), threading.Event()
    real_save = journal._Writer.save

    def save_then_wait(self):
        real_save(self)  # the event's row inserted, the campaign's row locked, not committed yet
        written.set()
        go_on.wait(10)

    monkeypatch.setattr(journal._Writer, "save", save_then_wait)
    failures = []

    def in_thread(action):
        def run():
            try:
                action()
            except Exception as error:  # noqa: BLE001 - the test reports it
                failures.append(error)
            finally:
                connections.close_all()

        return threading.Thread(target=run)

    writer = in_thread(
        lambda: submit(skirmish, alice, "note.added", {"scenario": 0, "text": "held"})
    )
    asker = in_thread(lambda: services.request_sheet(alice, skirmish, "summary"))
    writer.start()
    assert written.wait(10)
    asker.start()
    asker.join(1.5)  # it waits for the campaign's row, holding the member's
    go_on.set()
    writer.join(15)
    asker.join(15)
    assert not failures, failures
    assert skirmish.events.filter(kind="note.added").count() == 1 and PrintJob.objects.count() == 1
