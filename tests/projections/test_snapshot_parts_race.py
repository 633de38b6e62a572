"""A snapshot stored without the journal's lock (the odds task, a page folding a stale journal)
beside an append that holds it, either one first (PostgreSQL): every writer locks the core row
before the parts, so neither waits on the other for ever, and the stored state is the journal
folded."""

import json
import threading
import time

import pytest
from django.db import connection, connections

from campaigns.journal import engine
from campaigns.models import Campaign
from campaigns.services import snapshots
from campaigns.services.journal import submit
from campaigns.services.snapshots import stored_state
from campaigns.services.state import load_records

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL's"),
]


def _same(a, b):
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _in_thread(fn):
    box = {}

    def run():
        try:
            box["value"] = fn()
        except Exception as error:
            box["error"] = error
        finally:
            connections.close_all()

    t = threading.Thread(target=run)
    t.start()
    return t, box


@pytest.mark.parametrize("who_first", ["append", "reader"])
def test_a_store_without_the_lock_beside_an_append_neither_deadlocks_nor_loses_a_step(
    skirmish, people, monkeypatch, who_first
):
    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    older = engine.fold(load_records(skirmish))  # what a page reader folded at seq N
    paused, go = threading.Event(), threading.Event()
    real_upsert, real_replace = snapshots._upsert_parts_sql, snapshots._replace_parts
    holder = "append" if who_first == "append" else "reader"

    def slow_upsert(*args, **kwargs):
        if holder == "append" and threading.current_thread().name != "MainThread":
            paused.set()
            go.wait(10)
        return real_upsert(*args, **kwargs)

    def slow_replace(campaign, parts):
        if holder == "reader":
            paused.set()
            go.wait(10)
        return real_replace(campaign, parts)

    monkeypatch.setattr(snapshots, "_upsert_parts_sql", slow_upsert)
    if holder == "reader":
        monkeypatch.setattr(snapshots, "_replace_parts", slow_replace)
        reader, rbox = _in_thread(
            lambda: snapshots.store_snapshot(Campaign.objects.get(pk=skirmish.pk), older)
        )
        assert paused.wait(10)
        monkeypatch.setattr(snapshots, "_replace_parts", real_replace)
        appender, abox = _in_thread(
            lambda: submit(Campaign.objects.get(pk=skirmish.pk), people["bob"], "skirmish.supply")
        )
        time.sleep(1)
        go.set()
    else:
        appender, abox = _in_thread(
            lambda: submit(Campaign.objects.get(pk=skirmish.pk), people["bob"], "skirmish.supply")
        )
        assert paused.wait(10)
        reader, rbox = _in_thread(
            lambda: snapshots.store_snapshot(Campaign.objects.get(pk=skirmish.pk), older)
        )
        time.sleep(1)
        go.set()
    started = time.monotonic()
    appender.join(20)
    assert time.monotonic() - started < 15  # PostgreSQL ends a deadlock in a second: none here
    reader.join(20)
    assert "error" not in abox, abox
    assert "error" not in rbox, rbox
    skirmish.refresh_from_db()
    assert _same(stored_state(skirmish), engine.fold(load_records(skirmish)))
