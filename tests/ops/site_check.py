"""Checks of a whole site's database, run in a process of their own on it (DATABASE_URL) by the
operations tests (test_backup_restore.py):

    python -m tests.ops.site_check prepare      # a printed sheet of each campaign of the demo club
    python -m tests.ops.site_check folds        # every campaign's journal folds to its snapshot
    python -m tests.ops.site_check sheets       # a sheet whose file is gone is printed again on request

Each prints a JSON report on standard output.
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402

from campaigns.journal import engine  # noqa: E402
from campaigns.models import Campaign, Snapshot  # noqa: E402
from campaigns.services.snapshots import stored_state  # noqa: E402
from campaigns.services.state import load_records  # noqa: E402
from rosters.models import PrintJob  # noqa: E402


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, default=list)


def prepare() -> dict:
    """The summary sheet of each campaign, printed for its organizer (tasks run inline here)."""
    from rosters.services import request_sheet

    done = {}
    for campaign in Campaign.objects.select_related("created_by"):
        job, _ = request_sheet(campaign.created_by, campaign, "summary")
        job.refresh_from_db()
        done[campaign.pk] = job.status
    return done


def folds() -> dict:
    """Each campaign's journal folded again, against its stored snapshot (and last_seq)."""
    report = {}
    for campaign in Campaign.objects.order_by("pk"):
        snapshot = Snapshot.objects.get(campaign=campaign)
        kept = stored_state(campaign)
        state = engine.fold(load_records(campaign))
        report[campaign.pk] = {
            "system": campaign.system,
            "events": campaign.events.count(),
            "same": _canonical(state) == _canonical(kept)
            and snapshot.seq == campaign.last_seq == state["seq"],
        }
    return report


def sheets() -> dict:
    """Every finished job whose file is not here: its download asked for, then what the page shows."""
    report = {}
    User = get_user_model()
    for job in PrintJob.objects.filter(status=PrintJob.DONE).select_related("campaign"):
        browser = Client()
        browser.force_login(
            User.objects.get(pk=job.requested_by_id)
            if job.requested_by_id
            else job.campaign.created_by
        )
        download = browser.get(f"/sheets/jobs/{job.pk}/file/")
        job.refresh_from_db()
        page = browser.get(f"/campaigns/{job.campaign_id}/")
        report[str(job.pk)] = {
            "download": download.status_code,
            "location": download.get("Location", ""),
            "status": job.status,
            "page": page.status_code,
            "again": browser.get(f"/sheets/jobs/{job.pk}/file/").status_code,
        }
    return report


if __name__ == "__main__":
    json.dump(
        {"prepare": prepare, "folds": folds, "sheets": sheets}[sys.argv[1]](),
        sys.stdout,
        indent=1,
        default=str,
    )
