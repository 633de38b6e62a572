"""The sides agree to a full export for the club's organizers as they
are then. Making someone organizer afterwards (a player of the other side, or a fresh account)
gives them no path to the sides' secrets: they never agreed to that reader."""

from __future__ import annotations

from campaigns.access import permissions, visibility
from campaigns.selectors.campaign_page import campaign_page
from campaigns.services import clubs, journal_files
from campaigns.services.journal import submit


def _agreed(skirmish, people):
    submit(skirmish, people["bob"], "skirmish.supply")  # blue's secret
    made = submit(skirmish, people["rita"], "proposal.made", {"action": "export"}).events[0]
    for who in ("alice", "bob"):
        submit(skirmish, people[who], "proposal.approved", {"proposal": str(made.uid)})
    skirmish.refresh_from_db()


def _scope(skirmish, user):
    return journal_files.export_journal(skirmish, visibility.viewer_for(user, skirmish))["scope"]


def full_export_allowed(campaign, viewer) -> bool:
    """permissions.full_export_allowed, asked with the facts of the viewer's campaign page."""
    page = campaign_page(campaign, viewer)
    return permissions.full_export_allowed(
        campaign, viewer, page.export_approved, page.export_agreed_at
    )


def test_an_organizer_made_after_the_agreement_exports_only_what_they_see(skirmish, people):
    olga, alice, carol = people["olga"], people["alice"], people["carol"]
    _agreed(skirmish, people)
    assert _scope(skirmish, olga) == "full"  # organizer when the sides agreed
    clubs.set_role(club=skirmish.club, user=olga, member_username="alice", role="organizer")
    clubs.set_role(club=skirmish.club, user=olga, member_username="carol", role="organizer")
    assert _scope(skirmish, alice) == "side:red"
    assert _scope(skirmish, carol) == "side:club"
    assert not full_export_allowed(skirmish, visibility.viewer_for(alice, skirmish))
    assert full_export_allowed(skirmish, visibility.viewer_for(olga, skirmish))


def test_an_organizer_by_invitation_after_the_agreement_exports_only_what_they_see(
    skirmish, people
):
    from django.contrib.auth import get_user_model

    _agreed(skirmish, people)
    code = clubs.invite(club=skirmish.club, user=people["olga"], role="organizer").code
    puppet = clubs.signup_with_invitation(
        code=code, username="puppet", password="a long pass phrase 77"
    )
    assert _scope(skirmish, get_user_model().objects.get(pk=puppet.pk)) == "side:club"


def test_an_organizer_stepped_down_and_back_after_the_agreement_lost_it(skirmish, people):
    olga, carol = people["olga"], people["carol"]
    clubs.set_role(club=skirmish.club, user=olga, member_username="carol", role="organizer")
    _agreed(skirmish, people)
    assert _scope(skirmish, carol) == "full"
    clubs.set_role(club=skirmish.club, user=olga, member_username="carol", role="player")
    clubs.set_role(club=skirmish.club, user=olga, member_username="carol", role="organizer")
    assert _scope(skirmish, carol) == "side:club"
