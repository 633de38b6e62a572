"""Who plays which side is amended by an organizer only, through the API as on the page (the doors
agree). The page never offers a player "Fix this" on a seat event, and a player's proposal to undo
one through the API is refused by the journal service (403), writing nothing."""

from campaigns.models import Event

from .conftest import post


def _seat_event(skirmish, username):
    return Event.objects.get(campaign=skirmish, kind="player.assigned", data__username=username)


def test_a_player_may_not_propose_to_undo_a_seat_but_an_organizer_may(skirmish, client_for):
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    alice_seat = str(_seat_event(skirmish, "alice").uid)
    before = skirmish.events.count()
    refused = post(
        client_for("bob"),
        url,
        {"kind": "proposal.made", "data": {"action": "undo", "target": alice_seat, "reason": ""}},
    )
    assert refused.status_code == 403
    assert (
        "Only a club organizer proposes to change who plays which side" in refused.json()["detail"]
    )
    assert skirmish.events.count() == before
    # The page offers it to nobody but an organizer: no "Fix this" on the seat for bob.
    history = client_for("bob").get(f"/campaigns/{skirmish.pk}/history/").content.decode()
    assert f"/history/{alice_seat}/undo/" not in history
    organizer = client_for("olga").get(f"/campaigns/{skirmish.pk}/history/").content.decode()
    assert f"/history/{alice_seat}/undo/" in organizer
    accepted = post(
        client_for("olga"),
        url,
        {"kind": "proposal.made", "data": {"action": "undo", "target": alice_seat, "reason": ""}},
    )
    assert accepted.status_code == 201, accepted.json()
