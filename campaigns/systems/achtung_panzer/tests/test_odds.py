"""Odds before rolling: exact distributions against brute-force enumeration of the dice, and the
odds of one side never reach the other side (campaigns/services/odds.py, achtung_panzer/odds.py)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from campaigns.dice.table_rolls import upcoming_odds
from campaigns.errors import Forbidden
from campaigns.journal.records import Viewer
from campaigns.systems.achtung_panzer import odds as ap_odds
from campaigns.systems.achtung_panzer.tests.step_harness import make_ctx, make_state
from campaigns.systems.base import UpcomingRoll

# 1.616 typed from the book: DR -> CPP
CPP_ROWS = [
    (None, 2, 15),
    (3, 4, 14),
    (5, 6, 13),
    (7, 8, 12),
    (9, 10, 11),
    (11, 11, 10),
    (12, 12, 9),
    (13, None, 8),
]


def _cpp(final):
    for lo, hi, cpp in CPP_ROWS:
        if (lo is None or final >= lo) and (hi is None or final <= hi):
            return cpp
    raise AssertionError(final)


def _brute(n_dice, mod, read):
    counts = {}
    for faces in product(range(1, 7), repeat=n_dice):
        outcome = str(read(sum(faces) + mod))
        counts[outcome] = counts.get(outcome, 0) + 1
    return {k: Fraction(v, 6**n_dice) for k, v in counts.items()}


def _as_map(entry):
    return {o["outcome"]: Fraction(o["fraction"]) for o in entry["outcomes"]}


@pytest.mark.parametrize(
    "mods",
    [
        (),
        (("Won", "1.616", 1),),
        (("Hist", "1.6161", -2), ("CVP", "1.616", -2)),
        (("Hist", "1.6161", 1), ("Won", "1.616", 1), ("Balance", "1.32", -1)),
        (("x", "1.616", 5),),
        (("x", "1.616", -6),),
    ],
)
def test_cpp_odds_equal_brute_force(mods):
    state = make_state()
    roll = UpcomingRoll("k", "CPP", "1.616", mods, "cpp")
    entry = upcoming_odds(make_ctx(state), roll)
    expected = _brute(2, sum(m[2] for m in mods), _cpp)
    assert _as_map(entry) == expected
    assert sum(expected.values()) == 1
    assert entry["total_modifier"] == sum(m[2] for m in mods)


@pytest.mark.parametrize("drm", [-3, -1, 0, 2, 4])
def test_elr_loss_and_gain_chance(drm):
    state = make_state()
    entry = upcoming_odds(
        make_ctx(state), UpcomingRoll("k", "ELR", "1.617", (("m", "1.617", drm),), "elr_change")
    )
    expected = _brute(2, drm, lambda f: 1 if f <= 2 else (-1 if f >= 13 else 0))
    assert _as_map(entry) == expected


@pytest.mark.parametrize(
    "table,column,read,drms",
    [
        (
            "1.6142",
            "effect",
            lambda f: "withdrawn" if f == 6 else "retained",
            (-1, 0),
        ),  # only a -1 drm exists
        ("1.6122", "san_change", lambda f: -1 if f >= 5 else 0, (0, 1, 3)),
        (
            "1.610",
            "effect",
            lambda f: {1: "retained_unwounded", 2: "retained_wounded"}.get(f, "eliminated"),
            (0, 1),
        ),
    ],
)
def test_one_die_tables(table, column, read, drms):
    state = make_state()
    for drm in drms:
        entry = upcoming_odds(
            make_ctx(state), UpcomingRoll("k", "t", table, (("m", table, drm),), column)
        )
        assert _as_map(entry) == _brute(1, drm, read)


def test_plain_dice_roll_odds():
    entry = upcoming_odds(
        make_ctx(make_state()), UpcomingRoll("k", "Recon", "dice:1d6", (("Extra", "1.622", 3),))
    )
    assert _as_map(entry) == {str(v): Fraction(1, 6) for v in range(4, 10)}


def test_values_after_the_roll():
    state = make_state(german={"cpp": 4, "elr": 4})
    rolls = [
        UpcomingRoll("a", "CPP", "1.616", (), "cpp"),
        UpcomingRoll("b", "ELR", "1.617", (("m", "1.617", -1),), "elr_change"),
    ]
    cpp, elr = ap_odds.side_odds(state, "german", make_ctx(state), rolls)
    after = {v["value"]: Fraction(v["fraction"]) for v in cpp["after"]["values"]}
    assert after == {4 + int(k): p for k, p in _brute(2, 0, _cpp).items()}
    # ELR 4 cannot rise (maximum 4) and -1 makes ≥13 impossible: it stays 4
    assert [(v["value"], v["fraction"]) for v in elr["after"]["values"]] == [(4, "1")]
    state = make_state(german={"elr": 2})
    rolls = [UpcomingRoll("b", "ELR", "1.617", (("m", "1.617", 3),), "elr_change")]
    (elr,) = ap_odds.side_odds(state, "german", make_ctx(state), rolls)
    # +3: DR ≥10 loses one (6/36); nothing gains
    assert [(v["value"], v["fraction"]) for v in elr["after"]["values"]] == [(1, "1/6"), (2, "5/6")]


# --- the task, the cache and who may read what ------------------------------------------------


@pytest.fixture
def fresh_cache():
    from django.core.cache import cache

    keys = []
    yield keys
    cache.delete_many(keys)


def _lose_a_round(campaign, people):
    """Red loses round 1, so its supply roll now has a -1 that blue must never learn."""
    from campaigns.services.journal import submit

    for user in ("alice", "bob"):
        submit(campaign, people[user], "skirmish.supply")
    submit(campaign, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"})
    submit(campaign, people["bob"], "sealed.submitted", {"key": "stance:0", "choice": "hold"})
    submit(
        campaign,
        people["alice"],
        "result.submitted",
        {"scenario": 0, "data": {"red": 1, "blue": 3}},
    )
    submit(campaign, people["bob"], "result.confirmed", {"scenario": 0})
    campaign.refresh_from_db()


def test_odds_are_computed_per_side_and_read_only_by_that_side(skirmish, people, fresh_cache):
    from campaigns.access.visibility import viewer_for
    from campaigns.services import odds

    _lose_a_round(skirmish, people)
    red = odds.compute(skirmish, "red")
    blue = odds.compute(skirmish, "blue")
    fresh_cache += [odds.cache_key(skirmish.pk, skirmish.last_seq, s) for s in ("red", "blue")]
    assert red["rolls"][0]["modifiers"] == [
        {"label": "Lost the previous round", "rule": "T.2", "value": -1}
    ]
    assert blue["rolls"][0]["modifiers"] == []

    bob = viewer_for(people["bob"], skirmish)
    seen = odds.odds_for(skirmish, bob)
    assert set(seen) == {"blue"} and seen["blue"]["status"] == "ready"
    assert "red" not in repr(seen) and "Lost the previous round" not in repr(seen)
    with pytest.raises(Forbidden):
        odds.odds_for(skirmish, bob, "red")
    alice = viewer_for(people["alice"], skirmish)
    assert set(odds.odds_for(skirmish, alice)) == {"red"}
    carol = viewer_for(people["carol"], skirmish)  # a member playing nothing
    assert odds.odds_for(skirmish, carol) == {}
    rita = viewer_for(people["rita"], skirmish)  # the referee reads both
    assert set(odds.odds_for(skirmish, rita)) == {"red", "blue"}
    assert odds.odds_for(skirmish, Viewer.for_side("blue"))["blue"]["rolls"] == blue["rolls"]


def test_a_change_makes_the_stored_odds_stale_until_recomputed(skirmish, people, fresh_cache):
    from campaigns.services import odds
    from campaigns.services.journal import submit

    odds.compute(skirmish, "blue")
    fresh_cache.append(odds.cache_key(skirmish.pk, skirmish.last_seq, "blue"))
    submit(skirmish, people["bob"], "skirmish.supply")
    skirmish.refresh_from_db()
    assert odds.odds_for(skirmish, Viewer.for_side("blue"))["blue"]["status"] == "pending"


def test_every_change_enqueues_the_task_after_commit(
    skirmish, people, monkeypatch, fresh_cache, settings, django_capture_on_commit_callbacks
):
    from campaigns import tasks
    from campaigns.services import odds
    from campaigns.services.journal import submit

    sent = []
    monkeypatch.setattr(
        tasks.compute_odds,
        "apply_async",
        lambda args, queue: sent.append((*args, queue == settings.CELERY_ODDS_QUEUE)),
    )
    skirmish.refresh_from_db()
    before = dict(skirmish.positions)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submit(skirmish, people["alice"], "skirmish.supply")
    assert sent == [] and callbacks
    for callback in callbacks:
        callback()
    # Red's supply is red's alone: only red's position moved, so only red's odds are sent (on the
    # odds queue); what blue sees did not change, and neither does what the append does for blue.
    skirmish.refresh_from_db()
    assert skirmish.positions["side:blue"] == before["side:blue"]
    assert skirmish.positions["side:red"] != before["side:red"]
    assert sent == [(skirmish.pk, "red", True)]
    # Blue's odds, never computed here, are the sweep's (or a read's) to ask for.
    with django_capture_on_commit_callbacks(execute=True):
        odds.sweep()
    assert sorted(sent) == [(skirmish.pk, "blue", True), (skirmish.pk, "red", True)]
    # the task itself stores what odds_for reads
    skirmish.refresh_from_db()
    tasks.compute_odds(skirmish.pk, "red")
    fresh_cache.append(odds.cache_key(skirmish.pk, skirmish.last_seq, "red"))
    assert odds.odds_for(skirmish, Viewer.for_side("red"))["red"]["status"] == "ready"


def test_an_enqueue_failure_does_not_break_the_change(
    skirmish, people, monkeypatch, django_capture_on_commit_callbacks
):
    from campaigns import tasks
    from campaigns.services.journal import submit

    def broken(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.compute_odds, "apply_async", broken)
    with django_capture_on_commit_callbacks(execute=True):
        result = submit(skirmish, people["alice"], "skirmish.supply")
    assert result.events


def test_the_system_gives_the_task_cpp_and_elr_after_the_roll():
    from campaigns.systems.achtung_panzer.system import SYSTEM

    state = make_state(german={"cpp": 2})
    (entry,) = SYSTEM.side_odds(
        state, "german", make_ctx(state), [UpcomingRoll("k", "CPP", "1.616", (), "cpp")]
    )
    # lowest: DR 12 -> 9 CPP (1/36); highest: DR 2 -> 15 CPP (1/36)
    assert entry["after"]["values"][0] == {"value": 2 + 9, "fraction": "1/36", "percent": 2.78}
    assert entry["after"]["values"][-1] == {"value": 2 + 15, "fraction": "1/36", "percent": 2.78}


@pytest.mark.django_db
def test_odds_of_a_real_cg1_refit_are_the_sides_own(club, people, fresh_cache):
    """Through the real services: at 5/29P's 1.616 the German odds show its CPP roll with its own
    modifiers, the Allied viewer never gets them."""
    from campaigns.access.visibility import viewer_for
    from campaigns.services import odds
    from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War

    war = War(club, people, dice_mode="entered")  # 1.6113 rolls 6s: no leader to choose
    war.by("allied", "ap.declare", {"special": "none"})
    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    war.result(
        {
            "german_objectives_start": "23BB5 23X3",
            "allied_objectives_end": "23BB5 23X3",
            "allied_cvp": 3,
            "german_cvp": 31,
        }
    )
    war.walk_both(until="1.615", answers={"allied": QUIET, "german": QUIET})
    campaign = war.campaign
    computed = {side: odds.compute(campaign, side) for side in ("allied", "german")}
    fresh_cache += [odds.cache_key(campaign.pk, campaign.last_seq, s) for s in ("allied", "german")]
    german = {r["table"]: r for r in computed["german"]["rolls"]}
    cpp = german["1.616"]
    assert cpp["key"] == "5/29P/1.616/german"
    # The Allied assault gained 2 objectives (< 5): the Germans won 5/29A (+1); 5/29P German
    # historical 0; 31 CVP sustained: -1
    assert [(m["rule"], m["value"]) for m in cpp["modifiers"]] == [
        ("1.616", 1),
        ("1.6161", 0),
        ("1.616", -1),
    ]
    assert sum(Fraction(o["fraction"]) for o in cpp["outcomes"]) == 1 and "after" in cpp
    assert "1.617" in german
    allied_view = odds.odds_for(campaign, viewer_for(people["alice"], campaign))
    assert set(allied_view) == {"allied"}
    assert "5/29P/1.616/german" not in repr(allied_view)
