"""The fault tests' site (tests/faults/harness.py): one per test process, shared by the tests of
this folder (they run in one process: the xdist group "faults"), started once, its parts broken
and restarted by each test."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.workers import need

from .harness import Site, missing


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/faults/" in str(item.fspath):
            item.add_marker(pytest.mark.xdist_group("faults"))


@pytest.fixture(autouse=True)
def _cache_starts_empty():
    """(The suite's cache reset is for the machine's Redis: these tests use none of its services.)"""
    yield


@pytest.fixture(scope="session")
def site():
    need(missing() is None, f"the fault tests {missing()}")
    folder = Path(tempfile.mkdtemp(prefix="muster-faults-"))
    folder.chmod(0o755)  # the cluster's user reaches its folder inside
    try:
        with Site(folder) as running:
            yield running
    finally:
        if not os.environ.get(
            "MUSTER_FAULTS_KEEP"
        ):  # set it to read the processes' logs afterwards
            shutil.rmtree(folder, ignore_errors=True)
