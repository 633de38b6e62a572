"""FAB: The Bulge's corpus player (tests/journals/README.md): the campaign its corpus journals
play, through the victory ledger's harness and the game's own set-up. `corpus` is the corpus's
shared player (tests/journals/players.py); the same player runs on the working tree (TODAY) and in
a worktree of an earlier commit (make_corpus.py --again)."""

from __future__ import annotations

TODAY = ("fab-bulge",)  # a new corpus directory's journals
IN_PLAY = ("fab-bulge",)  # stopped mid-procedure (tests/ops: after an upgrade)
EARLIER_TESTS = "tests.victory"  # where the ledger games' tests were before they moved


def fab_bulge(corpus):
    """The campaign game: five turns with entered thresholds, eliminations and a contested hex."""
    fab = corpus.tests_of("fab_bulge", "test_fab_bulge", EARLIER_TESTS).fab

    club, named = corpus.people()
    game = fab(club, named)
    game.turn("Turn 1", {"23": "Gs"})
    game.turn("Turn 2", {}, [("US 106 ID", "eliminated")])
    game.turn("Turn 3", {"33": "Gs"}, [("62 VG", "eliminated")])
    game.turn("Turn 4", {"47": "G"})
    return game.campaign


def players(corpus):
    return {"fab-bulge": lambda: fab_bulge(corpus)}
