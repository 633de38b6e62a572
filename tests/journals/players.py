"""The corpus's shared player (README.md): each game's corpus player (<game folder>/tests/corpus.py)
plays its campaigns with what this module hands it (the club's people, seeded dice, a test module
wherever the commit being run keeps it); this module exports each journal and what was computed
from it (values.py).

It runs on the working tree (make_corpus.py GAME) and in a temporary worktree of an earlier commit
(make_corpus.py --again, tests/ops/test_upgrade_from_previous_release.py), where this file,
values.py and every game's corpus player are copied into a package `_corpus` (the players under
`_corpus/games/`) and run with that commit's code.

    python -m tests.journals.players OUTDIR NAME [NAME …]   (the working tree)
    python -m _corpus.players OUTDIR NAME [NAME …]          (a worktree; DATABASE_URL a fresh SQLite)
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

settings.PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher"
]  # many people, no need to be slow


def tests_of(game: str, module: str, before: str):
    """A game's test module (a harness, a scenario), wherever the commit being run keeps it: in its
    folder's tests/, or (before the games' tests moved into their folders) in the package `before`
    under tests/ that the game's corpus player names."""
    try:
        return importlib.import_module(f"campaigns.systems.{game}.tests.{module}")
    except ModuleNotFoundError as error:
        if not f"campaigns.systems.{game}.tests.{module}".startswith(error.name or "?"):
            raise  # something the module itself imports is missing
    return importlib.import_module(f"{before}.{module}")


def attrs(module, *names):
    return tuple(getattr(module, name) for name in names)


def people():
    """The club and its people (made once: in --keep mode every campaign is in the same club)."""
    from campaigns.models import Club, Membership
    from tests.factories import MembershipFactory, UserFactory

    club, made = Club.objects.get_or_create(slug="tuesday", defaults={"name": "Tuesday Night ASL"})
    named = {}
    for name, role in [
        ("olga", "organizer"),
        ("alice", "player"),
        ("bob", "player"),
        ("rita", "player"),
        ("carol", "player"),
    ]:
        named[name] = UserFactory(username=name)
        if made:
            MembershipFactory(club=club, user=named[name], role=role)
    assert Membership.objects.filter(club=club).count() == 5
    return club, named


def core_module(today: str, before: str):
    """A core module where the commit being run keeps it: this file runs in earlier commits too,
    where the core's modules lay flat in campaigns/ (campaigns.dice, campaigns.journal_io)."""
    try:
        return importlib.import_module(today)
    except ImportError:
        return importlib.import_module(before)


class SeededDice:
    """The server's dice (campaigns.dice.expressions uses `secrets`), seeded: the same journal at
    every run."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def randbelow(self, n):
        return self.rng.randrange(n)


def seeded(play, seeds=range(1, 9)):
    """Play with the server's dice seeded; a seed whose dice lead the commit's own harness into a
    decision it does not answer is passed over (the next one is tried)."""
    from campaigns.models import Campaign

    dice = core_module("campaigns.dice.expressions", "campaigns.dice")

    def run():
        for seed in seeds:
            dice.secrets = SeededDice(seed)
            before = Campaign.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            try:
                return play()
            except Exception as error:  # noqa: BLE001  (the harness's own refusal: try other dice)
                print(f"  seed {seed}: {type(error).__name__}: {error}"[:300])
                Campaign.objects.filter(pk__gt=before).delete()
        raise RuntimeError("no seed played through")

    return run


def players() -> dict:
    """Every game's players by journal name, from each game's corpus player (values.py)."""
    from .values import corpus_modules

    found: dict = {}
    this = sys.modules[__name__]
    for module in corpus_modules().values():
        for name, play in module.players(this).items():
            assert name not in found, f"two games play a journal named {name!r}"
            found[name] = play
    return found


def main(out: str, names: list[str], keep: bool = False) -> None:
    """Play each named campaign and write its journal and values to `out`. `keep`: every campaign in
    the same club, all kept in the database (a site stored by this commit: tests/ops); otherwise
    each on an empty database."""
    from django.core.management import call_command

    from campaigns.models import Campaign, Club
    from campaigns.services.state import current_state

    from .values import values

    found = players()
    journal_files = core_module("campaigns.services.journal_files", "campaigns.journal_io")

    call_command("migrate", verbosity=0, interactive=False)
    from django.contrib.auth import get_user_model

    for name in names:
        if not keep:
            Campaign.objects.all().delete()
            Club.objects.all().delete()
            get_user_model().objects.all().delete()
        campaign = found[name]()
        campaign.refresh_from_db()
        exported = journal_files.export_journal(campaign)
        state = current_state(campaign)
        write_journal(os.path.join(out, f"{name}.json"), exported)
        with open(os.path.join(out, f"{name}.expected.json"), "w", encoding="utf-8") as handle:
            json.dump(values(state), handle, indent=1, sort_keys=True, ensure_ascii=False)
            handle.write("\n")
        print(
            f"{name}: {len(exported['events'])} events, {state['status']}, scenario {state['current']}"
        )


def write_journal(path: str, document: dict) -> None:
    """The file as exported, one event per line (readable in a diff)."""
    head = {k: v for k, v in document.items() if k != "events"}
    lines = [json.dumps(event, sort_keys=True, ensure_ascii=False) for event in document["events"]]
    text = (
        json.dumps(head, sort_keys=True, ensure_ascii=False)[:-1]
        + ', "events": [\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )
    assert json.loads(text) == document
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


if __name__ == "__main__":
    keep = "--keep" in sys.argv
    arguments = [a for a in sys.argv[1:] if a != "--keep"]
    main(arguments[0], arguments[1:], keep=keep)
