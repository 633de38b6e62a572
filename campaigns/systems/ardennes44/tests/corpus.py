"""Ardennes '44's corpus player (tests/journals/README.md): the campaigns its corpus journals play,
through the victory ledger's harness and the game's own scenarios. `corpus` is the corpus's shared
player (tests/journals/players.py); the same players run on the working tree (TODAY) and in a
worktree of an earlier commit (make_corpus.py --again)."""

from __future__ import annotations

TODAY = ("ardennes44-mid",)  # a new corpus directory's journals
IN_PLAY = ("ardennes44-mid",)  # stopped mid-procedure (tests/ops: after an upgrade)
EARLIER_TESTS = "tests.victory"  # where the ledger games' tests were before they moved


def _scenarios(corpus):
    return corpus.tests_of("ardennes44", "test_ardennes44", EARLIER_TESTS)


def ardennes44_v2(corpus):
    """Scenario 2 to 17 AM under v2's replacements by unit type (A44-11)."""
    replacement_units = _scenarios(corpus).replacement_units
    Game = corpus.tests_of("victory_ledger", "harness", EARLIER_TESTS).Game

    club, named = corpus.people()
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


def ardennes44_mid(corpus):
    """Scenario 2 after five turns (a night turn with replacements, a unit exited); it goes on."""
    six_turn = _scenarios(corpus).six_turn

    club, named = corpus.people()
    game = six_turn(club, named)
    game.turn("16 AM", {"Clervaux": "Gs"})
    game.turn("16 PM", {"Wiltz": "Gs"}, [("116", "reduced")])
    game.turn(
        "Night 16/17", {}, [("116", "restored")], replacements_german=1, replacements_allied=2
    )
    game.turn("17 AM", {"St. Vith": "Gs", "Houffalize": "Gs"})
    game.turn("17 PM", {"Vielsalm": "Gs"}, [("2Pz", "exited", "East-west-edge")])
    return game.campaign


def ardennes44(corpus):
    """Scenario 2, six turns with a night turn, exits and replacements."""
    play_six_turns, six_turn = corpus.attrs(_scenarios(corpus), "play_six_turns", "six_turn")

    club, named = corpus.people()
    game = six_turn(club, named)
    play_six_turns(game, exit_supplied=True)
    return game.campaign


def players(corpus):
    return {
        "ardennes44": lambda: ardennes44(corpus),
        "ardennes44-mid": lambda: ardennes44_mid(corpus),
        "ardennes44-v2": lambda: ardennes44_v2(corpus),
    }
