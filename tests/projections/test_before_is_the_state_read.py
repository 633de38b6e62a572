"""An append's `before` (the state it read, which the copy it folds onto shares side parts with)
is, when the projections are written, exactly the state read: no fold reaches it."""

import json

import pytest

from campaigns.journal.state_copy import copy_json
from campaigns.services import journal, projections
from campaigns.systems.achtung_panzer.tests.table_play import correct_and_undo, play_cg

pytestmark = pytest.mark.django_db


def test_before_is_the_state_read_at_every_append_of_a_campaign(club, people, monkeypatch):
    read, compared = [], []
    real_read, real_refresh = journal.state_and_dice, projections.refresh

    def reading(campaign):
        found = real_read(campaign)
        read.append(json.dumps(copy_json(found.state)))
        return found

    def refreshing(campaign, state, **kwargs):
        if kwargs.get("before") is not None:
            assert json.dumps(kwargs["before"]) == read[-1]
            compared.append(1)
        return real_refresh(campaign, state, **kwargs)

    monkeypatch.setattr(journal, "state_and_dice", reading)
    monkeypatch.setattr(journal.projections, "refresh", refreshing)
    table = play_cg(club, people, "cg1", "server", half_days=1)
    correct_and_undo(table)  # a change to the past: the whole journal folded again
    assert len(compared) > 50
