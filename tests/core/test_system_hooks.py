"""The generic hooks a game system may use (campaigns/systems/base.py), exercised with the
test system: options checked together, house-rule values, late house rules forbidden, a
history sentence of the system's own, the club page's comparison of campaigns."""

import pytest

from campaigns.errors import DomainError
from campaigns.journal.records import Viewer
from campaigns.selectors.clubs import club_page
from campaigns.selectors.history import history
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from tests.testsystem import SYSTEM


def test_late_house_rules_are_refused_when_the_system_fixes_them_at_the_start(
    skirmish, people, monkeypatch
):
    rule = {"action": "house_rule", "data": {"key": "supply:5:points", "value": 3}}
    monkeypatch.setattr(SYSTEM, "late_house_rules", False)
    with pytest.raises(
        DomainError, match="house rules are fixed when the campaign starts"
    ) as refused:
        submit(skirmish, people["alice"], "proposal.made", rule)
    assert refused.value.field == "action"
    assert skirmish.events.filter(kind="proposal.made").count() == 0
    monkeypatch.setattr(SYSTEM, "late_house_rules", True)
    submit(skirmish, people["alice"], "proposal.made", rule)
    assert skirmish.events.filter(kind="proposal.made").count() == 1


def test_options_are_checked_together_when_the_campaign_is_created(club, people, monkeypatch):
    def clean_options(options):
        if options.get("starting_supply") == 7:
            raise DomainError(
                "options.starting_supply", "Seven is not allowed with this dice mode."
            )
        return {**options, "checked": True}

    monkeypatch.setattr(SYSTEM, "clean_options", clean_options)
    with pytest.raises(DomainError, match="Seven is not allowed") as refused:
        svc.create_campaign(
            club=club,
            user=people["olga"],
            system="skirmish",
            variant="short",
            name="Bad",
            options={"starting_supply": 7},
        )
    assert refused.value.field == "options.starting_supply"
    assert club.campaigns.count() == 0
    made = svc.create_campaign(
        club=club,
        user=people["olga"],
        system="skirmish",
        variant="short",
        name="Good",
        options={"starting_supply": 3},
    )
    from campaigns.services.state import current_state

    assert current_state(made)["options"] == {
        "dice_mode": "server",
        "starting_supply": 3,
        "checked": True,
    }


def test_a_house_rule_value_the_system_cannot_use_is_refused(club, people, monkeypatch):
    def check(key, value):
        if value < 0:
            raise DomainError("value", "Supply points are never negative.")

    monkeypatch.setattr(SYSTEM, "check_house_rule", check)
    campaign = svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="HR"
    )
    with pytest.raises(DomainError, match="never negative"):
        submit(campaign, people["olga"], "house_rule.set", {"key": "supply:5:points", "value": -1})
    submit(campaign, people["olga"], "house_rule.set", {"key": "supply:5:points", "value": 4})
    assert campaign.events.filter(kind="house_rule.set").count() == 1


def test_a_system_can_word_any_history_entry(skirmish, people, monkeypatch):
    submit(skirmish, people["alice"], "skirmish.supply")

    def history_text(record, view):
        if record.kind == "skirmish.supply":
            points = view["game"]["sides"]["red"]["supply"]
            return f"Supply rolled: {points} points now"
        if record.kind == "campaign.started":
            return "The war begins"
        return None

    monkeypatch.setattr(SYSTEM, "history_text", history_text)
    texts = [e.text for e in history(skirmish, Viewer.for_side("red", "alice"))]
    supply = current_state(skirmish)["game"]["sides"]["red"]["supply"]
    assert f"Red: Supply rolled: {supply} points now" in texts
    assert "The war begins" in texts  # the core's own kinds too
    assert "alice joins Red" in texts  # None: the core's own text


def test_the_club_page_compares_the_clubs_campaigns(skirmish, club, people):
    from campaigns.models import Campaign

    submit(skirmish, people["alice"], "skirmish.supply")  # a secret roll: red's only
    svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Not started"
    )
    page = club_page(people["carol"], club)
    assert len(page.comparisons) == 1
    table = page.comparisons[0]
    assert table.system == "Skirmish (test system)" and table.columns == ("Red wins", "Blue wins")
    assert [(row[0].name, row[1], row[2], row[3]) for row in table.rows] == [
        # players in name order; the supply roll is red's secret, so no public die: "none rolled yet"
        ("Test war", "alice, bob, olga", "none rolled yet", (0, 0)),
    ]
    assert Campaign.objects.filter(club=club).count() == 2  # the campaign in setup is not compared
