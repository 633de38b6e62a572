"""The inbox page: a person's own notices in words, the unread count in the header of every page,
opening a notice reads it and lands on the place to act, marking all read; nobody else's."""

from __future__ import annotations

import re

from campaigns.models import Notice


def _header_count(html: str) -> str | None:
    found = re.search(r'class="unread"[^>]*>(\d+)<', html)
    return found.group(1) if found else None


def test_the_header_of_every_page_counts_the_unread_notices(notices_inline, skirmish, client_for):
    bob = client_for("bob")
    for url in ("/", f"/campaigns/{skirmish.pk}/", f"/clubs/{skirmish.club.slug}/", "/notices/"):
        html = bob.get(url).content.decode()
        assert _header_count(html) == "2", url  # the campaign started; blue's turn
        assert 'aria-label="Notices: 2 unread"' in html
    assert _header_count(client_for("carol").get("/").content.decode()) is None


def test_the_inbox_shows_words_never_keys(notices_inline, skirmish, client_for):
    html = client_for("bob").get("/notices/").content.decode()
    assert "Roll for supply" in html and "Test war has started" in html
    assert "turn/blue" not in html and "campaign/active" not in html
    assert "Mark all read" in html


def test_opening_a_notice_reads_it_and_lands_on_the_step(
    notices_inline, skirmish, people, client_for
):
    bob = client_for("bob")
    turn = Notice.objects.get(recipient=people["bob"], key="turn/blue")
    answer = bob.get(f"/notices/{turn.pk}/")
    assert answer.status_code == 302 and answer["Location"] == turn.link
    assert answer["Location"].startswith(f"/campaigns/{skirmish.pk}/?do=")
    landed = bob.get(answer["Location"]).content.decode()
    assert "Roll for supply" in landed and _header_count(landed) == "1"
    turn.refresh_from_db()
    assert turn.read_at is not None and turn.resolved_at is None  # read; it still waits


def test_one_wait_keeps_one_notice_in_the_words_of_its_step_and_acting_puts_it_away(
    notices_inline, skirmish, people, client_for
):
    from campaigns.services.journal import submit

    bob = people["bob"]
    submit(skirmish, bob, "skirmish.supply", side="blue")
    submit(skirmish, bob, "skirmish.buy", {"count": 1}, side="blue")
    turn = Notice.objects.get(recipient=bob, key="turn/blue", resolved_at=None)
    assert turn.words == "Buy reinforcements"  # the same wait, now in the words of its step
    submit(skirmish, people["alice"], "skirmish.supply", side="red")
    sealed = Notice.objects.get(recipient=bob, key="sealed/stance:0/blue")
    assert sealed.words == "Choose: Stance" and sealed.resolved_at is None
    client_for("bob").post(
        f"/campaigns/{skirmish.pk}/submit/",
        {"_kind": "sealed.submitted", "_side": "blue", "key": "stance:0", "choice": "hold"},
    )
    sealed.refresh_from_db()
    assert sealed.resolved_at is not None
    assert "Choose: Stance" not in client_for("bob").get("/notices/").content.decode()


def test_mark_all_read_empties_the_count(notices_inline, skirmish, client_for):
    bob = client_for("bob")
    answer = bob.post("/notices/read/")
    assert answer.status_code == 302 and answer["Location"] == "/notices/"
    html = bob.get("/notices/").content.decode()
    assert _header_count(html) is None
    assert "Roll for supply" in html and "Test war has started" not in html  # news put away


def test_another_persons_notice_is_not_found_like_a_missing_one(
    notices_inline, skirmish, people, client_for
):
    theirs = Notice.objects.get(recipient=people["bob"], key="turn/blue")
    alice = client_for("alice")
    hidden, missing = alice.get(f"/notices/{theirs.pk}/"), alice.get("/notices/999999/")
    assert hidden.status_code == missing.status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_the_inbox_needs_a_sign_in(client_for):
    answer = client_for("anonymous").get("/notices/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_the_dashboard_puts_what_has_waited_longest_first(notices_inline, club, people, client_for):
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    olga = people["olga"]
    for name in ("Older war", "Newer war"):
        campaign = svc.create_campaign(
            club=club, user=olga, system="skirmish", variant="short", name=name
        )
        svc.assign_player(campaign, olga, side="red", username="alice")
        svc.assign_player(campaign, olga, side="blue", username="bob")
        submit(campaign, olga, "campaign.started")
    html = client_for("alice").get("/").content.decode()
    waiting = html.split('id="waiting-h"')[1].split("</section>")[0]
    assert waiting.index("Older war") < waiting.index("Newer war")
