"""The dashboard and the club page with the organizer's actions."""

from campaigns.models import Club, Invitation, Membership
from campaigns.services.journal import submit

from .conftest import text_of


def test_the_dashboard_lists_my_clubs_campaigns_and_what_waits(skirmish, client_for):
    page = text_of(client_for("alice").get("/"))
    assert "Tuesday Night ASL" in page and "Test war" in page
    assert "Waiting for you" in page and "Roll for supply" in page
    # "My campaigns" are those one plays or referees; a member who only watches finds them on the club page.
    watching = text_of(client_for("carol").get("/"))
    assert "Test war" not in watching and "Nothing waits for you right now." in watching
    assert "You play or referee no campaign yet" in watching
    assert "Test war" in text_of(client_for("carol").get("/clubs/tuesday/"))
    organizer = text_of(client_for("olga").get("/"))  # olga plays red: hers, once
    assert organizer.count(">Test war</a>") == 1
    stranger = text_of(client_for("outsider").get("/"))
    assert "Test war" not in stranger and "You are in no club yet" in stranger


def test_an_organizer_who_plays_no_side_sees_whom_each_campaign_waits_for(
    skirmish, people, client_for
):
    from campaigns.services import campaigns as svc

    other = svc.create_campaign(
        club=skirmish.club,
        user=people["olga"],
        system="skirmish",
        variant="short",
        name="Second war",
    )
    svc.assign_player(other, people["olga"], side="red", username="alice")
    svc.assign_player(other, people["olga"], side="blue", username="bob")
    submit(other, people["olga"], "campaign.started")
    submit(other, people["alice"], "skirmish.supply")
    submit(
        other, people["bob"], "skirmish.supply"
    )  # both rolled: the stance is a sealed choice now
    submit(other, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "hold"})
    page = text_of(client_for("olga").get("/"))
    organized = page.split("Campaigns you organize")[1]
    assert "Second war" in organized and "Waiting for: Blue: Stance" in organized


def test_what_waits_goes_away_once_done(skirmish, people, client_for):
    submit(skirmish, people["alice"], "skirmish.supply")
    page = text_of(client_for("alice").get("/"))
    assert "Roll for supply" not in page and "Buy reinforcements" in page


def test_founding_a_club(people, client_for):
    client = client_for("outsider")
    empty = client.post("/clubs/new/", {"name": "  "})
    assert (
        empty.status_code == 400
        and not Club.objects.filter(memberships__user=people["outsider"]).exists()
    )
    response = client.post("/clubs/new/", {"name": "Thursday Club"})
    club = Club.objects.get(name="Thursday Club")
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.slug}/"
    assert Membership.objects.get(club=club, user=people["outsider"]).role == "organizer"


def test_the_club_page_shows_members_and_campaigns(skirmish, client_for):
    page = text_of(client_for("carol").get("/clubs/tuesday/"))
    for name in ("olga", "alice", "bob", "rita", "carol"):
        assert f"<td>{name}" in page
    assert "Test war" in page
    assert "Invitations" not in page and "Make organizer" not in page  # organizers only


def test_an_organizer_invites_and_copies_the_link(club, people, client_for):
    olga = client_for("olga")
    response = olga.post(
        "/clubs/tuesday/invitations/", {"role": "organizer", "email": "x@example.org"}
    )
    invitation = Invitation.objects.get(club=club)
    assert response.status_code == 302 and invitation.role == "organizer"
    page = text_of(olga.get("/clubs/tuesday/"))
    assert (
        f"http://127.0.0.1:8000/join/{invitation.code}/" in page
    )  # in the message and the copy field
    assert "x@example.org" in page


def test_a_bad_invitation_is_refused(club, people, client_for):
    response = client_for("olga").post(
        "/clubs/tuesday/invitations/", {"role": "emperor", "email": "nope"}
    )
    assert response.status_code == 400 and "Select a valid choice" in text_of(response)
    assert "Enter a valid email address." in text_of(response)
    assert not Invitation.objects.exists()


def test_players_cannot_invite_or_see_codes(club, people, client_for):
    invitation = Invitation.objects.create(club=club, created_by=people["olga"])
    alice = client_for("alice")
    assert invitation.code not in text_of(alice.get("/clubs/tuesday/"))
    assert alice.post("/clubs/tuesday/invitations/", {"role": "player"}).status_code == 403
    assert alice.post(f"/clubs/tuesday/invitations/{invitation.pk}/revoke/").status_code == 403
    assert Invitation.objects.count() == 1 and Invitation.objects.get().usable


def test_revoking_an_invitation(club, people, client_for):
    invitation = Invitation.objects.create(club=club, created_by=people["olga"])
    response = client_for("olga").post(f"/clubs/tuesday/invitations/{invitation.pk}/revoke/")
    invitation.refresh_from_db()
    assert response.status_code == 302 and invitation.revoked
    other = Invitation.objects.create(
        club=Club.objects.create(name="Other", slug="other"), created_by=people["olga"]
    )
    assert (
        client_for("olga").post(f"/clubs/tuesday/invitations/{other.pk}/revoke/").status_code == 404
    )


def test_setting_roles_and_the_last_organizer(club, people, client_for):
    olga = client_for("olga")
    assert olga.post("/clubs/tuesday/members/alice/role/", {"role": "organizer"}).status_code == 302
    assert Membership.objects.get(user=people["alice"]).role == "organizer"
    olga.post("/clubs/tuesday/members/alice/role/", {"role": "player"})
    refused = olga.post("/clubs/tuesday/members/olga/role/", {"role": "player"})
    assert refused.status_code == 400 and "at least one organizer" in text_of(refused)
    assert Membership.objects.get(user=people["olga"]).role == "organizer"
    unknown = olga.post("/clubs/tuesday/members/nobody/role/", {"role": "player"})
    assert unknown.status_code == 400 and "nobody is not a member" in text_of(unknown)


def test_handing_over_the_organizer_role(club, people, client_for):
    olga = client_for("olga")
    stranger = olga.post("/clubs/tuesday/hand-over/", {"username": "outsider"})
    assert (
        stranger.status_code == 400
        and Membership.objects.get(user=people["olga"]).role == "organizer"
    )
    response = olga.post("/clubs/tuesday/hand-over/", {"username": "carol"})
    assert response.status_code == 302
    roles = dict(Membership.objects.values_list("user__username", "role"))
    assert roles["carol"] == "organizer" and roles["olga"] == "player"
    assert (
        client_for("olga").post("/clubs/tuesday/hand-over/", {"username": "alice"}).status_code
        == 403
    )
