"""Patton's Vanguard: The Battle of Arracourt 1944, kept as a victory ledger."""

from .system import SYSTEM  # noqa: F401
