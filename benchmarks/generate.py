"""The large club (and a small one to compare with), built through the services.

Every campaign is created, staffed, started and played by journal submissions
(campaigns.services), so the snapshots and projections (sides, scenarios, roster
entries) are exactly what the product would hold. Sizes (defaults):

  large club "bench-large": 50 campaigns x 40 rounds = 2,000 scenarios,
                            50 x 400 units = 20,000 roster entries
  small club "bench-small": 2 campaigns x 3 rounds, 10 units each
  print club "bench-print": one campaign per sheet size, "Roster <N>", whose red
                            side has N units (the PDF render benchmark's sheets)

Each club also holds an Achtung! Panzer! CG III campaign played through the services
(benchmarks.apcg): the large club's over all 13 half-days (5/29A-6/4A, every Refit Phase
step, purchases, retained units), the small club's over one, so the A!P! pages' queries
are compared at two sizes too. "bench" plays the Allies there.

A club of its own, "bench-play" (organized by the user "bench-play"), holds the campaigns whose
pages are measured in play (`_in_play`): a CG III stopped mid-Refit Phase in its 12th half-day
(read by the Allied player, the German player and the referee), a Rifles in the Ardennes squad
and an Ardennes '44 ledger with its chart.

The user "bench" organizes the large club and plays red in each of its campaigns;
"bench-s" does the same in the small one (so a page listing "my campaigns" can be
compared at two sizes). The other members belong to both clubs.

    python -m benchmarks.generate            # replaces the benchmark clubs
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

if __name__ == "__main__":
    from benchmarks.django_env import setup

    setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

USER = "bench"
MEMBERS = 30


@dataclass(frozen=True)
class ClubSize:
    slug: str
    name: str
    campaigns: int
    variant: str  # Drill's "long" (40 rounds) or "short" (3)
    units: int  # per campaign, split over the two sides
    hidden: int  # of each side's units, known only to that side
    organizer: str  # organizes the club and plays red in every campaign
    half_days: int  # of the club's A!P! CG III campaign


PRINT_CLUB = "bench-print"
PLAY_CLUB, PLAY_USER = "bench-play", "bench-play"
PRINT_SIZES = (13, 100, 500, 2000)
LARGE = ClubSize("bench-large", "Benchmark club (large)", 50, "long", 400, 80, USER, 13)
SMALL = ClubSize("bench-small", "Benchmark club (small)", 2, "short", 10, 2, "bench-s", 1)


def played(size: ClubSize, i: int, rounds: int) -> int:
    """How many rounds campaign i has played: varied, with the first one nearly done."""
    if i == 0:
        return rounds - 1
    return (i * 13) % (rounds + 1)


def generate(sizes=(SMALL, LARGE), log=print) -> dict:
    from campaigns.models import Club, Membership

    call_command("migrate", verbosity=0, interactive=False)
    members = _users([f"bench-p{n:02d}" for n in range(MEMBERS)])
    Club.objects.filter(slug__in=[*(s.slug for s in sizes), PRINT_CLUB, PLAY_CLUB]).delete()
    out = {"user": USER}
    for size in sizes:
        started = time.perf_counter()
        users = [*_users([size.organizer]), *members]
        club = Club.objects.create(name=size.name, slug=size.slug)
        Membership.objects.create(club=club, user=users[0], role=Membership.ORGANIZER)
        Membership.objects.bulk_create([Membership(club=club, user=u) for u in users[1:]])
        ids = [_campaign(club, size, i, users) for i in range(size.campaigns)]
        log(f"  {size.slug}: {size.campaigns} campaigns in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        cg3 = _ap_campaign(club, size, users, log)
        ids.append(cg3)
        log(
            f"  {size.slug}: A!P! CG III, {size.half_days} half-days, in {time.perf_counter() - started:.0f} s"
        )
        out[size.slug] = {
            "club": size.slug,
            "user": size.organizer,
            "campaigns": ids,
            "heavy": ids[0],
            "cg3": cg3,
        }
    _print_club(_users([USER])[0], members[0])
    started = time.perf_counter()
    out[PLAY_CLUB] = _in_play(members)
    log(
        f"  {PLAY_CLUB}: pages in play (CG III mid-Refit, Rifles, ledger) in "
        f"{time.perf_counter() - started:.0f} s"
    )
    return out


def _print_club(organizer, blue):
    from campaigns.models import Club, Membership
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    club = Club.objects.create(name="Benchmark club (printing)", slug=PRINT_CLUB)
    Membership.objects.create(club=club, user=organizer, role=Membership.ORGANIZER)
    Membership.objects.create(club=club, user=blue)
    for rows in PRINT_SIZES:
        campaign = svc.create_campaign(
            club=club, user=organizer, system="drill", variant="short", name=f"Roster {rows}"
        )
        svc.assign_player(campaign, organizer, side="red", username=organizer.username)
        svc.assign_player(campaign, organizer, side="blue", username=blue.username)
        submit(campaign, organizer, "campaign.started")
        for start in range(0, rows, 1000):
            count = min(1000, rows - start)
            submit(campaign, organizer, "drill.enlist", {"count": count, "hidden": count // 5})
        submit(campaign, blue, "drill.enlist", {"count": 1})


def _users(names):
    User = get_user_model()
    existing = {u.username: u for u in User.objects.filter(username__in=names)}
    users = []
    for name in names:
        user = existing.get(name)
        if user is None:
            user = User(username=name, email=f"{name}@example.org")
            user.set_password("bench-pass")
            user.save()
        users.append(user)
    return users


def _campaign(club, size: ClubSize, i: int, users) -> int:
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit
    from campaigns.systems import get_system

    organizer, members = users[0], users[1:]
    blue, referee = members[i % len(members)], members[(i + len(members) // 2) % len(members)]
    campaign = svc.create_campaign(
        club=club,
        user=organizer,
        system="drill",
        variant=size.variant,
        name=f"Operation {i + 1:02d}",
    )
    svc.assign_player(campaign, organizer, side="red", username=organizer.username)
    svc.assign_player(campaign, organizer, side="blue", username=blue.username)
    svc.assign_referee(campaign, organizer, username=referee.username)
    submit(campaign, organizer, "campaign.started")
    per_side = size.units // 2
    submit(campaign, organizer, "drill.enlist", {"count": per_side, "hidden": size.hidden})
    submit(campaign, blue, "drill.enlist", {"count": per_side, "hidden": size.hidden})
    rounds = len(get_system("drill").variant(size.variant).calendar)
    for index in range(played(size, i, rounds)):
        result = {"red": (index * 7 + i) % 5, "blue": (index * 3 + i) % 5, "losses": index % 4}
        if index % 2 == 0:  # the referee enters it: confirmed at once
            submit(campaign, referee, "result.submitted", {"scenario": index, "data": result})
        else:  # one side enters it, the other confirms
            submit(campaign, organizer, "result.submitted", {"scenario": index, "data": result})
            submit(campaign, blue, "result.confirmed", {"scenario": index})
    return campaign.pk


def _ap_campaign(club, size: ClubSize, users, log) -> int:
    """The club's A!P! CG III: its organizer plays the Allies, two members the Germans and referee."""
    from .apcg import play

    organizer, members = users[0], users[1:]
    game = play(
        club,
        organizer,
        {"allied": organizer, "german": members[1]},
        members[2],
        half_days=size.half_days,
        log=log if size.half_days > 1 else None,
    )
    return game.campaign.pk


def _in_play(members) -> dict:
    """The club of the pages measured in play (benchmarks.run's load targets), each campaign with
    who reads it. Its organizer, "bench-play", plays the Allies, the Rifles squad and the ledger's
    Germans; members take the other seats:

      cg3_refit  A!P! CG III stopped mid-Refit Phase in its 12th half-day (both sides' Refit forms
                 on the page), read from each seat: the Allies (the organizer), the Germans and
                 the referee, each signed in as themselves;
      rifles     Rifles in the Ardennes after two missions, the organizer's squad (its demo);
      ledger     Ardennes '44 with three turns recorded and its chart (its demo), the organizer
                 playing the Germans.

    The Rifles and ledger campaigns are played by the games' own demo builders at a table of this
    club's people (campaigns.services.demo.DemoTable: through the services). A club of its own, so
    that the other targets (the large club's list, "bench"'s dashboard) read what they read before.
    """
    from campaigns.models import Club, Membership
    from campaigns.services.demo import DemoTable
    from campaigns.systems import get_system

    from .apcg import play

    organizer = _users([PLAY_USER])[0]
    german, referee, other, umpire = members[:4]
    club = Club.objects.create(name="Benchmark club (pages in play)", slug=PLAY_CLUB)
    Membership.objects.create(club=club, user=organizer, role=Membership.ORGANIZER)
    Membership.objects.bulk_create([Membership(club=club, user=u) for u in members[:4]])
    game = play(
        club,
        organizer,
        {"allied": organizer, "german": german},
        referee,
        half_days=12,
        stop_at=(12, "refit"),
        name="Armor on the Somme (mid-Refit)",
    )
    people = {"organizer": organizer, "alice": organizer, "bob": other, "referee": umpire}
    made = {}
    for key, slug in (("rifles", "rifles_ardennes"), ("ledger", "ardennes44")):
        system = get_system(slug)
        made[key] = system.demo(DemoTable(club, people, system))
    return {
        "club": PLAY_CLUB,
        "cg3_refit": {
            "campaign": game.campaign.pk,
            "seats": {
                "Allied": organizer.username,
                "German": german.username,
                "referee": referee.username,
            },
        },
        "rifles": {"campaign": made["rifles"].pk, "user": organizer.username},
        "ledger": {"campaign": made["ledger"].pk, "user": organizer.username},
    }


def counts() -> dict:
    from campaigns.models import Campaign, Event, Scenario
    from rosters.models import RosterEntry

    out = {}
    for size in (SMALL, LARGE):
        campaigns = Campaign.objects.filter(club__slug=size.slug)
        out[size.slug] = {
            "campaigns": campaigns.count(),
            "scenarios": Scenario.objects.filter(campaign__in=campaigns).count(),
            "roster_entries": RosterEntry.objects.filter(campaign__in=campaigns).count(),
            "events": Event.objects.filter(campaign__in=campaigns).count(),
        }
    return out


if __name__ == "__main__":
    generate(log=lambda m: print(m, file=sys.stderr))
    print(counts())
