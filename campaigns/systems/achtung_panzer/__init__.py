"""Achtung! Panzer! campaign games (rulebook: shared/seeds/003). See docs/achtung-panzer.md.

The SYSTEM instance is defined in system.py and exported here.
"""

from .system import SYSTEM  # noqa: F401
