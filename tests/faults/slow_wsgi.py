"""Muster's WSGI application, for the fault tests' gunicorn (no bound on notes per scenario): a
note whose text starts with "slow" is held inside its write transaction (its rows written, not
committed) for MUSTER_TEST_WRITE_DELAY seconds, with a file named by the worker's pid in
MUSTER_TEST_WRITE_MARKS meanwhile, so that a test can kill the gunicorn worker inside the write."""

import os
import time
from pathlib import Path

# isort: off
# First: it sets Django up, before anything below imports a model (sorted, it came last and
# gunicorn's workers died with AppRegistryNotReady).
from muster.wsgi import application  # noqa: F401

# isort: on
from campaigns.journal import holdings
from campaigns.services import journal

# The writer of the fault tests adds hundreds of notes to one scenario: more than a club may.
holdings.MAX_NOTES_PER_SCENARIO_PER_SIDE = 100_000

_save = journal._Writer.save


def _held_save(self):
    _save(self)
    record = self.pending[0][0] if self.pending else None
    if (
        record is None
        or record.kind != "note.added"
        or not str(record.data.get("text", "")).startswith("slow")
    ):
        return
    mark = Path(os.environ["MUSTER_TEST_WRITE_MARKS"]) / str(os.getpid())
    mark.write_text(record.data["text"])
    time.sleep(float(os.environ.get("MUSTER_TEST_WRITE_DELAY", "2")))
    mark.unlink(missing_ok=True)


journal._Writer.save = _held_save
