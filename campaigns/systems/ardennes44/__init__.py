"""Ardennes '44 (3rd edition), kept as a victory ledger."""

from .system import SYSTEM  # noqa: F401
