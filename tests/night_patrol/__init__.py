"""Night Patrol: the fixture game of "one folder per game". It lives in this folder
only (code, panel template, demo, tests) and touches no other file: its tests add it to the
registry (MUSTER_EXTRA_SYSTEMS, tests/conftest.py of this folder), so it never shows on a site.
docs/architecture.md, "How to add a game in ten lines", is checked against it."""

from .system import SYSTEM

__all__ = ["SYSTEM"]
