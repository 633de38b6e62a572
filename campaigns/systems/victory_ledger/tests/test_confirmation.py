"""Records the other side confirms (docs/rules-notes.md, VL-5): a side's turn record (and FAB's
end-of-game result) stays provisional until the other side confirms it, through the core's result
events, can be disputed, and a dispute is settled by the referee or an organizer playing no side;
victory checks run on confirmed records only. The referee's own record is final at once.

The arithmetic is Patton's Vanguard's (000_53e5f65b78d4191e.txt): in Scenario 1 the German needs 2
VP on the map at the end of turn 1 (18.1), or the American wins at once; the American holds the
Advantage (5.2), so nothing cancels it (16.1E). Area 9 is worth 2 VP, Area 13 1 VP (18.2).
"""

from __future__ import annotations

import pytest
from django.test import Client

from campaigns.errors import DomainError, Forbidden
from campaigns.journal.records import Viewer
from campaigns.selectors.todos import actions_for, result_to_confirm
from campaigns.systems.pattons_vanguard.tests.test_pattons_vanguard import T1, T2, scenario_one
from campaigns.systems.victory_ledger.tests.harness import Game
from tests.page_forms import page_forms

pytestmark = pytest.mark.django_db


def client(people, name):
    made = Client(raise_request_exception=True)
    made.force_login(people[name])
    return made


def todos(game, name, playing=None, referee=False, organizer=False):
    viewer = Viewer(
        name,
        frozenset([playing]) if playing else frozenset(),
        referee=referee,
        playing=playing,
        organizer=organizer,
        member=True,
    )
    return {t.kind: t.label for t in actions_for(game.state, viewer)}


def test_a_turn_that_would_end_the_game_waits_for_the_other_side_and_a_dispute_is_settled(
    club, people
):
    game = scenario_one(club, people)
    # The American records turn 1 with the German holding no VP area: 0 < 2 (18.1), an American
    # automatic victory. Before: that record alone ended the campaign.
    game.turn(T1, {}, side="american", confirm=False)
    state = game.state
    assert state["status"] == "active" and game.pub["ledger"] == [] and game.pub["phase"] == "play"
    assert state["scenarios"][0]["status"] == "pending"
    waiting = result_to_confirm(state, 0)
    assert waiting["what"] == "the American's record of Turn 1 (19 Sep)" and waiting["by"] == "bob"
    assert "German VP: 0 + 0 + 0 = 0" in waiting["lines"]
    assert (
        "American automatic victory (18.1): German controls 0 VP on the map (VP areas), fewer than 2: American "
        "automatic victory"
    ) in waiting["lines"]
    assert waiting["lines"][-1] == (
        "Once confirmed the game ends: American: American automatic victory at the end "
        "of Turn 1 (19 Sep) (18.1)."
    )
    # Who may do what: the German confirms or disputes, the American may withdraw, the organizer
    # (who plays no side) may settle; nobody records the next turn meanwhile.
    assert todos(game, "alice", "german") == {
        "result.confirmed": "Confirm the American's record of Turn 1 (19 Sep)",
        "result.disputed": "Dispute the American's record of Turn 1 (19 Sep)",
        "note.added": "Write an after-action note",
        "pv.units": "Add units to the list",
    }
    assert (
        todos(game, "bob", "american")["result.withdrawn"]
        == "Withdraw your record of Turn 1 (19 Sep)"
    )
    assert (
        todos(game, "olga", organizer=True)["result.resolved"]
        == "Settle the American's record of Turn 1 (19 Sep)"
    )
    with pytest.raises(
        DomainError,
        match=r"^turn: The American's record of Turn 1 \(19 Sep\) waits for the German's "
        r"confirmation \(or the referee's\) before play goes on\.$",
    ):
        game.turn(T2, {}, confirm=False)
    with pytest.raises(DomainError, match="The other side .or the referee. confirms a result"):
        game.by("american", "result.confirmed", {"scenario": 0})
    # The German disputes it: he held Area 9 and Area 13 at the end of turn 1.
    game.by("german", "result.disputed", {"scenario": 0, "reason": "I hold Areas 9 and 13."})
    assert game.state["scenarios"][0]["status"] == "disputed" and game.state["status"] == "active"
    with pytest.raises(
        DomainError, match="is disputed: the referee .or an organizer who plays no side. settles it"
    ):
        game.turn(T2, {}, confirm=False)
    with pytest.raises(Forbidden, match="Only the referee, or an organizer who plays no side"):
        game.by(
            "german",
            "result.resolved",
            {"scenario": 0, "data": game.turn_data(T1, {"9": "Gs", "13": "Gs"})},
        )
    # The referee settles it as the German says: 2 + 1 = 3 VP on the map ≥ 2: no automatic victory.
    game.act(
        "rita",
        "result.resolved",
        {"scenario": 0, "data": game.turn_data(T1, {"9": "Gs", "13": "Gs"})},
    )
    state = game.state
    assert state["status"] == "active" and state["scenarios"][0]["status"] == "current"
    entry = game.pub["ledger"][0]
    assert entry["scores"] == {"german": 3} and not entry["outcome"]
    assert (
        entry["confirmed"] == {"how": "settled", "by": "rita", "side": ""} and entry["by"] == "bob"
    )
    # Play goes on: the German records turn 2 and the American confirms it.
    game.turn(T2, {"14": "Gs"}, side="german")
    assert [e["turn"] for e in game.pub["ledger"]] == [T1, T2]
    assert game.pub["ledger"][1]["confirmed"]["how"] == "confirmed"


def test_victory_checks_run_when_the_record_is_confirmed(club, people):
    game = scenario_one(club, people)
    game.turn(T1, {}, side="american", confirm=False)
    assert game.state["status"] == "active"
    game.by("german", "result.confirmed", {"scenario": 0})
    state = game.state
    assert state["status"] == "finished" and state["winner"] == "american"
    assert "American automatic victory at the end of Turn 1 (19 Sep)" in state["finish_reason"]


def test_a_withdrawn_record_is_entered_again(club, people):
    game = scenario_one(club, people)
    game.turn(T1, {}, side="american", confirm=False)
    game.by("american", "result.withdrawn", {"scenario": 0})
    assert game.state["scenarios"][0]["status"] == "current" and game.pub["ledger"] == []
    game.turn(T1, {"9": "Gs"}, side="american")
    assert game.pub["ledger"][0]["scores"] == {"german": 2} and game.state["status"] == "active"


def test_the_referee_s_record_is_final_at_once(club, people):
    game = scenario_one(club, people)
    game.act("rita", "pv.turn", game.turn_data(T1, {"9": "Gs"}), side="german")
    state = game.state
    assert state["scenarios"][0]["status"] == "current" and game.pub["ledger"][0]["scores"] == {
        "german": 2
    }
    assert "confirmed" not in game.pub["ledger"][0]


def test_a_refused_record_is_refused_when_submitted_not_when_confirmed(club, people):
    game = scenario_one(club, people)
    with pytest.raises(
        DomainError, match=r"not buy a Replacement Point on turn 4|No location '99'"
    ):
        game.turn(T1, {"99": "Gs"}, confirm=False)
    assert game.state["scenarios"][0]["status"] == "current"


def test_the_other_side_confirms_what_it_sees_on_the_page_and_the_referee_settles_on_a_form(
    club, people
):
    game = scenario_one(club, people)
    game.turn(T1, {"9": "Gs"}, [("U1", "reduced")], side="german", confirm=False, note="Rain")
    page = client(people, "bob").get(f"/campaigns/{game.campaign.pk}/").content.decode()
    forms = [f for f in page_forms(page) if f.body().get("_kind", "").startswith("result.")]
    assert [f.body()["_kind"] for f in forms][:2] == ["result.confirmed", "result.disputed"]
    confirm = forms[0].text
    assert "The German's record of Turn 1 (19 Sep) entered by alice (German):" in confirm
    assert "Area 9 (Hill 318): German, supplied" in confirm and "U1: reduced" in confirm
    assert "Note: Rain" in confirm and "German VP: 2 + 0 + 0 = 2" in confirm
    # The referee's Settle form is the turn's own form, filled with what the German entered.
    page = client(people, "rita").get(f"/campaigns/{game.campaign.pk}/").content.decode()
    settle = next(f for f in page_forms(page) if f.body().get("_kind") == "result.resolved")
    body = settle.body()
    assert not any(
        "data" == name or name.startswith("data.") for name in body
    )  # never JSON to type
    rows = {
        body[k]: k.split("-")[1]
        for k in body
        if k.startswith("locations-") and k.endswith("-location")
    }
    assert body[f"locations-{rows['9']}-controller"] == "german"
    assert (
        body["units-0-unit"] == "U1"
        and body["units-0-change"] == "reduced"
        and body["note"] == "Rain"
    )
    # He settles it with Area 13 German too: 2 + 1 = 3.
    response = client(people, "rita").post(
        settle.action, settle.body(**{f"locations-{rows['13']}-controller": "german"})
    )
    assert response.status_code in (200, 302), response.content.decode()[:2000]
    assert game.pub["ledger"][0]["scores"] == {"german": 3}
    assert game.pub["ledger"][0]["confirmed"]["how"] == "settled"


def test_fab_end_of_game_result_is_disputed_and_settled_by_the_organizer(club, people):
    from campaigns.systems.fab_bulge.tests.test_fab_bulge import fab

    game = fab(club, people, last_turn=1, thresholds=[])
    game.turn("Turn 1", {})
    game.by("german", "fab.final", {"winner": "german", "reason": "Bastogne held"})
    assert game.state["status"] == "active"
    assert result_to_confirm(game.state, 0)["what"] == "the German's end-of-game result"
    game.by("allied", "result.disputed", {"scenario": 0, "reason": "Bastogne fell"})
    game.act(
        "olga",
        "result.resolved",
        {"scenario": 0, "data": {"winner": "allied", "reason": "Bastogne fell"}},
    )
    state = game.state
    assert (
        state["status"] == "finished"
        and state["winner"] == "allied"
        and "Bastogne fell" in state["finish_reason"]
    )


def test_ardennes_records_wait_for_confirmation_too(club, people):
    game = Game(club, people, "ardennes44", "s2")
    game.setup()
    game.turn("16 AM", {}, side="allied", confirm=False)
    assert game.pub["ledger"] == [] and game.state["scenarios"][0]["status"] == "pending"
    game.confirm()
    assert game.pub["ledger"][0]["turn"] == "16 AM"


def test_the_pages_of_a_waiting_record_and_the_typed_set_up_are_in_words(club, people):
    """Every seat's page while a record waits (Confirm, Dispute, Withdraw, Settle), and the
    Ardennes '44 set-up with its unit types (A44-11): words, never raw keys."""
    from tests.page_words import raw_words, visible_text

    game = scenario_one(club, people)
    game.turn(
        T1, {"9": "Gs"}, [("U1", "reduced")], side="german", confirm=False, advantage_rp="american"
    )
    for name in ("alice", "bob", "rita", "olga"):
        html = client(people, name).get(f"/campaigns/{game.campaign.pk}/").content.decode()
        assert not raw_words(visible_text(html)), (name, raw_words(visible_text(html)))
    a44 = Game(club, people, "ardennes44", "s1", name="The Bulge")
    html = client(people, "alice").get(f"/campaigns/{a44.campaign.pk}/").content.decode()
    text = visible_text(html)
    assert not raw_words(text), raw_words(text)
    assert (
        "Infantry Type" in text and "Named in 25.2.5 (von der Heydte, 150th Panzer Brigade)" in text
    )


def test_the_message_after_recording_says_it_waits_and_after_confirming_what_it_gave(club, people):
    game = scenario_one(club, people)
    page = client(people, "alice")
    url = f"/campaigns/{game.campaign.pk}/"
    turn = next(
        f for f in page_forms(page.get(url).content.decode()) if f.body().get("_kind") == "pv.turn"
    )
    rows = {
        v: k.split("-")[1]
        for k, v in turn.body().items()
        if k.startswith("locations-") and k.endswith("-location")
    }
    answer = page.post(
        turn.action, turn.body(**{f"locations-{rows['9']}-controller": "german"}), follow=True
    )
    assert (
        "Turn 1 (19 Sep) recorded. It counts once the American confirms it (or the referee)."
        in answer.content.decode()
    )
    bob = client(people, "bob")
    confirm = next(
        f
        for f in page_forms(bob.get(url).content.decode())
        if f.body().get("_kind") == "result.confirmed"
    )
    answer = bob.post(confirm.action, confirm.body(), follow=True)
    assert "Turn 1 (19 Sep) confirmed: German 2 VP." in answer.content.decode()


def test_fab_end_of_game_result_is_settled_on_its_own_form(club, people):
    from campaigns.systems.fab_bulge.tests.test_fab_bulge import fab

    game = fab(club, people, last_turn=1, thresholds=[])
    game.turn("Turn 1", {})
    game.by("german", "fab.final", {"winner": "german", "reason": "Bastogne held"})
    rita = client(people, "rita")
    page = rita.get(f"/campaigns/{game.campaign.pk}/").content.decode()
    settle = next(f for f in page_forms(page) if f.body().get("_kind") == "result.resolved")
    assert settle.body()["winner"] == "german" and settle.body()["reason"] == "Bastogne held"
    assert "The German's end-of-game result entered by alice (German):" in settle.text
    assert "Result: German victory: Bastogne held" in settle.text
    rita.post(settle.action, settle.body(winner="draw", reason="Bastogne contested at the end"))
    state = game.state
    assert state["status"] == "finished" and state["winner"] is None
    assert "Bastogne contested at the end" in state["finish_reason"]
