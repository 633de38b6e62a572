"""Hostile input through the pages: deep JSON in a form field is a
form error, never a traceback; a too-large body is refused before any view reads it; the page
form takes no sequence numbers, and probing it makes no proposal."""

from campaigns.models import Event
from campaigns.services.journal import submit

from .conftest import text_of


def _deep_text(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_deep_json_in_a_page_form_is_never_a_traceback_nor_stored_deep(skirmish, client_for):
    """A page never parses JSON deeper than the bounds: deep text is refused, or kept as the
    bounded text it is."""
    olga = client_for("olga")
    for depth in (30, 50_000):
        for field in ("data", "reason", "target"):
            answer = olga.post(
                f"/campaigns/{skirmish.pk}/submit/",
                {"kind": "proposal.made", "action": "export", field: _deep_text(depth)},
            )
            assert answer.status_code in (302, 400), (depth, field, answer.status_code)
    for event in Event.objects.filter(kind="proposal.made"):
        assert all(not isinstance(value, (list, dict)) for value in event.data.values()), event.data


def test_deep_json_to_anonymous_pages_is_no_traceback(db, client):
    for url in ("/accounts/login/", "/join/nothing/", "/accounts/password/reset/"):
        answer = client.post(url, _deep_text(50_000), content_type="application/json")
        assert answer.status_code < 500, url


def test_a_too_large_page_body_is_refused(skirmish, client_for):
    answer = client_for("alice").post(
        f"/campaigns/{skirmish.pk}/submit/", {"kind": "skirmish.buy", "count": "1" * 300_000}
    )
    assert answer.status_code == 413
    assert not Event.objects.filter(kind="skirmish.buy").exists()


def test_the_page_form_takes_no_sequence_numbers(skirmish, people, client_for):
    """The probe: an integer target on the page form would tell a hidden dice roll ("cannot be
    changed this way") from a missing event ("No such earlier event")."""
    submit(skirmish, people["alice"], "skirmish.supply")
    bob = client_for("bob")
    answers = set()
    for seq in range(1, Event.objects.count() + 3):
        for action in ("undo", "correct"):
            answer = bob.post(
                f"/campaigns/{skirmish.pk}/submit/",
                {"kind": "proposal.made", "side": "blue", "action": action, "target": str(seq)},
            )
            assert answer.status_code == 400
            text = text_of(answer)
            answers.add(
                (
                    "cannot be changed" in text,
                    "No such earlier event" in text,
                    "Name the event by its uid" in text,
                )
            )
    assert answers == {(False, False, True)}, answers
    assert not Event.objects.filter(kind="proposal.made").exists()
