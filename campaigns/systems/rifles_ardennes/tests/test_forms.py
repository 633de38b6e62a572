"""The page forms a player fills in (GameSystem.form_fields), drawn by the core's renderer: no
JSON anywhere, choices in words from the campaign's own data, one row per soldier, and what a
filled form sends is an event the services accept."""

from __future__ import annotations

from campaigns.access import visibility
from campaigns.journal.records import Viewer
from campaigns.schema.forms import SchemaForm
from campaigns.systems import get_system

from .harness import Squad

SYSTEM = get_system("rifles_ardennes")


def _all(fields):
    for f in fields:
        yield f
        if f.item is not None:
            yield from _all([f.item])
        yield from _all(f.fields)


def view_of(squad):
    return visibility.view_state(squad.state, Viewer.for_side("squad", "alice"))


def test_no_kind_of_the_system_declares_json():
    for kind in SYSTEM.event_kinds:
        assert all(f.type != "json" for f in _all(kind.fields)), kind.name
    assert all(f.type != "json" for f in _all(SYSTEM.result_fields))


def test_the_squad_form_offers_the_book_squad_and_the_catalog_in_words(club, people):
    s = Squad(club, people)
    soldiers, equipment = SYSTEM.form_fields(view_of(s), "squad", "rifles.squad", {})
    assert [
        (r["letter"], r["unit"], r["designation"], r["equipment_1"]) for r in soldiers.rows
    ] == [
        ("A", "smg", "Leader", "Grenade"),
        ("B", "rifle", "Assistant Leader", "Grenade"),
        ("J", "lmg", "Gunner", ""),
        ("D", "rifle", "Rifleman", "Grenade"),
        ("G", "rifle", "Rifleman", "Grenade"),
        ("H", "rifle", "Rifleman", "Grenade"),
        ("I", "rifle", "Rifleman", ""),
    ]  # 2.2's example squad
    unit = next(f for f in soldiers.item.fields if f.name == "unit")
    assert unit.labels == (
        ("smg", "SMG, 1 AP, may lead"),
        ("rifle", "Rifle, 1 AP"),
        ("lmg", "LMG, 3 AP"),
    )
    assert equipment.key == "item" and equipment.rows == ({"item": "grenades", "quantity": 1},)
    assert equipment.item.fields[0].labels == (("grenades", "5x Grenades, 1 AP (5 × Grenade)"),)
    # The renderer's form, filled as a person would (untouched rows as pre-filled), gives a valid squad.
    form = SchemaForm((soldiers, equipment), _post_of(soldiers, equipment))
    assert form.is_valid(), form.errors
    data = form.event_data()
    s.by("rifles.squad", data)
    assert [x["letter"] for x in s.game["squad"]["soldiers"]] == list("ABJDGHI")


def _post_of(soldiers, equipment) -> dict:
    post = {}
    for i, row in enumerate(soldiers.rows):
        for name, value in row.items():
            post[f"soldiers-{i}-{name}"] = value
    post["soldiers-0-name"] = "Sgt. Braun"
    for i, row in enumerate(equipment.rows):
        post[f"equipment-{i}-item"] = row["item"]
        post[f"equipment-{i}-quantity"] = str(row["quantity"])
    return post


def test_the_mission_log_is_two_taps_per_casualty(club, people):
    s = Squad(club, people)
    s.create()
    s.plan(0, "Mission 01", 10)
    scenario, data = SYSTEM.form_fields(view_of(s), "squad", "result.submitted", {"scenario": 0})
    assert scenario.name == "scenario" and data.name == "data" and data.type == "object"
    fields = {f.name: f for f in data.fields}
    assert fields["outcome"].widget == "radios" and fields["turns_used"].max == 10
    assert fields["eliminated"].item.labels[3] == (s.sid("D"), "Pvt. Weber (D), Rifle")
    form = SchemaForm(
        (scenario, data),
        {
            "scenario": "0",
            "data.outcome": "lost",
            "data.turns_used": "10",
            "data.eliminated": [s.sid("D"), s.sid("G")],
        },
        fixed={"scenario": 0},
    )
    assert form.is_valid(), form.errors
    s.by("result.submitted", form.event_data())
    assert s.game["missions"][0]["log"]["eliminated"] == [s.sid("D"), s.sid("G")]


def test_spending_xp_shows_one_row_per_soldier_and_the_leader_only_skill_in_words(club, people):
    s = Squad(club, people)
    s.create()
    s.plan(0, "Mission 01", 10)
    s.log("accomplished", 5)
    s.by("rifles.xp", dice={"mission1/8.4/xp": [4]})
    (rows,) = SYSTEM.form_fields(view_of(s), "squad", "rifles.spend_xp", {})
    assert rows.key == "soldier" and len(rows.rows) == 7
    soldier, veteran, skill = rows.item.fields
    assert soldier.labels[0] == (s.sid("A"), "Sgt. Braun (A), SMG")
    assert (
        "battlefield_control",
        "Battlefield control (Leader only: Sgt. Braun (A))",
    ) in skill.labels
    assert skill.disabled == ()  # the Leader may take it
    (leader,) = SYSTEM.form_fields(view_of(s), "squad", "rifles.leader", {})
    assert leader.widget == "radios" and leader.labels[0] == (s.sid("B"), "Cpl. Vogel (B), Rifle")


def test_an_army_whose_sheet_the_text_lost_is_led_to_enter_its_units_first(club, people):
    us = Squad(club, people, options={"army": "us", "enemy": "german", "ap_budget": 8}, name="Easy")
    todos = SYSTEM.actions(us.state, "squad")
    bar, new, squad = todos[0], todos[1], todos[2]
    # The catalog comes first, as to-dos (not tucked away), saying why: the text kept only the BAR,
    # whose entry is pre-filled with what the text gives (its AP is all that is left to type).
    assert (bar.kind, bar.label, bar.optional) == (
        "rifles.catalog",
        "Give the BAR its AP from your Army Sheet",
        False,
    )
    assert "The Unit list is empty: no unit of the United States of America has its AP" in bar.help
    assert "keeps only the BAR, without its AP" in bar.help
    assert bar.initial["item"] == "bar" and (bar.initial["cf"], bar.initial["attributes"]) == (
        1,
        "AREA(2)",
    )
    assert (new.kind, new.label, new.optional, new.initial) == (
        "rifles.catalog",
        "First enter your Army Sheet's units",
        False,
        {"kind": "unit"},
    )
    assert (
        squad.kind == "rifles.squad" and "First enter your Army Sheet's units (above)" in squad.help
    )
    assert not any(
        t.kind == "rifles.catalog" and t.optional for t in todos
    )  # no third catalog form
    assert [(s.id, s.status) for s in SYSTEM.procedure(us.state, frozenset())] == [
        ("catalog", "current"),
        ("squad", "waiting"),
    ]
    # No equipment with its AP: no equipment rows to send (a blank one was refused, unseen), said instead.
    (soldiers,) = SYSTEM.form_fields(view_of(us), "squad", "rifles.squad", {})
    unit = next(f for f in soldiers.item.fields if f.name == "unit")
    assert (
        unit.choices == ()
        and "Empty until your Army Sheet's units are in this campaign's catalog" in unit.help
    )
    assert "No equipment in this campaign's catalog has its AP yet" in soldiers.help
    # A unit with its AP but none that may lead: still first, and says what is missing.
    us.by(
        "rifles.catalog",
        {"item": "bar", "name": "BAR", "kind": "unit", "ap": 3, "cf": 1, "attributes": "AREA(2)"},
    )
    assert "No unit in the catalog may lead" in SYSTEM.actions(us.state, "squad")[0].help
    assert SYSTEM.actions(us.state, "squad")[0].label == "First enter your Army Sheet's units"
    us.by("rifles.catalog", {"name": "SMG", "kind": "unit", "ap": 1, "may_lead": True})
    todos = SYSTEM.actions(us.state, "squad")
    assert todos[0].kind == "rifles.squad" and "First enter" not in todos[0].help
    assert any(t.kind == "rifles.catalog" and t.optional for t in todos)
    (soldiers,) = SYSTEM.form_fields(view_of(us), "squad", "rifles.squad", {})
    unit = next(f for f in soldiers.item.fields if f.name == "unit")
    assert (
        unit.labels == (("bar", "BAR, 3 AP"), ("c2", "SMG, 1 AP, may lead"))
        and "Empty" not in unit.help
    )
    # The squad form as the page draws it, filled as a person would, is accepted.
    post = {f"soldiers-{i}-{k}": v for i, row in enumerate(soldiers.rows) for k, v in row.items()}
    post.update(
        {"soldiers-0-unit": "c2", "soldiers-0-designation": "Leader", "soldiers-1-unit": "bar"}
    )
    form = SchemaForm((soldiers,), post)
    assert form.is_valid(), form.errors
    us.by("rifles.squad", form.event_data())
    assert [(x["letter"], x["unit"]) for x in us.game["squad"]["soldiers"]] == [
        ("A", "c2"),
        ("B", "bar"),
    ]
