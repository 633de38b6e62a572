"""1.615 fortification removal (steps/fortification_removal.py)."""

from __future__ import annotations

import pytest

from campaigns.systems.achtung_panzer.steps import fortification_removal
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_state,
    mod_values,
    rejects,
    run,
)

(STEP,) = fortification_removal.STEPS


def key(subject, side="german"):
    return f"5/29P/1.615/{side}/{subject}"


@pytest.mark.parametrize(
    "kind,position,drm",
    [
        ("wire", "front_line", 2),
        ("mines", "adjacent", 1),
        ("entrenchment", "other", None),
        ("at_ditch", "front_line", 2),
        ("roadblock", "front_line", 2),
        ("roadblock", "adjacent", 1),
        ("roadblock", "other", None),
    ],
)
def test_position_drm_per_kind(kind, position, drm):
    state = make_state()
    run(
        STEP,
        state,
        "german",
        {
            "items": [
                {
                    "kind": kind,
                    "location": "23X3",
                    "position": position,
                    "both_sides_controlled": True,
                }
            ]
        },
        dice={key(f"23X3/{kind}"): [1]},
    )
    assert mod_values(last_roll(state, "german")) == ([("1.615", drm)] if drm else [])


def test_sappers_and_rows_and_own_record():
    state = make_state(
        german={
            "fortifications": [
                {"id": "f1", "type": "Wire", "location": "40Q2"},
                {"id": "f2", "type": "Trench", "location": "40Q3"},
            ]
        }
    )
    ctx = run(
        STEP,
        state,
        "german",
        {
            "sappers": True,
            "items": [
                {
                    "kind": "wire",
                    "location": "40Q2",
                    "fortification": "f1",
                    "position": "adjacent",
                },  # 3 +1 -1 = 3
                {"kind": "entrenchment", "location": "40Q3", "fortification": "f2"},  # 5 -1 = 4
            ],
        },
        dice={key("40Q2/wire"): [3], key("40Q3/entrenchment"): [5]},
    )
    wire, trench = state["game"]["sides"]["german"]["rolls"]
    assert (
        mod_values(wire) == [("1.615", 1), ("1.615", -1)]
        and wire["final"] == 3
        and wire["row"] == "≤3"
    )
    assert trench["final"] == 4 and trench["row"] == "≥4"
    assert [f["id"] for f in state["game"]["sides"]["german"]["fortifications"]] == ["f2"]
    assert set(ctx.provider.sides.values()) == {"german"}


def test_refusals():
    state = make_state(german={"fortifications": [{"id": "f1"}]})
    rejects(
        STEP,
        state,
        "german",
        {"items": [{"kind": "roadblock", "location": "7D7"}]},
        "items[0].both_sides_controlled",
    )
    rejects(
        STEP,
        state,
        "german",
        {"items": [{"kind": "mines", "location": "7D7"}, {"kind": "mines", "location": "7d7"}]},
        "items[1]",
    )
    rejects(
        STEP,
        state,
        "german",
        {"items": [{"kind": "wire", "location": "7D7", "fortification": "f9"}]},
        "items[0].fortification",
    )
    rejects(
        STEP, state, "german", {"items": [{"kind": "pillbox", "location": "7D7"}]}, "items[0].kind"
    )
    rejects(
        STEP, state, "german", {"items": [{"kind": "wire", "location": " "}]}, "items[0].location"
    )


def test_an_empty_submission_means_nothing_to_remove_and_finishes_the_step():
    from campaigns.systems.achtung_panzer.steps.base import DONE

    state = make_state(german={"fortifications": [{"id": "f1"}]})
    assert STEP.run(None, state, "german", {"items": []}) == DONE
    assert state["game"]["sides"]["german"]["rolls"] == []


def test_one_attempt_per_item_per_location_across_events():
    state = make_state()
    run(
        STEP,
        state,
        "german",
        {"items": [{"kind": "wire", "location": "7D7"}]},
        dice={key("7D7/wire"): [6]},
    )
    rejects(STEP, state, "german", {"items": [{"kind": "wire", "location": "7D7"}]}, "items[0]")
    run(
        STEP,
        state,
        "german",
        {"items": [{"kind": "mines", "location": "7D7"}]},
        dice={key("7D7/mines"): [6]},
    )
