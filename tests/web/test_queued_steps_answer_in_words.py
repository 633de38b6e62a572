"""A step queued on a phone without signal is sent later by the page's script with the
X-Muster-Queued header: it is the page's own submission, checked by the rules like any other,
answered in words (sent, or refused with the reason and the form again with the input kept)."""

from campaigns.models import Event
from campaigns.services.journal import submit
from campaigns.views.installable import person_key


def queued_by(person) -> dict[str, str]:
    """The headers the page's script sends with a step queued by `person`."""
    return {"HTTP_X_MUSTER_QUEUED": "1", "HTTP_X_MUSTER_PERSON": person_key(person)}


def _buy(client, campaign, count, key, by):
    return client.post(
        f"/campaigns/{campaign.pk}/submit/",
        {"_kind": "skirmish.buy", "_side": "blue", "count": str(count), "idempotency_key": key},
        **queued_by(by),
    )


def test_a_queued_step_is_sent_once_however_often_it_is_sent(skirmish, client_for, people):
    submit(skirmish, people["bob"], "skirmish.supply", {}, side="blue")
    bob = client_for("bob")
    first = _buy(bob, skirmish, 1, "a" * 32, people["bob"])
    again = _buy(bob, skirmish, 1, "a" * 32, people["bob"])
    assert first.status_code == again.status_code == 200
    assert first.json()["state"] == again.json()["state"] == "sent"
    assert (first.json()["replayed"], again.json()["replayed"]) == (False, True)
    assert "Buy reinforcements" in first.json()["message"]
    assert Event.objects.filter(campaign=skirmish, kind="skirmish.buy").count() == 1
    # The script says it beside the queued step: no message is left for the next page.
    assert 'class="messages"' not in bob.get(f"/campaigns/{skirmish.pk}/").content.decode()


def test_a_step_the_rules_refuse_comes_back_with_its_reason_and_the_input_kept(
    skirmish, client_for, people
):
    submit(skirmish, people["bob"], "skirmish.supply", {}, side="blue")
    submit(skirmish, people["bob"], "skirmish.buy", {"count": 1}, side="blue")  # another phone
    before = Event.objects.count()
    answer = _buy(client_for("bob"), skirmish, 2, "b" * 32, people["bob"])
    assert answer.status_code == 400
    body = answer.json()
    assert body["state"] == "refused"
    assert "At most 2 reinforcements per round (T.3)." in body["reason"]
    assert 'name="count"' in body["form"] and 'value="2"' in body["form"]
    assert 'value="' + "b" * 32 + '"' in body["form"]  # redone, it is still the same step
    assert Event.objects.count() == before


def test_a_step_that_is_no_longer_offered_says_so(skirmish, client_for, people):
    # Blue has not rolled for supply: buying is not on its page.
    answer = client_for("bob").post(
        f"/campaigns/{skirmish.pk}/submit/",
        {"_kind": "skirmish.nothing", "_side": "blue", "idempotency_key": "c" * 32},
        **queued_by(people["bob"]),
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "state": "refused",
        "reason": "That is not something one can do in this campaign.",
        "form": "",
    }


def test_a_step_queued_by_another_person_waits_for_them_and_nothing_is_written(
    skirmish, client_for, people
):
    # Bob's session ended with a step waiting; Rita, the referee, signed in on the same browser.
    submit(skirmish, people["bob"], "skirmish.supply", {}, side="blue")
    before = Event.objects.count()
    answer = _buy(client_for("rita"), skirmish, 1, "e" * 32, people["bob"])
    assert answer.status_code == 409 and answer.json() == {"state": "signin"}
    assert Event.objects.count() == before


def test_a_signed_out_phone_is_sent_to_sign_in_and_nothing_is_written(skirmish, client, people):
    before = Event.objects.count()
    answer = _buy(client, skirmish, 1, "d" * 32, people["bob"])
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert Event.objects.count() == before
