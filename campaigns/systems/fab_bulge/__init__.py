"""FAB: The Bulge, kept as a victory ledger."""

from .system import SYSTEM  # noqa: F401
