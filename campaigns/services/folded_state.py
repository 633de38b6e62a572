"""The state an append just stored, held for the tasks that run inline after its commit.

Where no broker runs (the embedded set-up: Celery's tasks run eagerly, in the request, once the
append commits) the notices task and each moved side's odds task read the campaign's state, and
each read the snapshot the append had just written, and parsed it whole (on a long A!P! campaign
a few hundred kilobytes, three times per append: most of what an append's cost grew by). The
journal's writer holds what it wrote for them instead, as the JSON it wrote (``hold``, before the
tasks are sent; ``release``, after them), and they read it through ``current_state``: when the
campaign is still at the seq it was written for, that JSON parsed once, at the first read, as a
fresh read parses the stored snapshot, and shared by the tasks of that append (they read it; an
empty default one adds is one the next would add itself); otherwise a fresh read.

Parsed, not the writer's state itself: that one is the append's answer, and a game's reading
hooks may add what they look up and find missing (A!P!'s refit marks: an empty dict), which must
not show in the answer. Held in this thread only, and only from the append's commit until its
tasks have run (a rolled-back append holds nothing); where tasks go to a worker nothing is held.
The work saved is the same whatever either side did, in secret or not."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import orjson
from celery import current_app
from django.db import transaction

from campaigns.journal.state_digest import encoded
from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign
from . import state as state_reads
from .snapshots import EncodedPart, joined, split

_held = threading.local()  # .folded: a _Held, or None


class _Held:
    """What the writer stored for one campaign at one seq (its core and its side parts as JSON),
    and the state the tasks read (once parsed)."""

    def __init__(
        self, campaign_id: int, seq: int, core: bytes, parts: Sequence[EncodedPart]
    ) -> None:
        self.campaign_id, self.seq, self.core, self.parts = campaign_id, seq, core, parts
        self.state: CampaignState | None = None

    def for_tasks(self) -> CampaignState:
        if self.state is None:
            parts = [(part.side, orjson.loads(part.data)) for part in self.parts]
            self.state = joined(orjson.loads(self.core), parts)
        return self.state


def _tasks_run_inline() -> bool:
    return bool(current_app.conf.task_always_eager)  # the site's app (muster.celery)


def hold(campaign: Campaign, state: CampaignState, parts: Sequence[EncodedPart]) -> None:
    """Once the current transaction commits, and before the tasks sent after this call run, the
    snapshot just stored (`state`'s core, encoded here, and its side parts as written: `parts`)
    is what they read; only where tasks run inline (nothing is held for a worker's)."""
    if not _tasks_run_inline():
        return
    folded = _Held(campaign.pk, state["seq"], encoded(split(state)[0]), parts)
    transaction.on_commit(lambda: setattr(_held, "folded", folded))


def release() -> None:
    """Once the current transaction commits, after the tasks sent before this call: nothing held."""
    if _tasks_run_inline():
        transaction.on_commit(lambda: setattr(_held, "folded", None), robust=True)


def current_state(campaign: Campaign) -> CampaignState:
    """``services.state.current_state``, or the state held for this campaign when it is still at
    the seq it was stored for and its journal needs no upgrade (`campaign` as just read)."""
    folded: _Held | None = getattr(_held, "folded", None)
    if (
        folded is not None
        and (folded.campaign_id, folded.seq) == (campaign.pk, campaign.last_seq)
        and not state_reads.stale_versions(campaign)
    ):
        return folded.for_tasks()
    return state_reads.current_state(campaign)
