"""Campaigns played at the table by an earlier Muster, for the journal corpus (README.md).

make_corpus.py copies this file and values.py into a temporary worktree of an earlier commit and
runs them there, with that commit's code: each player plays a campaign through that commit's own
services and test harnesses (the ones it shipped: A!P!'s campaign_harness.py and table_play.py,
Rifles' harness.py, the victory ledger's harness.py, in each game's tests/ folder or, before issue
25, under tests/: _tests_of finds them), stopping where a club
could stop (mid-Refit Phase, mid-briefing, after a turn), then exports the journal and what that
commit computed from it.

    python -m _corpus.players OUTDIR NAME [NAME …]      (in the worktree, DATABASE_URL a fresh SQLite)
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


# players.py also runs in earlier commits (make_corpus.py, tests/ops/test_upgrade_from_previous_release.py),
# where a game's tests lived under tests/ (the ledger games' in tests/victory/), not in its folder.
_TESTS_BEFORE_ISSUE_25 = {"achtung_panzer": "achtung_panzer", "rifles_ardennes": "rifles_ardennes"}


def _tests_of(game: str, module: str):
    """A game's test module (a harness, a scenario), wherever the commit being run keeps it."""
    try:
        return importlib.import_module(f"campaigns.systems.{game}.tests.{module}")
    except ModuleNotFoundError as error:
        if not f"campaigns.systems.{game}.tests.{module}".startswith(error.name or "?"):
            raise  # something the module itself imports is missing
    return importlib.import_module(f"tests.{_TESTS_BEFORE_ISSUE_25.get(game, 'victory')}.{module}")


def _attrs(module, *names):
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


# --- Achtung! Panzer! ----------------------------------------------------------------------------------


def _objectives(variant):
    """Objective areas of the CG map (1.2): (allied end, german end) as area keys, split in two."""
    from campaigns.systems import get_system

    table = get_system("achtung_panzer").tables.bound("1.2", {})
    keys = [row.label for row in table.rows if table.value(row, "kind") != "bridge"]
    return keys[: len(keys) // 2], keys[len(keys) // 2 :]


def _ap_v1(variant, half_days, stop, seed):
    """A CG through the harness of the commit (War: every step walked with plain answers, dice entered
    as the harness enters them), each side buying RGs in every Refit Phase, results and initiative
    chosen by a seeded random; stops at `stop` in the last Refit Phase."""
    from campaigns.errors import DomainError

    harness = _tests_of("achtung_panzer", "campaign_harness")

    club, named = people()
    war = harness.War(club, named, variant=variant, dice_mode="entered", name=f"Somme {variant}")
    both = {"allied": harness.QUIET, "german": harness.QUIET}
    allied_end, german_end = _objectives(variant)
    rng = random.Random(seed)

    def buy(side, rgs):
        for rg in rgs:
            try:
                war.by(side, "ap.purchase", {"action": "buy", "rg": rg})
            except DomainError:
                pass

    def refit(until=None):
        war.walk_both(until="1.619", answers=both)
        if until == "1.619":
            return
        buy("allied", ["I1", "I2", "F1"][: rng.randint(1, 2)])
        buy("german", ["I1", "F2", "A4"][: rng.randint(1, 2)])
        war.walk_both(until=until or "1.623", answers=both)
        if until:
            return
        key = f"initiative:{war.public['half_day']}"
        sealed = war.state["sealed"].get(key)
        if sealed and sealed["open"]:
            war.by(
                "allied", "sealed.submitted", {"key": key, "choice": rng.choice(["attack", "idle"])}
            )
            war.by(
                "german", "sealed.submitted", {"key": key, "choice": rng.choice(["attack", "idle"])}
            )
        war.walk_both(answers=both)

    war.by("allied", "ap.declare", {"special": "none"})
    refit()
    for n in range(half_days):
        split = rng.randint(1, len(allied_end))
        war.result(
            {
                "allied_objectives_end": " ".join(allied_end[:split]),
                "german_objectives_end": " ".join(german_end + allied_end[split:]),
                "allied_cvp": rng.randint(0, 40),
                "german_cvp": rng.randint(0, 40),
            },
            *(("allied", "german") if n % 2 == 0 else ("german", "allied")),
        )
        if n == half_days - 1:
            if stop != "result":
                war.walk_both(until=stop, answers=both)
            break
        refit()
    return war.campaign


def ap_v1_cg1():
    """The CG I acceptance journal of the commit (3 half-days, dice entered, stopped after 1.617)."""
    War = _tests_of("achtung_panzer", "campaign_harness").War
    play_cg1 = _tests_of("achtung_panzer", "test_cg1_journal").play_cg1

    club, named = people()
    war = War(club, named, dice_mode="entered", name="Storming the Bridges")
    play_cg1(war)
    return war.campaign


def ap_v1_cg2():
    return _ap_v1("cg2", 2, "1.616", seed=2)


def ap_v1_cg3():
    return _ap_v1("cg3", 1, "1.6112", seed=3)


def _core_module(today: str, before: str):
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

    dice = _core_module("campaigns.dice.expressions", "campaigns.dice")

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


def ap_table(variant, half_days, dice_mode, stop=None, undo=False):
    """A CG through table_play.py of the commit: every step answered as the page offers it
    (purchases, fortifications, the end of the scenario, escape, hardening …), notes, a correction."""
    table_play = _tests_of("achtung_panzer", "table_play")

    club, named = people()
    table = table_play.play_cg(
        club, named, variant=variant, dice_mode=dice_mode, half_days=half_days
    )
    if undo:
        table_play.correct_and_undo(table)
    if stop:
        index = table.state["current"]
        for side in ("allied", "german"):
            table.by(side, "ap.aftermath", table_play.aftermath(table.state, side))
        table.result(
            {
                "allied_objectives_end": "23BB5 23X3",
                "german_objectives_end": "23R4 23H4 hill_520",
                "allied_cvp": 9,
                "german_cvp": 4,
            },
            "german",
            "allied",
        )
        assert table.state["scenarios"][index]["status"] == "played"
        if stop != "result":
            table.both(stop_at=stop)
    return table.campaign


# --- Rifles in the Ardennes -----------------------------------------------------------------------------


def rifles_acceptance():
    """The three-mission acceptance journal of the commit (dice entered; the campaign is over)."""
    Squad = _tests_of("rifles_ardennes", "harness").Squad
    _play = _tests_of("rifles_ardennes", "test_campaign_journal")._play

    club, named = people()
    squad = Squad(club, named, name="Kampfgruppe Braun")
    _play(squad)
    return squad.campaign


def rifles_mid_briefing():
    """Five missions, server dice: the first mission and its briefing, the second logged and its
    experience rolled; stopped before the casualty rolls."""
    Squad = _tests_of("rifles_ardennes", "harness").Squad

    club, named = people()
    dice = _core_module("campaigns.dice.expressions", "campaigns.dice")
    dice.secrets = SeededDice(5)
    squad = Squad(club, named, variant="five", dice_mode="server", name="Easy Company")
    squad.create()
    squad.plan(0, "Into the woods", 10)
    squad.log("accomplished", 7, eliminated="D")
    squad.by("rifles.xp")
    squad.by("rifles.casualties")
    if squad.game["briefing"]["reinforcement"] is None:
        squad.by("rifles.reinforce")
    squad.by("rifles.next_mission")
    squad.plan(1, "The crossroads", 12)
    squad.log("lost", 12, eliminated="AH", new_leader="B")
    squad.by("rifles.xp")
    return squad.campaign


def rifles_leader_v1():
    """Rule 6 as journal v1 read it (RA-9 before d3ae14d): 2.2's squad loses its Leader (SMG, A) in
    a lost Mission 1, the LMG (J) takes command; Braun's casualty roll wounds him (6 − 1 = 5), the
    LMG's temporary command is dropped, and a Rifle (B) is named Leader at once, before
    reinforcements (refused from v2 on), and keeps the role; then 8.2, Mission 2 (nobody eliminated)
    and its experience roll. Dice entered."""
    Squad = _tests_of("rifles_ardennes", "harness").Squad

    club, named = people()
    squad = Squad(club, named, name="Kampfgruppe Vogel")
    squad.create()
    squad.plan(0, "Mission 01", 10)
    squad.plan(1, "Mission 02", 10)
    squad.log("lost", 10, eliminated="A", new_leader="J")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('A')}": [6]})
    squad.by("rifles.leader", {"soldier": squad.sid("B")})
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [4]})
    squad.by("rifles.next_mission")
    squad.log("accomplished", 7)
    squad.by("rifles.xp", dice={"mission2/8.4/xp": [2]})
    return squad.campaign


# --- the victory ledgers --------------------------------------------------------------------------------


def pattons_vanguard():
    """Scenario 1 up to turn 4 (a correction, the Advantage spent, units eliminated and reduced)."""
    play_to_turn_four, scenario_one = _attrs(
        _tests_of("pattons_vanguard", "test_pattons_vanguard"), 'play_to_turn_four', 'scenario_one'
    )

    club, named = people()
    game = scenario_one(club, named)
    play_to_turn_four(game)
    return game.campaign


def pattons_vanguard_mid():
    """Scenario 1 after turn 2, turn 2 corrected by agreement; the campaign goes on."""
    T1, T2, scenario_one = _attrs(
        _tests_of("pattons_vanguard", "test_pattons_vanguard"), 'T1', 'T2', 'scenario_one'
    )
    correct = _tests_of("victory_ledger", "harness").correct

    club, named = people()
    game = scenario_one(club, named)
    game.turn(T1, {"13": "Gs"}, advantage="german")
    game.by("german", "pv.advantage", {"use": "spend"})
    game.turn(T2, {"9": "Gs", "14": "Gs"}, [("U1", "eliminated")], advantage_rp="american")
    correct(
        game,
        game.event_uid("pv.turn"),
        game.turn_data(
            T2,
            {"9": "Gs", "14": "Gs"},
            [("U1", "eliminated"), ("U2", "reduced")],
            advantage_rp="american",
        ),
    )
    return game.campaign


def pattons_vanguard_v2():
    """Scenario 1 to turn 3 under v2's Advantage rule (PV-12): the holder at the start of the Refit
    Phase spends it, once after a Daylight use moved it; the campaign goes on."""
    T1, T2, T3, scenario_one = _attrs(
        _tests_of("pattons_vanguard", "test_pattons_vanguard"), 'T1', 'T2', 'T3', 'scenario_one'
    )

    club, named = people()
    game = scenario_one(club, named)
    game.turn(T1, {"13": "Gs", "9": "Gs", "14": "Gs"}, [("U1", "reduced")], advantage_rp="american")
    game.turn(T2, {}, [("U1", "eliminated")], advantage_refit="american", advantage_rp="american")
    game.turn(T3, {"20": "Gs"}, advantage_rp="german")
    return game.campaign


def ardennes44_v2():
    """Scenario 2 to 17 AM under v2's replacements by unit type (A44-11)."""
    replacement_units = _tests_of("ardennes44", "test_ardennes44").replacement_units
    Game = _tests_of("victory_ledger", "harness").Game

    club, named = people()
    game = Game(club, named, "ardennes44", "s2")
    game.setup(units=replacement_units())
    game.turn(
        "16 AM",
        {},
        [("Inf1", "reduced"), ("Tank4", "reduced"), ("GI", "reduced"), ("Inf2", "eliminated")],
    )
    game.turn("16 PM", {})
    game.turn(
        "Night 16/17",
        {},
        [("Tank4", "restored"), ("Inf2", "rebuilt"), ("GI", "restored")],
        replacements_german=2,
        replacements_allied=1,
    )
    game.turn("17 AM", {})
    return game.campaign


def ardennes44_mid():
    """Scenario 2 after five turns (a night turn with replacements, a unit exited); it goes on."""
    six_turn = _tests_of("ardennes44", "test_ardennes44").six_turn

    club, named = people()
    game = six_turn(club, named)
    game.turn("16 AM", {"Clervaux": "Gs"})
    game.turn("16 PM", {"Wiltz": "Gs"}, [("116", "reduced")])
    game.turn(
        "Night 16/17", {}, [("116", "restored")], replacements_german=1, replacements_allied=2
    )
    game.turn("17 AM", {"St. Vith": "Gs", "Houffalize": "Gs"})
    game.turn("17 PM", {"Vielsalm": "Gs"}, [("2Pz", "exited", "East-west-edge")])
    return game.campaign


def ardennes44():
    """Scenario 2, six turns with a night turn, exits and replacements."""
    play_six_turns, six_turn = _attrs(
        _tests_of("ardennes44", "test_ardennes44"), 'play_six_turns', 'six_turn'
    )

    club, named = people()
    game = six_turn(club, named)
    play_six_turns(game, exit_supplied=True)
    return game.campaign


def fab_bulge():
    """The campaign game: five turns with entered thresholds, eliminations and a contested hex."""
    fab = _tests_of("fab_bulge", "test_fab_bulge").fab

    club, named = people()
    game = fab(club, named)
    game.turn("Turn 1", {"23": "Gs"})
    game.turn("Turn 2", {}, [("US 106 ID", "eliminated")])
    game.turn("Turn 3", {"33": "Gs"}, [("62 VG", "eliminated")])
    game.turn("Turn 4", {"47": "G"})
    return game.campaign


PLAYERS = {
    "ap-v1-cg1": ap_v1_cg1,
    "ap-v1-cg2": ap_v1_cg2,
    "ap-v1-cg3": ap_v1_cg3,
    "ap-cg1-table": seeded(lambda: ap_table("cg1", 1, "server", stop="1.6112")),
    "ap-cg2-table": seeded(lambda: ap_table("cg2", 2, "server", stop="result", undo=True)),
    "ap-cg3-table": seeded(lambda: ap_table("cg3", 1, "server")),
    "rifles-acceptance": rifles_acceptance,
    "rifles-mid-briefing": rifles_mid_briefing,
    "rifles-leader-v1": rifles_leader_v1,
    "pattons-vanguard-v2": pattons_vanguard_v2,
    "ardennes44-v2": ardennes44_v2,
    "pattons-vanguard": pattons_vanguard,
    "ardennes44": ardennes44,
    "fab-bulge": fab_bulge,
    "pattons-vanguard-mid": pattons_vanguard_mid,
    "ardennes44-mid": ardennes44_mid,
}


def main(out: str, names: list[str], keep: bool = False) -> None:
    """Play each named campaign and write its journal and values to `out`. `keep`: every campaign in
    the same club, all kept in the database (a site stored by this commit: tests/ops); otherwise
    each on an empty database."""
    from django.core.management import call_command

    from campaigns.models import Campaign, Club
    from campaigns.services.state import current_state

    from .values import values

    journal_files = _core_module("campaigns.services.journal_files", "campaigns.journal_io")

    call_command("migrate", verbosity=0, interactive=False)
    from django.contrib.auth import get_user_model

    for name in names:
        if not keep:
            Campaign.objects.all().delete()
            Club.objects.all().delete()
            get_user_model().objects.all().delete()
        campaign = PLAYERS[name]()
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
