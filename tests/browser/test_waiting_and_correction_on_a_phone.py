"""At 390 px, an A!P! campaign in play: the organizer's dashboard and the club page say whom the
campaign waits for, and a player's correction page offers a real form (no JSON box, no raw keys)."""

import re

from playwright.sync_api import expect

from campaigns.systems.achtung_panzer.tests.table_play import aftermath, play_cg
from tests.browser.pagechecks import check

RESULT = {
    "allied_objectives_end": "23BB5 23X3 hill_520",
    "german_objectives_end": "23R4 23H4",
    "allied_cvp": 7,
    "german_cvp": 5,
    "allied_oba_missions": 1,
    "german_half_boards": 1,
}


def test_waiting_lines_and_the_correction_page_on_a_phone(phones, club, people):
    from campaigns.models import Event

    table = play_cg(club, people, "cg1", "server", half_days=1)
    for side in ("allied", "german"):
        table.by(side, "ap.aftermath", aftermath(table.state, side))
    label = table.state["scenarios"][table.state["current"]]["label"]
    table.by("allied", "result.submitted", {"scenario": table.state["current"], "data": RESULT})
    waiting = f"Waiting for: German to confirm the result of {label}"

    olga = phones("olga")
    olga.goto("/")
    expect(olga.locator("main")).to_contain_text(waiting)
    check(olga)
    olga.goto(f"/clubs/{club.slug}/")
    expect(olga.locator("main")).to_contain_text(waiting)
    check(olga)

    alice = phones("alice")
    event = (
        Event.objects.filter(campaign=table.campaign, kind="ap.1.622", side="allied")
        .order_by("-seq")
        .first()
    )
    alice.goto(f"/campaigns/{table.campaign.pk}/history/{event.uid}/correct/")
    form = alice.locator("main form")
    expect(form.first).to_be_visible()
    expect(form.get_by_role("button", name=re.compile("Propose", re.I)).first).to_be_visible()
    check(alice)
    assert olga.errors == [] and alice.errors == []
