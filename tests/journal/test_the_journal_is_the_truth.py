"""The journal is the truth: folding, dice by key, sealed choices, results,
corrections and undo, idempotency and per-side staleness (Skirmish system)."""

import pytest

from campaigns.errors import Conflict, DiceNeeded, DomainError, Forbidden
from campaigns.journal import engine
from campaigns.models import Event
from campaigns.services.journal import submit
from campaigns.services.state import current_state, load_records


def _state(campaign):
    campaign.refresh_from_db()
    return current_state(campaign)


def _prepare_round(campaign, people, red_stance="attack", blue_stance="hold"):
    submit(campaign, people["alice"], "skirmish.supply")
    submit(campaign, people["bob"], "skirmish.supply")
    rnd = _state(campaign)["current"]
    submit(
        campaign,
        people["alice"],
        "sealed.submitted",
        {"key": f"stance:{rnd}", "choice": red_stance},
    )
    submit(
        campaign, people["bob"], "sealed.submitted", {"key": f"stance:{rnd}", "choice": blue_stance}
    )


def test_started_campaign_has_first_round_current(skirmish):
    state = _state(skirmish)
    assert state["status"] == "active"
    assert state["current"] == 0
    assert [s["status"] for s in state["scenarios"]] == ["current", "upcoming", "upcoming"]
    assert state["sides"]["red"]["players"] == ["olga", "alice"]
    assert skirmish.status == "active" and skirmish.referee.username == "rita"


def test_state_is_the_fold_of_the_journal(skirmish, people):
    _prepare_round(skirmish, people)
    assert engine.fold(load_records(skirmish)) == _state(skirmish)


def test_secret_roll_is_recorded_for_its_side_only(skirmish, people):
    result = submit(skirmish, people["alice"], "skirmish.supply")
    kinds = [(e.kind, e.audience, e.side) for e in result.events]
    assert kinds == [("skirmish.supply", "side", "red"), ("dice.rolled", "side", "red")]
    dice = result.events[1].data
    assert (
        dice["key"] == "0/supply/red" and dice["source"] == "server" and 1 <= dice["dice"][0] <= 6
    )
    report = result.state["game"]["sides"]["red"]["rolls"][0]
    assert report["dice"] == dice["dice"] and report["table"] == "supply"
    expected_points = {1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 6: 3}[dice["dice"][0]]
    assert result.state["game"]["sides"]["red"]["supply"] == 2 + expected_points


def test_a_side_cannot_act_for_the_other_side(skirmish, people):
    with pytest.raises(Forbidden):
        submit(skirmish, people["alice"], "skirmish.supply", side="blue")
    with pytest.raises(Forbidden):
        submit(skirmish, people["carol"], "skirmish.supply")


def test_sealed_choices_are_revealed_together(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["bob"], "skirmish.supply")
    first = submit(
        skirmish, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"}
    )
    assert [e.kind for e in first.events] == ["sealed.submitted"]
    assert first.events[0].audience == "side"
    assert first.state["sealed"]["stance:0"]["revealed"] is False
    second = submit(
        skirmish, people["bob"], "sealed.submitted", {"key": "stance:0", "choice": "hold"}
    )
    assert [e.kind for e in second.events] == ["sealed.submitted", "sealed.revealed"]
    revealed = second.events[1]
    assert revealed.audience == "public" and revealed.data["choices"] == {
        "red": "attack",
        "blue": "hold",
    }
    assert second.state["game"]["public"]["stances"] == [
        {"round": 0, "red": "attack", "blue": "hold"}
    ]


def test_sealed_choice_outside_options_is_refused(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["bob"], "skirmish.supply")
    with pytest.raises(DomainError) as error:
        submit(
            skirmish, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "retreat"}
        )
    assert error.value.field == "choice"


def test_result_waits_for_the_other_side(skirmish, people):
    with pytest.raises(DomainError) as error:
        submit(
            skirmish,
            people["alice"],
            "result.submitted",
            {"scenario": 0, "data": {"red": 3, "blue": 1}},
        )
    assert "stance" in error.value.message  # result_open refuses before the procedure is done
    _prepare_round(skirmish, people)
    submit(
        skirmish,
        people["alice"],
        "result.submitted",
        {"scenario": 0, "data": {"red": 3, "blue": 1}},
    )
    assert _state(skirmish)["scenarios"][0]["status"] == "pending"
    with pytest.raises(DomainError):
        submit(
            skirmish, people["olga"], "result.confirmed", {"scenario": 0}
        )  # same side as the submitter
    submit(skirmish, people["bob"], "result.confirmed", {"scenario": 0})
    state = _state(skirmish)
    assert state["scenarios"][0]["status"] == "played"
    assert state["game"]["public"]["wins"] == {"red": 1, "blue": 0}
    assert state["current"] == 1


def test_disputed_result_is_settled_by_the_referee(skirmish, people):
    _prepare_round(skirmish, people)
    submit(
        skirmish,
        people["alice"],
        "result.submitted",
        {"scenario": 0, "data": {"red": 3, "blue": 1}},
    )
    submit(skirmish, people["bob"], "result.disputed", {"scenario": 0, "reason": "It was 1-3"})
    assert _state(skirmish)["scenarios"][0]["status"] == "disputed"
    with pytest.raises(Forbidden):
        submit(
            skirmish,
            people["olga"],
            "result.resolved",
            {"scenario": 0, "data": {"red": 1, "blue": 3}},
        )
    submit(
        skirmish, people["rita"], "result.resolved", {"scenario": 0, "data": {"red": 1, "blue": 3}}
    )
    assert _state(skirmish)["game"]["public"]["wins"] == {"red": 0, "blue": 1}


def test_bad_result_names_the_field_and_changes_nothing(skirmish, people):
    _prepare_round(skirmish, people)
    before = Event.objects.count()
    with pytest.raises(DomainError) as error:
        submit(
            skirmish,
            people["alice"],
            "result.submitted",
            {"scenario": 0, "data": {"red": -1, "blue": 1}},
        )
    assert error.value.field == "red"
    assert Event.objects.count() == before


def test_purchase_limit_names_the_limit(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["alice"], "skirmish.buy", {"count": 1})
    with pytest.raises(DomainError) as error:
        submit(skirmish, people["alice"], "skirmish.buy", {"count": 2})
    assert "At most 2 reinforcements per round" in error.value.message


def test_entered_dice_are_asked_for_then_used(club, people):
    from campaigns.services import campaigns as svc

    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club,
        user=olga,
        system="skirmish",
        variant="short",
        name="Table dice",
        options={"dice_mode": "entered"},
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    with pytest.raises(DiceNeeded) as needed:
        submit(campaign, people["alice"], "skirmish.supply")
    assert needed.value.needs == [{"key": "0/supply/red", "expr": "1d6"}]
    with pytest.raises(DomainError):
        submit(campaign, people["alice"], "skirmish.supply", dice={"0/supply/red": [7]})
    result = submit(campaign, people["alice"], "skirmish.supply", dice={"0/supply/red": [5]})
    assert result.events[1].data == {
        "key": "0/supply/red",
        "expr": "1d6",
        "dice": [5],
        "source": "entered",
    }
    assert result.state["game"]["sides"]["red"]["supply"] == 2 + 2  # 5 -> "5" row: 2 points


def test_idempotency_key_appends_once(skirmish, people):
    first = submit(skirmish, people["alice"], "skirmish.supply", idempotency_key="abc")
    again = submit(skirmish, people["alice"], "skirmish.supply", idempotency_key="abc")
    assert again.replayed and [e.pk for e in again.events] == [first.events[0].pk]
    assert Event.objects.filter(kind="skirmish.supply").count() == 1


def test_someone_elses_idempotency_key_is_a_fresh_key_and_shows_nothing(skirmish, people):
    """A key is its sender's; bob's same key writes bob's own event."""
    red = submit(
        skirmish, people["alice"], "skirmish.supply", idempotency_key="guessable"
    )  # red's secret roll
    blue = submit(skirmish, people["bob"], "skirmish.supply", idempotency_key="guessable")
    assert not blue.replayed and {e.pk for e in blue.events}.isdisjoint(e.pk for e in red.events)
    assert {e.side for e in blue.events} == {"blue"}  # red's events not handed back


def test_staleness_is_per_side(skirmish, people):
    red_version = _state(skirmish)["streams"].get("side:red", 0)
    submit(skirmish, people["bob"], "skirmish.supply")  # blue works meanwhile: red is not stale
    submit(skirmish, people["alice"], "skirmish.supply", expected_version=red_version)
    with pytest.raises(Conflict) as conflict:
        submit(skirmish, people["olga"], "skirmish.buy", {"count": 1}, expected_version=red_version)
    assert conflict.value.current_version == red_version + 2  # the supply event and its dice


def _play_round(campaign, people, red, blue):
    _prepare_round(campaign, people)
    rnd = _state(campaign)["current"]
    submit(
        campaign,
        people["alice"],
        "result.submitted",
        {"scenario": rnd, "data": {"red": red, "blue": blue}},
    )
    submit(campaign, people["bob"], "result.confirmed", {"scenario": rnd})


def test_correcting_an_old_result_recomputes_and_reuses_dice(skirmish, people):
    _play_round(skirmish, people, 3, 1)  # red wins round 1: blue rolls round 2 supply at -1
    _play_round(skirmish, people, 0, 0)
    before = _state(skirmish)
    dice_before = list(Event.objects.filter(kind="dice.rolled").values_list("data", flat=True))
    first_result = Event.objects.get(kind="result.submitted", data__scenario=0)
    proposal = submit(
        skirmish,
        people["alice"],
        "proposal.made",
        {
            "action": "correct",
            "target": str(first_result.uid),
            "data": {"scenario": 0, "data": {"red": 1, "blue": 3}},
            "reason": "Swapped the scores",
        },
    )
    assert proposal.state["game"]["public"]["wins"] == {"red": 1, "blue": 0}  # not applied yet
    approved = submit(
        skirmish, people["bob"], "proposal.approved", {"proposal": str(proposal.events[0].uid)}
    )
    assert [e.kind for e in approved.events] == ["proposal.approved", "proposal.applied"]
    after = _state(skirmish)
    assert after["game"]["public"]["wins"] == {"red": 0, "blue": 1}
    # Round 2's supply rolls are re-read with new modifiers (red lost now), same dice:
    assert (
        list(Event.objects.filter(kind="dice.rolled").values_list("data", flat=True)) == dice_before
    )
    red_roll = after["game"]["sides"]["red"]["rolls"][1]
    assert red_roll["dice"] == before["game"]["sides"]["red"]["rolls"][1]["dice"]
    assert red_roll["modifiers"] == [
        {"label": "Lost the previous round", "rule": "T.2", "value": -1}
    ]
    assert after["corrected"] == {str(first_result.seq): proposal.events[0].seq}
    assert engine.fold(load_records(skirmish)) == after


def test_undo_and_redo_reuses_the_recorded_dice(skirmish, people):
    first = submit(skirmish, people["alice"], "skirmish.supply")
    dice = first.events[1].data["dice"]
    proposal = submit(
        skirmish,
        people["alice"],
        "proposal.made",
        {"action": "undo", "target": str(first.events[0].uid)},
    )
    assert proposal.events[0].audience == "side"  # a proposal about a secret event stays secret
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(proposal.events[0].uid)})
    state = _state(skirmish)
    assert state["game"]["sides"]["red"]["rolls"] == []
    again = submit(skirmish, people["alice"], "skirmish.supply")
    assert [e.kind for e in again.events] == ["skirmish.supply"]  # no new dice
    assert again.state["game"]["sides"]["red"]["rolls"][0]["dice"] == dice


def test_a_correction_that_breaks_a_later_event_is_refused(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    buy = submit(skirmish, people["alice"], "skirmish.buy", {"count": 2})
    first_buy = buy.events[0]
    # Correcting the purchase to 3 breaks the per-round limit: reported, nothing applied.
    proposal = submit(
        skirmish,
        people["alice"],
        "proposal.made",
        {
            "action": "correct",
            "target": str(first_buy.uid),
            "data": {"count": 3},
        },
    )
    count = Event.objects.count()
    with pytest.raises(DomainError) as error:
        submit(
            skirmish, people["bob"], "proposal.approved", {"proposal": str(proposal.events[0].uid)}
        )
    assert Event.objects.count() == count
    # Bob cannot see red's purchase: the message says so without details.
    assert "private event of another side" in error.value.message
    with pytest.raises(DomainError) as error:
        submit(
            skirmish, people["rita"], "proposal.approved", {"proposal": str(proposal.events[0].uid)}
        )
    assert "At most 2 reinforcements" in error.value.message


def test_house_rules_before_play_only_directly(club, people, skirmish):
    from campaigns.services import campaigns as svc

    olga = people["olga"]
    with pytest.raises(DomainError):
        submit(skirmish, olga, "house_rule.set", {"key": "supply:5:points", "value": 3})
    fresh = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="House"
    )
    with pytest.raises(DomainError) as error:
        submit(fresh, olga, "house_rule.set", {"key": "supply:5:points", "value": "three"})
    assert error.value.field == "value"
    with pytest.raises(DomainError):
        submit(fresh, olga, "house_rule.set", {"key": "supply:9:points", "value": 3})
    with pytest.raises(Forbidden):
        submit(fresh, people["alice"], "house_rule.set", {"key": "supply:5:points", "value": 3})
    state = submit(
        fresh, olga, "house_rule.set", {"key": "supply:5:points", "value": 3, "note": "generous"}
    ).state
    assert state["house_rules"]["supply:5:points"] == {
        "value": 3,
        "book": 2,
        "note": "generous",
        "seq": 2,
    }


def test_late_house_rule_needs_every_side(skirmish, people):
    proposal = submit(
        skirmish,
        people["alice"],
        "proposal.made",
        {
            "action": "house_rule",
            "data": {"key": "buy.max_per_round", "value": 3},
        },
    )
    assert "buy.max_per_round" not in _state(skirmish)["house_rules"]
    submit(skirmish, people["bob"], "proposal.approved", {"proposal": str(proposal.events[0].uid)})
    assert _state(skirmish)["house_rules"]["buy.max_per_round"]["value"] == 3


def test_player_on_two_sides_is_refused(skirmish, people):
    from campaigns.services import campaigns as svc

    with pytest.raises(DomainError) as error:
        svc.assign_player(skirmish, people["olga"], side="blue", username="alice")
    assert "already plays Red" in error.value.message
    with pytest.raises(DomainError):
        svc.assign_player(skirmish, people["olga"], side="blue", username="rita")
    with pytest.raises(DomainError):
        svc.assign_player(skirmish, people["olga"], side="blue", username="outsider")


def test_replacing_a_player_moves_the_seat(skirmish, people):
    from campaigns.services import campaigns as svc

    made = svc.replace_player(skirmish, people["olga"], side="blue", old="bob", new="carol")
    # olga plays red: blue agrees to its new player, here bob himself.
    submit(skirmish, people["bob"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    skirmish.refresh_from_db()
    assert list(skirmish.sides.get(slug="blue").players.values_list("username", flat=True)) == [
        "carol"
    ]
    with pytest.raises(Forbidden):
        submit(skirmish, people["bob"], "skirmish.supply")
    submit(skirmish, people["carol"], "skirmish.supply")


def test_calendar_end_finishes_with_a_winner(club, people):
    from campaigns.services import campaigns as svc

    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="duel", name="Duel"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    _play_round(campaign, people, 1, 4)
    state = _state(campaign)
    assert (state["status"], state["winner"]) == ("finished", "blue")
    assert campaign.status == "finished"
