"""The selectors the pages added: invitations by code, the club page, the
dashboard, house-rule choices, one history entry by uid, what a correction changes."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.access import permissions, visibility
from campaigns.errors import NotFound
from campaigns.models import Invitation
from campaigns.schema.fields import Field
from campaigns.selectors.campaign_page import campaign_page
from campaigns.selectors.clubs import club_page, invitation_by_code
from campaigns.selectors.dashboard import dashboard
from campaigns.selectors.history import history_entry
from campaigns.selectors.house_rules_shown import house_rule_choices
from campaigns.selectors.proposals_shown import _changes
from campaigns.services.journal import submit
from campaigns.systems import get_system


def test_invitation_by_code_says_why_a_code_is_dead(club, people):
    live = Invitation.objects.create(club=club, created_by=people["olga"])
    assert invitation_by_code(live.code) == (live, None)
    assert "not known" in invitation_by_code("nope")[1]
    used = Invitation.objects.create(
        club=club, created_by=people["olga"], accepted_at=timezone.now()
    )
    revoked = Invitation.objects.create(club=club, created_by=people["olga"], revoked=True)
    old = Invitation.objects.create(
        club=club, created_by=people["olga"], expires_at=timezone.now() - timedelta(1)
    )
    for invitation, word in ((used, "used"), (revoked, "withdrawn"), (old, "expired")):
        found, why = invitation_by_code(invitation.code)
        assert found is None and word in why and club.name not in why


def test_the_club_page_shows_invitations_to_organizers_only(club, people):
    Invitation.objects.create(club=club, created_by=people["olga"])
    assert len(club_page(people["olga"], club).invitations) == 1
    page = club_page(people["alice"], club)
    assert page.invitations is None and page.role == "player" and len(page.members) == 5
    with pytest.raises(NotFound):
        club_page(people["outsider"], club)


def test_the_dashboard_holds_only_my_clubs_and_campaigns(skirmish, people):
    board = dashboard(people["alice"])
    assert board.clubs == [(skirmish.club, "player")] and board.campaigns == [skirmish]
    assert [c for c, _ in board.waiting] == [skirmish]
    assert dashboard(people["outsider"]).campaigns == []


def test_house_rule_choices_list_constants_and_every_cell_with_the_book_value():
    choices = {c.key: c.book for c in house_rule_choices(get_system("skirmish"))}
    assert choices == {
        "buy.max_per_round": 2,
        "supply:≤1:points": 0,
        "supply:2-4:points": 1,
        "supply:5:points": 2,
        "supply:≥6:points": 3,
    }


def test_history_entry_finds_only_what_the_viewer_may_read(skirmish, people):
    secret = submit(skirmish, people["alice"], "skirmish.supply").events[0]
    alice = visibility.viewer_for(people["alice"], skirmish)
    bob = visibility.viewer_for(people["bob"], skirmish)
    assert history_entry(skirmish, alice, str(secret.uid)).kind == "skirmish.supply"
    for uid in (str(secret.uid), str(uuid.uuid4()), "not-a-uuid"):
        with pytest.raises(NotFound):
            history_entry(skirmish, bob, uid)


def full_export_allowed(campaign, viewer) -> bool:
    """permissions.full_export_allowed, asked with the facts of the viewer's campaign page."""
    page = campaign_page(campaign, viewer)
    return permissions.full_export_allowed(
        campaign, viewer, page.export_approved, page.export_agreed_at
    )


def test_full_export_is_allowed_to_the_referee_and_to_organizers_once_agreed(skirmish, people):
    olga = visibility.viewer_for(people["olga"], skirmish)
    rita = visibility.viewer_for(people["rita"], skirmish)
    assert full_export_allowed(skirmish, rita) and not full_export_allowed(skirmish, olga)
    made = submit(skirmish, people["olga"], "proposal.made", {"action": "export"}).events[0]
    submit(skirmish, people["bob"], "proposal.approved", {"proposal": str(made.uid)})
    skirmish.refresh_from_db()  # selectors answer as of the campaign row they are given (campaigns.kept_answers.viewcache)
    assert full_export_allowed(skirmish, olga)
    assert not full_export_allowed(skirmish, visibility.viewer_for(people["alice"], skirmish))


PLACES = Field(
    "locations",
    "list",
    label="Locations",
    item=Field(
        "location",
        "object",
        fields=(
            Field(
                "location",
                "choice",
                choices=("a", "b", "c"),
                labels=(("a", "Arlon"), ("b", "Bastogne"), ("c", "Celles")),
            ),
            Field(
                "controller",
                "choice",
                choices=("us", "de"),
                labels=(("us", "American"), ("de", "German")),
            ),
            Field("supplied", "bool", required=False, default=True, label="Supplied"),
        ),
    ),
)


def test_a_correction_of_a_list_of_named_rows_says_only_the_rows_it_changes():
    """A turn's locations, each named once: a correction that changes one says that one before and
    after by its name and what changed in it, in words, not every location of the turn; a row left
    with its default unsaid is the same row; a row gone is said on its side alone, its defaults
    unsaid."""
    before = {
        "locations": [
            {"location": "a", "controller": "us"},
            {"location": "b", "controller": "us", "supplied": True},
            {"location": "c", "controller": "de", "supplied": False},
        ]
    }
    after = {
        "locations": [
            {"location": "a", "controller": "us", "supplied": True},
            {"location": "b", "controller": "de", "supplied": True},
            {"location": "c", "controller": "de", "supplied": False},
        ]
    }
    assert _changes(before, after, (PLACES,)) == [
        (
            "Locations",
            "location Bastogne; controller American",
            "location Bastogne; controller German",
        )
    ]
    assert _changes(before, {"locations": before["locations"][:2]}, (PLACES,)) == [
        ("Locations", "location Celles; controller German; supplied no", "none")
    ]
    assert _changes(before, dict(before), (PLACES,)) == []


def test_a_correction_that_only_reorders_named_rows_is_not_said_as_none_to_none():
    """The same rows in another order are a change (a fold may read them in order): the page must
    say what the approver agrees to, not "none" before and after."""
    arlon, bastogne = {"location": "a", "controller": "us"}, {"location": "b", "controller": "de"}
    before, after = {"locations": [arlon, bastogne]}, {"locations": [bastogne, arlon]}
    said = _changes(before, after, (PLACES,))
    assert said and all((was, now) != ("none", "none") for _, was, now in said), said
