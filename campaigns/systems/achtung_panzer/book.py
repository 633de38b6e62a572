"""The book's tables (tables/), loaded once, and what they answer without a campaign. Below words,
elr and the steps, so each of them can read the book without importing the others."""

from __future__ import annotations

from pathlib import Path

from campaigns.game_interface import TableSet

_TABLES = None


def tables() -> TableSet:
    global _TABLES
    if _TABLES is None:
        _TABLES = TableSet.load(Path(__file__).resolve().parent / "tables")
    return _TABLES


def group_type(purchase: dict) -> str:
    """An RG's type from its record, else from the book's RG table (RGs given in an initial OB carry
    only their table id and a note such as "1st Line Coy ×2"), else its note."""
    if purchase.get("group_type"):
        return purchase["group_type"]
    table_id = f"1.619.{purchase.get('nationality')}"
    if purchase.get("rg"):
        book = tables()
        if table_id in book.tables:
            try:
                return book.tables[table_id].row(purchase["rg"]).cells["group_type"]
            except KeyError:
                pass
    return purchase.get("note") or ""
