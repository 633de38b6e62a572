"""The first account of a site (README, Production): `manage.py create_organizer USERNAME --club
SLUG` founds the club with that person as organizer; with --no-input the person chooses their
password through a one-time link; bad input is exit 2 and changes nothing; run again, it is done."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from campaigns.models import Club, ClubLogEntry, Membership

pytestmark = pytest.mark.django_db


def create(*args):
    out = StringIO()
    call_command("create_organizer", *args, stdout=out)
    return out.getvalue()


def test_the_first_organizer_founds_the_club_and_chooses_a_password_through_the_link(settings):
    settings.SITE_URL = "https://muster.example.org"
    out = create("ada", "--club", "the-wargamers", "--email", "ada@example.org", "--no-input")
    club = Club.objects.get(slug="the-wargamers")
    assert club.name == "The Wargamers"
    assert Membership.objects.get(club=club).role == Membership.ORGANIZER
    assert "Founded the club “The Wargamers” (the-wargamers) with ada as organizer." in out
    assert "Sign in at https://muster.example.org/accounts/login/" in out
    link = re.search(r"https://muster\.example\.org(/accounts/password/reset/\S+/)", out).group(1)

    client = Client()
    form = client.get(link, follow=True)  # Django moves the token into the session, then asks
    assert form.status_code == 200 and 'name="new_password1"' in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "table-dice-41", "new_password2": "table-dice-41"},
    )
    assert done.status_code == 302
    page = Client()
    signed_in = page.post(
        "/accounts/login/", {"username": "ada", "password": "table-dice-41"}, follow=True
    )
    assert signed_in.status_code == 200 and "The Wargamers" in signed_in.content.decode()
    assert (
        client.get(link).status_code == 200
        and "new_password1" not in client.get(link, follow=True).content.decode()
    )


def test_run_again_nothing_changes_and_an_existing_person_keeps_the_password(django_user_model):
    create("ada", "--club", "wargamers", "--no-input")
    out = create("ada", "--club", "wargamers", "--no-input")
    assert "ada already organizes “Wargamers”: nothing to do." in out
    assert Membership.objects.count() == 1 and Club.objects.count() == 1

    bob = django_user_model.objects.create_user("bob", password="kept-password-9")
    create("bob", "--club", "wargamers", "--no-input")
    bob.refresh_from_db()
    assert bob.check_password("kept-password-9")
    assert Membership.objects.get(user=bob).role == Membership.ORGANIZER
    assert ClubLogEntry.objects.filter(action="member.organizer", detail__username="bob").exists()


def test_a_player_of_an_existing_club_is_made_its_organizer(club, people):
    out = create(people["carol"].username, "--club", club.slug, "--no-input")
    assert "is now an organizer of" in out
    assert Membership.objects.get(club=club, user=people["carol"]).role == Membership.ORGANIZER


@pytest.mark.parametrize(
    "args, says",
    [
        (["ada", "--club", "Not A Slug", "--no-input"], "lowercase letters, digits and hyphens"),
        (["bad name!", "--club", "wargamers", "--no-input"], "Username 'bad name!'"),
        (["ada", "--club", "wargamers"], "No terminal to ask a password at"),  # not a terminal here
    ],
)
def test_bad_input_is_exit_2_and_creates_nothing(args, says, django_user_model):
    with pytest.raises(CommandError, match=re.escape(says)) as refused:
        create(*args)
    assert refused.value.returncode == 2
    assert not django_user_model.objects.exists() and not Club.objects.exists()
