"""What one campaign may hold: proposals open at once per side, notes per
scenario and side, units per side. Refused when a person submits (naming the bound), never in the
fold: a journal that already holds more folds, replays and takes what does not add to it."""

import pytest

from campaigns.errors import DomainError
from campaigns.journal import engine, holdings
from campaigns.services.journal import submit
from campaigns.services.state import current_state, load_records
from campaigns.systems import get_system
from campaigns.systems.victory_ledger.tests.harness import Game
from tests.rosters.helpers import play_round


def propose_export(campaign, user, n):
    return submit(campaign, user, "proposal.made", {"action": "export", "reason": f"Archive {n}"})


def pending(campaign, side):
    campaign.refresh_from_db()
    return [
        p
        for p in current_state(campaign)["proposals"].values()
        if p["status"] == "pending" and p["side"] == side
    ]


def test_a_side_keeps_at_most_five_proposals_open_at_once(skirmish, people):
    for n in range(holdings.MAX_OPEN_PROPOSALS_PER_SIDE):
        propose_export(skirmish, people["alice"], n)
    with pytest.raises(DomainError) as refused:
        propose_export(skirmish, people["olga"], "one more")  # olga plays red too: red's count
    assert refused.value.field == "action"
    assert (
        "The Red side already has 5 proposals waiting for an answer" in refused.value.message
    )  # its name, not its key
    assert len(pending(skirmish, "red")) == 5
    propose_export(skirmish, people["bob"], "blue's own")  # the other side is not held up
    # One answered (blue approves it): red may propose again.
    first = pending(skirmish, "red")[0]
    submit(skirmish, people["bob"], "proposal.approved", {"proposal": first["uid"]})
    propose_export(skirmish, people["alice"], "again")


def test_a_journal_holding_more_than_a_bound_still_folds_and_plays_on(
    skirmish, people, monkeypatch
):
    """Bounds are checked at submission only: journals written before them (here: with a larger
    bound) keep folding, and what adds nothing over the bound is accepted."""
    monkeypatch.setattr(holdings, "MAX_OPEN_PROPOSALS_PER_SIDE", 8)
    for n in range(7):
        propose_export(skirmish, people["alice"], n)
    monkeypatch.setattr(holdings, "MAX_OPEN_PROPOSALS_PER_SIDE", 5)
    skirmish.refresh_from_db()
    assert engine.fold(load_records(skirmish)) == current_state(skirmish)
    submit(skirmish, people["alice"], "skirmish.supply")  # adds no proposal
    submit(
        skirmish,
        people["bob"],
        "proposal.approved",
        {"proposal": pending(skirmish, "red")[0]["uid"]},
    )
    with pytest.raises(DomainError):
        propose_export(skirmish, people["alice"], "over")
    assert len(pending(skirmish, "red")) == 6


def test_notes_per_scenario_and_side_are_bounded(skirmish, people):
    play_round(skirmish, people)
    for n in range(holdings.MAX_NOTES_PER_SCENARIO_PER_SIDE):
        submit(
            skirmish,
            people["alice"],
            "note.added",
            {"scenario": 0, "text": f"Note {n}", "private": n % 2 == 0},
            side="red",
        )
    with pytest.raises(DomainError) as refused:
        submit(
            skirmish, people["alice"], "note.added", {"scenario": 0, "text": "one more"}, side="red"
        )
    assert refused.value.field == "text" and "20 notes on this scenario" in refused.value.message
    submit(skirmish, people["bob"], "note.added", {"scenario": 0, "text": "Blue's view"})
    submit(skirmish, people["rita"], "note.added", {"scenario": 0, "text": "The referee's view"})


@pytest.fixture
def vanguard(club, people):
    game = Game(club, people, "pattons_vanguard", "s2")
    game.setup()
    return game


def _units(prefix, count, side="american"):
    return [{"id": f"{prefix}{n}", "name": f"{prefix}{n}", "side": side} for n in range(count)]


def test_units_per_side_are_bounded_in_a_ledger(vanguard):
    """The flood it stops: 8 unit lists of ~390 units each would make 3,120 units."""
    held = vanguard.system.units_held(vanguard.state)["american"]
    vanguard.by("american", "pv.units", {"units": _units("A", holdings.MAX_UNITS_PER_SIDE - held)})
    with pytest.raises(DomainError) as refused:
        vanguard.by("american", "pv.units", {"units": _units("B", 1)})
    assert refused.value.field == "units" and "at most 200 units" in refused.value.message
    with pytest.raises(DomainError):
        vanguard.by("american", "pv.units", {"units": _units("C", 390)})
    vanguard.by("german", "pv.units", {"units": _units("G", 5, side="german")})
    assert vanguard.system.units_held(vanguard.state)["american"] == holdings.MAX_UNITS_PER_SIDE


def test_an_achtung_panzer_side_record_is_bounded_retained_and_eliminated_together(
    club, people, monkeypatch
):
    """`ap.retained` adds up to 40 units at once, and removing one keeps it among the eliminated:
    both count, so adding and removing cannot grow a side's record past the bound."""
    from campaigns.systems.achtung_panzer.tests.campaign_harness import War

    war = War(club, people, dice_mode="server")
    system = get_system("achtung_panzer")
    held = system.units_held(current_state(war.campaign))["allied"]
    monkeypatch.setattr(type(system), "max_units_per_side", held + 3)
    war.by("allied", "ap.retained", {"action": "add", "kind": "sw", "type": "LMG", "count": 2})
    added = [u for u in war.side("allied")["retained"] if u["type"] == "LMG"]
    war.by(
        "allied", "ap.retained", {"action": "remove", "id": added[0]["id"], "reason": "lost"}
    )  # grows nothing
    war.by("allied", "ap.retained", {"action": "add", "kind": "sw", "type": "LMG"})
    with pytest.raises(DomainError) as refused:
        war.by("allied", "ap.retained", {"action": "add", "kind": "sw", "type": "MMG"})
    assert refused.value.field == "units" and f"at most {held + 3} units" in refused.value.message
    war.by(
        "german", "ap.retained", {"action": "add", "kind": "sw", "type": "LMG"}
    )  # the other side's own record


def test_proposing_and_withdrawing_cannot_grow_a_campaign_for_ever(skirmish, people, monkeypatch):
    """A proposer may withdraw (reject) their own proposal, so the open count alone would let a side
    propose and withdraw large ones for ever (40 of 59 KB made the state 2.4 MB): what a side's
    proposals hold, open or answered, is bounded too."""
    monkeypatch.setattr(holdings, "MAX_PROPOSAL_BYTES_PER_SIDE", 3500)
    made = 0
    with pytest.raises(DomainError) as refused:
        for n in range(10):
            propose_export(skirmish, people["alice"], "x" * 990 + str(n))
            made += 1
            submit(
                skirmish,
                people["alice"],
                "proposal.rejected",
                {"proposal": pending(skirmish, "red")[0]["uid"]},
            )
    assert made == 3 and not pending(skirmish, "red")
    assert refused.value.field == "data" and "more than 3 KB" in refused.value.message
    propose_export(skirmish, people["alice"], "short")  # a short one still fits
    propose_export(skirmish, people["bob"], "x" * 990)  # and the other side has its own
