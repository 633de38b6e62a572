"""A stored snapshot in parts: each side's private part of the game in a row of its own, written
only when it changed; the whole state read back is the journal folded."""

import json
from io import StringIO

import orjson
import pytest
from django.core.management import call_command
from django.db import connection

from campaigns.journal import engine
from campaigns.journal.state_digest import part_digest
from campaigns.models import Snapshot, SnapshotPart
from campaigns.services.journal import submit
from campaigns.services.snapshots import (
    Kept,
    cut_parts,
    encoded_parts,
    joined,
    split,
    stored_state,
    unshare,
)
from campaigns.services.state import current_state, load_records


def _same_json(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize(
    "state",
    [
        {"seq": 3, "game": {"public": {"n": 1}, "sides": {"red": {"a": [1]}, "blue": {"b": 2}}}},
        {"seq": 1, "game": {"public": {}, "sides": {}}},
        {"seq": 1, "game": None},
        {"seq": 1, "game": {"public": {}}},
    ],
)
def test_a_state_split_and_joined_again_is_the_same_state_in_the_same_order(state):
    original = json.loads(json.dumps(state))
    core, parts = split(state)
    assert state == original  # split copies what it empties
    assert [side for side, _ in parts] == list((state.get("game") or {}).get("sides", {}))
    back = joined(json.loads(json.dumps(core)), parts)
    assert back == original
    assert list((back.get("game") or {}).get("sides", {})) == [side for side, _ in parts]


def test_the_snapshot_row_holds_no_sides_part_and_each_side_has_its_own_row(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    core = Snapshot.objects.get(campaign=skirmish).state
    assert core["game"]["sides"] == {}
    parts = dict(SnapshotPart.objects.filter(campaign=skirmish).values_list("side", "value"))
    assert set(parts) == set(current_state(skirmish)["game"]["sides"])
    for part in SnapshotPart.objects.filter(campaign=skirmish):
        assert part.digest == part_digest(json.loads(part.value))
    assert _same_json(stored_state(skirmish), engine.fold(load_records(skirmish)))


def _row_versions(campaign) -> dict[str, str]:
    """Each part row's version: on PostgreSQL its physical one (ctid: an UPDATE of the row gives
    it a new one), on SQLite its row (a row deleted and written again gets a new id) and value."""
    version = "ctid::text" if connection.vendor == "postgresql" else "id || ':' || value"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT side, {version} FROM campaigns_snapshotpart WHERE campaign_id = %s",
            [campaign.pk],
        )
        return dict(cursor.fetchall())


def test_a_sides_step_rewrites_its_own_part_and_leaves_the_other_sides_row_alone(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    state = current_state(skirmish)
    mine = "red"  # alice plays red
    other = next(side for side in state["game"]["sides"] if side != mine)
    before = _row_versions(skirmish)
    submit(skirmish, people["alice"], "skirmish.buy", {"count": 1})
    skirmish.refresh_from_db()
    after = _row_versions(skirmish)
    assert after[other] == before[other]
    assert after[mine] != before[mine]
    digests = dict(SnapshotPart.objects.filter(campaign=skirmish).values_list("side", "digest"))
    assert digests[mine] == part_digest(current_state(skirmish)["game"]["sides"][mine])
    assert _same_json(stored_state(skirmish), engine.fold(load_records(skirmish)))


def test_a_snapshot_stored_whole_is_read_whole_and_the_next_append_stores_it_in_parts(
    skirmish, people
):
    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    whole = current_state(skirmish)
    # As every snapshot was stored before they were stored in parts.
    Snapshot.objects.filter(campaign=skirmish).update(state=whole)
    SnapshotPart.objects.filter(campaign=skirmish).delete()
    assert _same_json(current_state(skirmish), whole)
    submit(skirmish, people["bob"], "skirmish.supply")
    skirmish.refresh_from_db()
    assert Snapshot.objects.get(campaign=skirmish).state["game"]["sides"] == {}
    assert SnapshotPart.objects.filter(campaign=skirmish).count() == len(whole["game"]["sides"])
    assert _same_json(stored_state(skirmish), engine.fold(load_records(skirmish)))


def test_a_parts_digest_tells_1_from_1_0_and_true_and_a_set_is_refused():
    assert part_digest({"a": 1, "b": [1, 2]}) == part_digest({"a": 1, "b": [1, 2]})
    assert part_digest({"a": 1}) != part_digest({"a": True})
    assert part_digest({"a": 1}) != part_digest({"a": 1.0})
    with pytest.raises(TypeError):
        part_digest({"a": {1, 2}})


def test_a_snapshot_written_whole_over_older_parts_reads_back_as_it_was_written(skirmish, people):
    """A writer that knows no parts (the release before, after a rollback without restoring the
    dump, or a shell's Snapshot.objects.update) stores the whole state in Snapshot.state; the parts
    rows left from an earlier seq must not be joined over its sides."""
    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    old_parts = list(SnapshotPart.objects.filter(campaign=skirmish).values())
    submit(skirmish, people["bob"], "skirmish.supply")  # blue's part changes
    skirmish.refresh_from_db()
    whole = engine.fold(load_records(skirmish))
    Snapshot.objects.filter(campaign=skirmish).update(seq=whole["seq"], state=whole)
    SnapshotPart.objects.filter(campaign=skirmish).delete()
    SnapshotPart.objects.bulk_create(SnapshotPart(**row) for row in old_parts)
    assert _same_json(stored_state(skirmish), whole)
    assert _same_json(current_state(skirmish), whole)
    submit(skirmish, people["alice"], "skirmish.buy", {"count": 1})  # stored in parts again
    skirmish.refresh_from_db()
    assert Snapshot.objects.get(campaign=skirmish).state["game"]["sides"] == {}
    assert _same_json(stored_state(skirmish), engine.fold(load_records(skirmish)))


@pytest.mark.django_db(transaction=True)
def test_the_migration_splits_and_joins_stored_snapshots(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["bob"], "skirmish.supply")
    skirmish.refresh_from_db()
    folded = engine.fold(load_records(skirmish))
    call_command("migrate", "campaigns", "0014", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM campaigns_snapshot WHERE campaign_id = %s", [skirmish.pk])
        (state,) = cursor.fetchone()
    state = json.loads(state) if isinstance(state, str) else state
    assert _same_json(state, folded)
    call_command("migrate", "campaigns", verbosity=0)
    assert Snapshot.objects.get(campaign=skirmish).state["game"]["sides"] == {}
    assert _same_json(stored_state(skirmish), folded)


def test_a_sides_part_read_back_keeps_the_order_the_fold_gave_its_keys(db):
    """A!P!'s ELR is said in the side's order (elr.words): the Allies' French before the British."""
    from campaigns.models import Campaign
    from campaigns.systems.achtung_panzer import elr

    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    campaign = Campaign.objects.get(system="achtung_panzer")
    folded = engine.fold(load_records(campaign))["game"]["sides"]["allied"]
    stored = current_state(campaign)["game"]["sides"]["allied"]
    assert elr.words(stored["elr"]) == elr.words(folded["elr"]) == "French 3, British 4"
    assert json.dumps(stored) == json.dumps(folded)  # every key in the fold's order


def _kept_with_parts() -> Kept:
    """A snapshot as both databases send it: the parts run together, cut by their lengths."""
    core = {"seq": 4, "game": {"public": {"n": 1}, "sides": {}}}
    parts = [["red", {"units": [{"id": 1, "xp": 2}]}], ["blue", {"units": [{"id": 7, "xp": 0}]}]]
    digests = {side: part_digest(part) for side, part in parts}
    red, blue = (json.dumps(part).encode() for _, part in parts)
    return Kept(4, json.dumps(core).encode(), cut_parts(red + blue, _lengths(red, blue)), digests)


def test_a_fold_that_changes_a_sides_part_in_place_leaves_before_as_it_was_read():
    kept = _kept_with_parts()
    before, working = kept.state_twice()
    assert before["game"]["sides"]["blue"] is working["game"]["sides"]["blue"]  # parsed once
    working["game"]["sides"]["red"]["units"][0]["xp"] = 3  # the fold, in place
    working["seq"] = 5
    parts = encoded_parts(working)
    unshare(before, working, kept.digests, parts, kept.parts_as_read)
    assert before == kept.state()  # the state the fold began with, whole
    assert working["game"]["sides"]["red"]["units"][0]["xp"] == 3
    assert before["game"]["sides"]["red"] is not working["game"]["sides"]["red"]
    assert before["game"]["sides"]["blue"] is working["game"]["sides"]["blue"]  # left alone
    assert [p.digest for p in parts] == [
        part_digest({"units": [{"id": 1, "xp": 3}]}),
        kept.digests["blue"],
    ]


def test_a_fold_that_leaves_every_part_alone_or_replaces_one_reads_no_part_again():
    kept = _kept_with_parts()
    before, working = kept.state_twice()
    working["game"]["sides"]["blue"] = {"units": []}  # replaced, not changed in place
    working["notes"] = ["Regroup."]

    def read_again(sides):
        raise AssertionError("no part the fold changed in place: nothing to read again")

    unshare(before, working, kept.digests, encoded_parts(working), read_again)
    assert before == kept.state()


def test_a_shared_part_stored_without_a_digest_is_read_again_to_be_sure():
    kept = _kept_with_parts()
    before, working = kept.state_twice()
    working["game"]["sides"]["red"]["units"].append({"id": 2, "xp": 0})
    unshare(
        before, working, {"blue": kept.digests["blue"]}, encoded_parts(working), kept.parts_as_read
    )
    assert before == kept.state()


def test_a_part_given_back_is_parsed_alone_from_the_parts_as_postgresql_sends_them():
    red, blue = b'{"units":[{"id":1,"xp":2}]}', b'{"units":[{"id":7,"xp":0}]}'
    kept = Kept(
        4,
        b'{"seq":4,"game":{"public":{},"sides":{}}}',
        cut_parts(red + blue, _lengths(red, blue)),
        {},
    )
    assert kept.state()["game"]["sides"] == {"red": orjson.loads(red), "blue": orjson.loads(blue)}
    broken = Kept(4, kept.core, cut_parts(red + b"{not json", _lengths(red, b"{not json")), {})
    assert broken.parts_as_read(["red"]) == {"red": orjson.loads(red)}  # blue's text not parsed


def _lengths(red: bytes, blue: bytes) -> bytes:
    return orjson.dumps([["red", len(red)], ["blue", len(blue)]])


def test_parts_past_ascii_are_read_as_the_bytes_stored_and_cut_at_their_length_in_bytes(
    skirmish, people
):
    """Both databases send the parts run together, unparsed, as UTF-8 bytes: each is cut at its
    length in bytes (a "≥" is three), and parsed only by the reader."""
    from campaigns.services import snapshots

    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    state = current_state(skirmish)
    for side, part in state["game"]["sides"].items():
        part["note"] = f"≥ 2 Kübelwagen for {side} — «ready»"
    snapshots.store_snapshot(skirmish, state)
    kept = snapshots.stored([skirmish.pk])[skirmish.pk]
    assert isinstance(kept.core, bytes)
    assert all(isinstance(text, memoryview) for _, text in kept.parts)
    assert kept.state() == state
    assert list(kept.state()["game"]["sides"]) == list(state["game"]["sides"])
