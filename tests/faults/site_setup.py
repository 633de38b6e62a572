"""The fault tests' site data, made in a process of its own on the site's database (DATABASE_URL):
a club, a Skirmish campaign in play (red: olga and alice, blue: bob, referee rita), and an API token
for each person. Prints {"campaign": pk, "tokens": {username: key}} as JSON."""

import json
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from campaigns.models import Club, Membership  # noqa: E402
from campaigns.services import campaigns as svc  # noqa: E402
from campaigns.services.journal import submit  # noqa: E402

User = get_user_model()
club = Club.objects.create(name="Fault Night", slug="faults")
people = {}
for name, role in [
    ("olga", Membership.ORGANIZER),
    ("alice", Membership.PLAYER),
    ("bob", Membership.PLAYER),
    ("rita", Membership.PLAYER),
]:
    people[name] = User.objects.create_user(name, f"{name}@example.org", "pass-word-123")
    Membership.objects.create(club=club, user=people[name], role=role)
olga = people["olga"]
campaign = svc.create_campaign(
    club=club, user=olga, system="skirmish", variant="short", name="Fault war"
)
svc.assign_player(campaign, olga, side="red", username="olga")
svc.assign_player(campaign, olga, side="red", username="alice")
svc.assign_player(campaign, olga, side="blue", username="bob")
svc.assign_referee(campaign, olga, username="rita")
submit(campaign, olga, "campaign.started")
json.dump(
    {
        "campaign": campaign.pk,
        "tokens": {name: Token.objects.create(user=user).key for name, user in people.items()},
    },
    sys.stdout,
)
