"""The campaign page: generic action forms, dice entered from the table, sealed
choices, results and their confirmation, disputes, proposals, history, export."""

import json
import re

import pytest

from campaigns.models import Event, Membership
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from campaigns.systems import get_system

from .conftest import text_of


def url(campaign, tail=""):
    return f"/campaigns/{campaign.pk}/{tail}"


def post_action(client, campaign, kind, side=None, **data):
    body = {"_kind": kind, **{k: str(v) for k, v in data.items()}}
    if side:
        body["_side"] = side
    return client.post(url(campaign, "submit/"), body)


def test_the_page_offers_what_the_viewer_can_do(skirmish, client_for):
    page = text_of(client_for("alice").get(url(skirmish)))
    assert "Roll for supply" in page and 'value="skirmish.supply"' in page
    assert "you play Red" in page
    watching = text_of(client_for("carol").get(url(skirmish)))
    assert 'value="skirmish.supply"' not in watching
    assert "You do not play in this campaign" in watching
    referee = text_of(client_for("rita").get(url(skirmish)))
    # The referee may act for either side.
    assert referee.count('value="skirmish.supply"') == 2


def test_a_step_is_submitted_and_reported(skirmish, client_for):
    alice = client_for("alice")
    response = post_action(alice, skirmish, "skirmish.supply", "red")
    assert response.status_code == 302 and response["Location"].endswith(
        f"/campaigns/{skirmish.pk}/#now"
    )
    page = text_of(alice.get(response["Location"]))
    message = page.split('class="messages"')[1].split("</ul>")[0]
    assert (
        "Done: Roll for supply." in message
        and "Supply roll of Red: " in message
        and "0/supply/red" not in message
    )
    assert skirmish.events.filter(kind="skirmish.supply", side="red").count() == 1


def test_a_refused_step_shows_the_reason_on_its_field_and_writes_nothing(skirmish, client_for):
    alice = client_for("alice")
    post_action(alice, skirmish, "skirmish.supply", "red")
    before = Event.objects.count()
    response = post_action(alice, skirmish, "skirmish.buy", "red", count=5)
    assert response.status_code == 400
    page = text_of(response)
    assert "At most 2 reinforcements per round (T.3)." in page
    assert 'name="count" value="5"' in page  # what was typed stays in the form
    assert Event.objects.count() == before


def test_bad_input_is_caught_by_the_form(skirmish, client_for):
    alice = client_for("alice")
    post_action(alice, skirmish, "skirmish.supply", "red")
    before = Event.objects.count()
    response = post_action(alice, skirmish, "skirmish.buy", "red", count="lots")
    assert response.status_code == 400 and "Enter a whole number." in text_of(response)
    response = post_action(alice, skirmish, "no.such.kind", "red")
    assert response.status_code == 400 and "not something one can do" in text_of(response)
    assert Event.objects.count() == before


def test_acting_for_the_other_side_is_forbidden(skirmish, client_for):
    before = Event.objects.count()
    response = post_action(client_for("bob"), skirmish, "skirmish.supply", "red")
    assert response.status_code == 403
    assert "only act for your own side" in text_of(response)
    assert Event.objects.count() == before


def test_a_double_click_appends_once(skirmish, client_for):
    alice = client_for("alice")
    body = {"kind": "skirmish.supply", "side": "red", "idempotency_key": "k-123"}
    first = alice.post(url(skirmish, "submit/"), body)
    second = alice.post(url(skirmish, "submit/"), body)
    assert first.status_code == second.status_code == 302
    assert skirmish.events.filter(kind="skirmish.supply").count() == 1


def test_htmx_gets_the_refused_form_alone_and_a_redirect_on_success(skirmish, client_for):
    alice = client_for("alice")
    headers = {"HTTP_HX_REQUEST": "true"}
    post_action(alice, skirmish, "skirmish.supply", "red")
    refused = alice.post(
        url(skirmish, "submit/"), {"kind": "skirmish.buy", "side": "red", "count": "5"}, **headers
    )
    assert refused.status_code == 400
    fragment = text_of(refused)
    assert fragment.lstrip().startswith("{#") is False and "<html" not in fragment
    assert "At most 2 reinforcements" in fragment
    ok = alice.post(
        url(skirmish, "submit/"), {"kind": "skirmish.buy", "side": "red", "count": "1"}, **headers
    )
    assert ok.status_code == 204 and ok["HX-Redirect"] == f"/campaigns/{skirmish.pk}/"


@pytest.fixture
def table_dice(club, people):
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
    return campaign


def test_entered_dice_are_asked_for_then_used(table_dice, client_for):
    alice = client_for("alice")
    asked = post_action(alice, table_dice, "skirmish.supply", "red")
    assert asked.status_code == 400
    page = text_of(asked)
    assert "Enter the dice rolled at the table for: Supply roll of Red." in page
    assert 'name="dice:0/supply/red"' in page
    assert not table_dice.events.filter(kind="skirmish.supply").exists()
    wrong = alice.post(
        url(table_dice, "submit/"),
        {"kind": "skirmish.supply", "side": "red", "dice:0/supply/red": "9"},
    )
    assert (
        wrong.status_code == 400 and not table_dice.events.filter(kind="skirmish.supply").exists()
    )
    typo = alice.post(
        url(table_dice, "submit/"),
        {"kind": "skirmish.supply", "side": "red", "dice:0/supply/red": "five"},
    )
    assert typo.status_code == 400 and "whole numbers" in text_of(typo)
    done = alice.post(
        url(table_dice, "submit/"),
        {"kind": "skirmish.supply", "side": "red", "dice:0/supply/red": "5"},
    )
    assert done.status_code == 302
    rolled = table_dice.events.get(kind="dice.rolled")
    assert rolled.data["dice"] == [5] and rolled.data["source"] == "entered"


def _both_supplied(campaign, people):
    submit(campaign, people["alice"], "skirmish.supply")
    submit(campaign, people["bob"], "skirmish.supply")


def test_a_sealed_choice_waits_without_revealing(skirmish, people, client_for):
    _both_supplied(skirmish, people)
    alice, bob = client_for("alice"), client_for("bob")
    assert 'type="radio" name="choice" value="attack"' in text_of(alice.get(url(skirmish)))
    response = post_action(
        alice, skirmish, "sealed.submitted", "red", key="stance:0", choice="attack"
    )
    assert response.status_code == 302
    bobs = text_of(bob.get(url(skirmish)))
    assert "1 of 2 sides have chosen: waiting for the other side" in bobs
    assert "chose <strong>attack" not in bobs
    assert "you chose <strong>attack</strong>" in text_of(alice.get(url(skirmish)))
    post_action(bob, skirmish, "sealed.submitted", "blue", key="stance:0", choice="hold")
    revealed = text_of(bob.get(url(skirmish)))
    assert (
        "Red chose <strong>attack</strong>" in revealed
        and "Blue chose <strong>hold</strong>" in revealed
    )


def test_a_sealed_choice_outside_the_options_is_refused(skirmish, people, client_for):
    _both_supplied(skirmish, people)
    before = Event.objects.count()
    response = post_action(
        client_for("alice"), skirmish, "sealed.submitted", "red", key="stance:0", choice="flee"
    )
    assert response.status_code == 400 and "Select a valid choice" in text_of(response)
    blank = post_action(
        client_for("alice"), skirmish, "sealed.submitted", "red", key="stance:0", choice=""
    )
    assert blank.status_code == 400 and "This field is required." in text_of(blank)
    # Nothing is chosen by accident: no radio button of the sealed choice starts checked.
    bobs = text_of(client_for("bob").get(url(skirmish)))
    assert 'name="choice" value="hold"' in bobs and 'name="choice" value="hold" checked' not in bobs
    assert Event.objects.count() == before


def _ready_for_result(campaign, people):
    _both_supplied(campaign, people)
    submit(campaign, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"})
    submit(campaign, people["bob"], "sealed.submitted", {"key": "stance:0", "choice": "hold"})


def test_a_result_is_entered_in_one_form_then_confirmed_by_the_other_side(
    skirmish, people, client_for
):
    _ready_for_result(skirmish, people)
    alice, bob = client_for("alice"), client_for("bob")
    form = text_of(alice.get(url(skirmish)))
    assert 'name="data.red"' in form and 'name="data.blue"' in form  # the system's result fields
    response = alice.post(
        url(skirmish, "submit/"),
        {
            "kind": "result.submitted",
            "side": "red",
            "scenario": "0",
            "data.red": "3",
            "data.blue": "1",
        },
    )
    assert response.status_code == 302
    bobs = text_of(bob.get(url(skirmish)))
    assert "waiting for confirmation" in bobs and "Confirm the result of Round 1" in bobs
    assert "Dispute the result of Round 1" in bobs
    response = bob.post(
        url(skirmish, "submit/"), {"kind": "result.confirmed", "side": "blue", "scenario": "0"}
    )
    assert response.status_code == 302
    state = current_state(skirmish)
    assert (
        state["scenarios"][0]["status"] == "played" and state["game"]["public"]["wins"]["red"] == 1
    )


def test_the_scenario_of_a_confirmation_comes_from_the_page_not_the_post(
    skirmish, people, client_for
):
    _ready_for_result(skirmish, people)
    submit(
        skirmish,
        people["alice"],
        "result.submitted",
        {"scenario": 0, "data": {"red": 3, "blue": 1}},
    )
    response = client_for("bob").post(
        url(skirmish, "submit/"), {"kind": "result.confirmed", "side": "blue", "scenario": "2"}
    )
    # No to-do matches scenario 2: the form is checked as posted, and the service refuses it.
    assert response.status_code == 400
    assert current_state(skirmish)["scenarios"][0]["status"] == "pending"


def test_a_bad_result_is_refused_on_its_field(skirmish, people, client_for):
    _ready_for_result(skirmish, people)
    before = Event.objects.count()
    response = client_for("alice").post(
        url(skirmish, "submit/"),
        {
            "kind": "result.submitted",
            "side": "red",
            "scenario": "0",
            "data.red": "-1",
            "data.blue": "1",
        },
    )
    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 0." in text_of(response)
    assert Event.objects.count() == before


def test_a_dispute_goes_to_the_referee(skirmish, people, client_for):
    _ready_for_result(skirmish, people)
    submit(
        skirmish,
        people["alice"],
        "result.submitted",
        {"scenario": 0, "data": {"red": 3, "blue": 1}},
    )
    bob, rita = client_for("bob"), client_for("rita")
    missing_reason = bob.post(
        url(skirmish, "submit/"), {"kind": "result.disputed", "side": "blue", "scenario": "0"}
    )
    assert missing_reason.status_code == 400 and "This field is required." in text_of(
        missing_reason
    )
    response = bob.post(
        url(skirmish, "submit/"),
        {"kind": "result.disputed", "side": "blue", "scenario": "0", "reason": "It was 2-2"},
    )
    assert response.status_code == 302
    ritas = text_of(rita.get(url(skirmish)))
    assert "Disputed by bob" in ritas and "Settle the result of Round 1" in ritas
    response = rita.post(
        url(skirmish, "submit/"),
        {"kind": "result.resolved", "scenario": "0", "data.red": "2", "data.blue": "2"},
    )
    assert response.status_code == 302
    assert current_state(skirmish)["scenarios"][0]["result"] == {"red": 2, "blue": 2}


def test_an_undo_is_proposed_and_agreed(skirmish, people, client_for):
    alice, bob = client_for("alice"), client_for("bob")
    submit(skirmish, people["alice"], "skirmish.supply")
    buy = submit(skirmish, people["alice"], "skirmish.buy", {"count": 1}).events[0]
    response = alice.post(url(skirmish, f"history/{buy.uid}/undo/"), {"reason": "misclick"})
    assert response.status_code == 302
    bobs = text_of(bob.get(url(skirmish)))
    assert "about a private event of Red" in bobs and "misclick" not in bobs
    assert "Agree to a proposed undo" in bobs
    proposal = skirmish.events.get(kind="proposal.made")
    response = bob.post(
        url(skirmish, "submit/"),
        {"kind": "proposal.approved", "side": "blue", "proposal": str(proposal.uid)},
    )
    assert response.status_code == 302
    state = current_state(skirmish)
    assert state["game"]["sides"]["red"]["bought"] == 0
    assert "undone" in text_of(alice.get(url(skirmish, "history/")))


def test_a_proposal_can_be_rejected(skirmish, people, client_for):
    submit(skirmish, people["alice"], "skirmish.supply")
    buy = submit(skirmish, people["alice"], "skirmish.buy", {"count": 1}).events[0]
    submit(skirmish, people["alice"], "proposal.made", {"action": "undo", "target": str(buy.uid)})
    proposal = skirmish.events.get(kind="proposal.made")
    response = client_for("bob").post(
        url(skirmish, "submit/"),
        {"kind": "proposal.rejected", "side": "blue", "proposal": str(proposal.uid)},
    )
    assert response.status_code == 302
    assert list(current_state(skirmish)["proposals"].values())[0]["status"] == "rejected"


def test_a_correction_is_proposed_with_the_events_own_form(skirmish, people, client_for):
    submit(skirmish, people["alice"], "skirmish.supply")
    buy = submit(skirmish, people["alice"], "skirmish.buy", {"count": 2}).events[0]
    alice = client_for("alice")
    form = alice.get(url(skirmish, f"history/{buy.uid}/correct/"))
    assert form.status_code == 200 and 'name="count" value="2"' in text_of(form)
    bad = alice.post(url(skirmish, f"history/{buy.uid}/correct/"), {"count": "0"})
    assert bad.status_code == 400 and not skirmish.events.filter(kind="proposal.made").exists()
    response = alice.post(
        url(skirmish, f"history/{buy.uid}/correct/"), {"count": "1", "proposal-reason": "one only"}
    )
    assert response.status_code == 302
    made = skirmish.events.get(kind="proposal.made")
    assert (
        made.data["action"] == "correct"
        and made.data["data"] == {"count": 1}
        and made.data["target"] == buy.seq
        and made.data["reason"] == "one only"
    )
    assert made.audience == "side" and made.side == "red"  # as private as the event it corrects


def test_a_late_house_rule_is_proposed_and_a_bad_one_refused(skirmish, people, client_for):
    alice = client_for("alice")
    bad = alice.post(
        url(skirmish, "propose/house-rule/"), {"key": "no.such.constant", "value": "3"}
    )
    assert bad.status_code == 400 and "names no table cell or constant" in text_of(bad)
    assert not skirmish.events.filter(kind="proposal.made").exists()
    ok = alice.post(
        url(skirmish, "propose/house-rule/"), {"key": "buy.max_per_round", "value": "3"}
    )
    assert ok.status_code == 302
    made = skirmish.events.get(kind="proposal.made")
    assert made.data["data"] == {"key": "buy.max_per_round", "value": 3, "note": ""}


def test_history_names_events_by_uid_and_never_by_sequence(skirmish, people, client_for):
    supply = submit(skirmish, people["bob"], "skirmish.supply").events[0]
    page = text_of(client_for("bob").get(url(skirmish, "history/")))
    assert f"/history/{supply.uid}/undo/" in page
    organizer = text_of(client_for("olga").get(url(skirmish, "history/")))
    for event in skirmish.events.filter(kind__in=("player.assigned", "referee.assigned")):
        assert f"/history/{event.uid}/undo/" in organizer
    for text in (page, organizer):
        assert not re.search(r"/history/\d+/", text) and "seq" not in text


def test_the_history_page_shows_a_page_of_entries_at_a_time(
    skirmish, people, client_for, monkeypatch
):
    """Newest first, HISTORY_PAGE entries a page, the others one link away (plain links: no
    script needed); the list numbers each entry as on the whole history."""
    from campaigns.views import play

    monkeypatch.setattr(play, "HISTORY_PAGE", 3)
    for number in range(3):
        submit(skirmish, people["bob"], "note.added", {"scenario": 0, "text": f"Note {number}"})
    bob = client_for("bob")
    every = len(play.history_by_uid(skirmish, play.campaign_for(people["bob"], skirmish.pk)[1]))
    assert every > 6
    first = text_of(bob.get(url(skirmish, "history/")))
    assert first.count('<li class="') == 3 and f'reversed start="{every}"' in first
    assert 'href="?page=2" rel="next">Older entries' in first and "Newer entries" not in first
    second = text_of(bob.get(url(skirmish, "history/?page=2")))
    assert f'reversed start="{every - 3}"' in second and 'href="?page=1" rel="prev"' in second
    last = -(-every // 3)
    for asked in (str(last), "999999"):  # past the last: the last
        page = text_of(bob.get(url(skirmish, f"history/?page={asked}")))
        assert "Older entries" not in page and "Newer entries" in page
    for asked in ("0", "-1", "two", "", "9" * 20):  # not a page: the first
        assert f'reversed start="{every}"' in text_of(
            bob.get(url(skirmish, f"history/?page={asked}"))
        )


def test_the_export_is_cut_to_the_viewer(skirmish, people, client_for):
    submit(skirmish, people["alice"], "skirmish.supply")
    bobs = client_for("bob").get(url(skirmish, "export/"))
    assert bobs.status_code == 200 and "attachment" in bobs["Content-Disposition"]
    journal = json.loads(bobs.content)
    assert journal["scope"] == "side:blue"
    assert all(e["audience"] == "public" or e["side"] == "blue" for e in journal["events"])
    assert all("seq" not in e for e in journal["events"])
    full = json.loads(client_for("rita").get(url(skirmish, "export/")).content)
    assert full["scope"] == "full" and any(e["kind"] == "skirmish.supply" for e in full["events"])


def test_a_system_panel_replaces_the_generic_state_when_the_system_has_one(
    skirmish, client_for, tmp_path, settings, monkeypatch
):
    generic = text_of(client_for("alice").get(url(skirmish)))
    assert "your side's records" in generic
    (tmp_path / "skirmish_panel.html").write_text(
        "<section id='skirmish-panel'>{{ campaign.name }} / {{ viewer.playing }}</section>"
    )
    monkeypatch.setattr(get_system("skirmish"), "panel_template", "skirmish_panel.html")
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}
    ]
    page = text_of(client_for("alice").get(url(skirmish)))
    assert "<section id='skirmish-panel'>Test war / red</section>" in page
    assert "your side's records" not in page


def test_the_sheets_panel_is_included(skirmish, client_for, tmp_path, settings):
    rosters = tmp_path / "rosters"
    rosters.mkdir()
    (rosters / "_sheets_panel.html").write_text("<div id='sheets-here'>{{ campaign.pk }}</div>")
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}
    ]
    assert f"<div id='sheets-here'>{skirmish.pk}</div>" in text_of(
        client_for("carol").get(url(skirmish))
    )


def test_a_member_who_left_the_club_loses_the_page(skirmish, people, client_for):
    Membership.objects.filter(user=people["carol"]).delete()
    assert client_for("carol").get(url(skirmish)).status_code == 404


def test_a_correction_of_a_json_field_round_trips(skirmish, people, client_for):
    _both_supplied(skirmish, people)
    chosen = submit(
        skirmish, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"}
    ).events[0]
    alice = client_for("alice")
    form = text_of(alice.get(url(skirmish, f"history/{chosen.uid}/correct/")))
    assert (
        "<textarea name=\"choice\"" not in form
    )  # a person never types JSON: the choice is a choice
    attack = re.search(r'<input type="radio" name="choice" value="attack"[^>]*>', form).group(0)
    assert "checked" in attack
    response = alice.post(
        url(skirmish, f"history/{chosen.uid}/correct/"), {"key": "stance:0", "choice": "hold"}
    )
    assert response.status_code == 302
    assert skirmish.events.get(kind="proposal.made").data["data"] == {
        "key": "stance:0",
        "choice": "hold",
    }


def test_the_waiting_block_polls_only_when_there_is_no_form(skirmish, people, client_for):
    poll = f'hx-get="/campaigns/{skirmish.pk}/" hx-trigger="every 20s" hx-select="#now"'
    assert poll not in text_of(client_for("alice").get(url(skirmish)))  # alice has a form to fill
    assert poll in text_of(client_for("carol").get(url(skirmish)))


def test_a_full_export_once_every_side_agreed(skirmish, people, client_for):
    submit(skirmish, people["bob"], "skirmish.supply")  # blue's secret: only a full export holds it
    olga = client_for("olga")
    assert json.loads(olga.get(url(skirmish, "export/")).content)["scope"] == "side:red"
    assert "Propose a full export" in text_of(olga.get(url(skirmish)))
    assert olga.post(url(skirmish, "propose/export/")).status_code == 302
    proposal = skirmish.events.get(kind="proposal.made")
    bob = client_for("bob")
    assert (
        bob.post(
            url(skirmish, "submit/"),
            {"kind": "proposal.approved", "side": "blue", "proposal": str(proposal.uid)},
        ).status_code
        == 302
    )
    full = json.loads(olga.get(url(skirmish, "export/")).content)
    assert full["scope"] == "full" and any(
        e["kind"] == "skirmish.supply" and e["side"] == "blue" for e in full["events"]
    )
    assert "Download the journal (full)" in text_of(olga.get(url(skirmish)))
    assert (
        json.loads(client_for("alice").get(url(skirmish, "export/")).content)["scope"] == "side:red"
    )


def test_players_are_offered_to_fix_play_not_the_seating(skirmish, people, client_for):
    assigned = skirmish.events.get(kind="referee.assigned")
    assert f"/history/{assigned.uid}/undo/" not in text_of(
        client_for("bob").get(url(skirmish, "history/"))
    )
    assert f"/history/{assigned.uid}/undo/" in text_of(
        client_for("olga").get(url(skirmish, "history/"))
    )
    buy = submit(skirmish, people["bob"], "skirmish.supply").events[0]
    assert f"/history/{buy.uid}/undo/" in text_of(client_for("bob").get(url(skirmish, "history/")))
