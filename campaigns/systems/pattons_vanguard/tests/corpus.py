"""Patton's Vanguard's corpus player (tests/journals/README.md): the campaigns its corpus journals
play, through the victory ledger's harness and the game's own scenarios. `corpus` is the corpus's
shared player (tests/journals/players.py); the same players run on the working tree (TODAY) and in
a worktree of an earlier commit (make_corpus.py --again)."""

from __future__ import annotations

TODAY = ("pattons-vanguard-mid",)  # a new corpus directory's journals
IN_PLAY = ("pattons-vanguard-mid",)  # stopped mid-procedure (tests/ops: after an upgrade)
EARLIER_TESTS = "tests.victory"  # where the ledger games' tests were before they moved


def _scenarios(corpus, *names):
    module = corpus.tests_of("pattons_vanguard", "test_pattons_vanguard", EARLIER_TESTS)
    return corpus.attrs(module, *names)


def pattons_vanguard(corpus):
    """Scenario 1 up to turn 4 (a correction, the Advantage spent, units eliminated and reduced)."""
    play_to_turn_four, scenario_one = _scenarios(corpus, "play_to_turn_four", "scenario_one")

    club, named = corpus.people()
    game = scenario_one(club, named)
    play_to_turn_four(game)
    return game.campaign


def pattons_vanguard_mid(corpus):
    """Scenario 1 after turn 2, turn 2 corrected by agreement; the campaign goes on."""
    T1, T2, scenario_one = _scenarios(corpus, "T1", "T2", "scenario_one")
    correct = corpus.tests_of("victory_ledger", "harness", EARLIER_TESTS).correct

    club, named = corpus.people()
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


def pattons_vanguard_v2(corpus):
    """Scenario 1 to turn 3 under v2's Advantage rule (PV-12): the holder at the start of the Refit
    Phase spends it, once after a Daylight use moved it; the campaign goes on."""
    T1, T2, T3, scenario_one = _scenarios(corpus, "T1", "T2", "T3", "scenario_one")

    club, named = corpus.people()
    game = scenario_one(club, named)
    game.turn(T1, {"13": "Gs", "9": "Gs", "14": "Gs"}, [("U1", "reduced")], advantage_rp="american")
    game.turn(T2, {}, [("U1", "eliminated")], advantage_refit="american", advantage_rp="american")
    game.turn(T3, {"20": "Gs"}, advantage_rp="german")
    return game.campaign


def players(corpus):
    return {
        "pattons-vanguard": lambda: pattons_vanguard(corpus),
        "pattons-vanguard-mid": lambda: pattons_vanguard_mid(corpus),
        "pattons-vanguard-v2": lambda: pattons_vanguard_v2(corpus),
    }
