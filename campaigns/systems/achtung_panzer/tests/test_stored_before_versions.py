"""Campaigns stored before journal versions, by the Muster of their day, go on.

R-A19 (30f6652) gave each side a losses step before 1.6067. A campaign stored before it (its
journal at achtung_panzer v2, from before journals had versions) whose Refit Phase went past 1.6066
is upgraded when read: its losses steps are added as "nothing more lost" where 1.6066 was passed,
so 1.6067 stays where it ran and both sides go on to the next half-day. (This replaced a special
case in refit_marks.status that counted the missing step as skipped.)"""

import json
from datetime import datetime
from pathlib import Path

import pytest

from campaigns import versions
from campaigns.models import Campaign, Event, JournalArchive
from campaigns.services.state import current_state
from campaigns.systems.achtung_panzer import refit_progress, refit_steps
from campaigns.systems.achtung_panzer.tests.table_play import PLAYERS, Table

pytestmark = pytest.mark.django_db
CORPUS = Path(__file__).resolve().parents[1] / "journals"  # the game's corpus journals
V2 = CORPUS / "d47b5d0-achtung-panzer-v2" / "ap-cg1-table.json"
V1 = CORPUS / "030a954-achtung-panzer-v1" / "ap-v1-cg1.json"


def stored_then(club, people, path=V2) -> Campaign:
    """The campaign as the Muster of that commit stored it: its events, no journal versions."""
    document = json.loads(path.read_text())
    head = document["campaign"]
    campaign = Campaign.objects.create(
        club=club,
        system=head["system"],
        variant=head["variant"],
        name=head["name"],
        created_by=people[head["created_by"]],
        journal_versions=None,
    )
    Event.objects.bulk_create(
        [
            Event(
                campaign=campaign,
                seq=e["seq"],
                uid=e["uid"],
                kind=e["kind"],
                data=e["data"],
                actor=people[e["actor"]],
                side=e["side"],
                audience=e["audience"],
                created_at=datetime.fromisoformat(e["at"]),
                idempotency_key=e["idempotency_key"],
            )
            for e in document["events"]
        ]
    )
    Campaign.objects.filter(pk=campaign.pk).update(last_seq=len(document["events"]))
    campaign.refresh_from_db()
    return campaign


def test_a_campaign_stored_past_1_6066_before_the_losses_step_is_upgraded_and_plays_on(
    club, people
):
    campaign = stored_then(club, people)
    before = campaign.events.count()
    state = current_state(campaign)
    campaign.refresh_from_db()
    assert campaign.journal_versions == {"core": versions.CORE_VERSION, "achtung_panzer": 6}
    markers = campaign.events.filter(kind="journal.upgraded", audience="public").order_by("seq")
    assert [(m.data["from"], m.data["to"], m.data["step"]) for m in markers] == [
        (1, 2, "core-seat-needs-the-sides-agreement"),
        (2, 3, "core-ending-needs-the-other-sides-agreement"),
        (2, 3, "ap-losses-before-victory"),
        (3, 4, "ap-cvp-of-unlisted-units"),
        (4, 5, "ap-elr-by-nationality"),
        (5, 6, "ap-choices-with-the-roll"),
    ]
    losses = list(campaign.events.filter(kind="ap.losses").order_by("seq"))
    assert [(e.side, e.data) for e in losses] == [
        (side, {"units": [], "cvp": None, "note": ""})
        for _ in range(2)
        for side in ("allied", "german")
    ]
    # Each pair sits where v2 ran 1.6067: right after the joint confirmation that finished 1.6066.
    for first in (losses[0], losses[2]):
        joint = campaign.events.get(seq=first.seq - 1)
        assert joint.kind == "ap.joint" and "1.6066" in (
            joint.data.get("through"),
            joint.data.get("step"),
        )
    # four losses steps; a public note per step run (core v1→2, 2→3, A!P! v2→3, 3→4, 4→5, 5→6); each
    # side's note of its own
    assert campaign.events.count() == before + 4 + 6 + 2
    assert JournalArchive.objects.get(campaign=campaign).events[-1]["seq"] == before
    # 1.6067 decided both half-days as it did then; the losses steps are done, not counted as skipped.
    lines = [line for line in state["game"]["public"]["roster"] if line.get("played")]
    assert all(line["winner"] for line in lines)
    key = state["game"]["public"]["refit_key"]
    for side in ("allied", "german"):
        assert state["game"]["sides"][side]["marks"][key]["1.6066.losses"] == "done"
        assert "1.6066.losses" not in state["game"]["sides"][side]["skipped"].get(key, [])
    assert refit_progress.reached_by_all(state, refit_steps.BY_ID["1.607"])
    # Every reader's history says so, in words; each side reads the note of its own events only.
    from django.test import Client

    said = (
        f"Muster {versions.release()} upgraded this journal: Achtung! Panzer!, version 2 to 3: losses steps "
        "before 1.6067 (R-A19) added as nothing more lost"
    )
    for name, own, other in (("alice", "Allied", "German"), ("bob", "German", "Allied")):
        browser = Client()
        browser.force_login(people[name])
        page = browser.get(f"/campaigns/{campaign.pk}/history/").content.decode()
        assert (
            said in page
            and f"{own}: {said} (2 events here)" in page
            and f"{other}: {said}" not in page
        )
    # Both sides play the rest of the Refit Phase, as the page offers it, into the next half-day.
    table = object.__new__(Table)
    table.campaign, table.people, table.table_dice = campaign, people, {}
    table.after, table.submissions = (lambda _: None), {side: 0 for side in PLAYERS}
    table.both()
    table.initiative()
    table.both()
    assert table.public["phase"] == "play" and table.state["current"] == 2


def test_a_campaign_stored_before_the_end_of_scenario_record_survives_a_correction_and_plays_on(
    club, people
):
    """The CG I acceptance journal of the commit before a787fca (v1), stored mid-Refit Phase: read,
    it is upgraded (v1 -> v4); a correction of an early event folds the whole upgraded journal
    again; both sides then play the rest of the Refit Phase into the next half-day."""
    from campaigns.services.journal import submit
    from tests.journals.values import values

    campaign = stored_then(club, people, V1)
    state = current_state(campaign)
    campaign.refresh_from_db()
    assert campaign.journal_versions == {"core": versions.CORE_VERSION, "achtung_panzer": 6}
    expected = json.loads(V1.with_name("ap-v1-cg1.expected.json").read_text())
    assert values(state) == expected  # what v1 computed
    assert campaign.events.filter(kind="ap.aftermath").count() == 6
    cvp = campaign.events.get(kind="ap.cvp")  # the German's units eliminated after 1.6067, 5/29A
    made = submit(
        campaign,
        people["bob"],
        "proposal.made",
        {
            "action": "correct",
            "target": str(cvp.uid),
            "data": {"cvp": 4, "note": "two squads lost in melee"},
            "reason": "the note said too little",
        },
    ).events[0]
    submit(campaign, people["alice"], "proposal.approved", {"proposal": str(made.uid)})
    campaign.refresh_from_db()
    state = current_state(campaign)
    assert str(cvp.seq) in state["corrected"] and values(state) == expected
    table = object.__new__(Table)
    table.campaign, table.people, table.table_dice = campaign, people, {}
    table.after, table.submissions = (lambda _: None), {side: 0 for side in PLAYERS}
    table.both()
    table.initiative()
    table.both()
    assert table.public["phase"] == "play" and table.public["half_day"] == "5/30P"
