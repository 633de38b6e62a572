"""Ledger values in words, shared by the fold (stored with each turn), pages and sheets."""

from __future__ import annotations


def location_state_text(system, state) -> str:
    """ "German, contested, supplied" for a location's [held by, contested, supplied]."""
    if isinstance(state, dict):
        state = [state["controller"], state["contested"], state["supplied"]]
    holder, contested, supplied = state
    bits = [system.book.side_name(holder)]
    if contested and system.uses_contested:
        bits.append("contested")
    bits.append("supplied" if supplied else "not supplied")
    return ", ".join(bits)


def names(items, limit: int = 12) -> str:
    items = list(items)
    if not items:
        return "none"
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")
