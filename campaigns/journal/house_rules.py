"""House rules: a table cell or a constant of the game set to another value than the book's.

Set by the organizer before play (core_events: house_rule.set) or, once play has started, by a
"house_rule" proposal every side agrees to (campaigns.journal.proposals); the book's value is kept beside
the club's, and setting the book's value again removes the house rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaigns.errors import DomainError
from campaigns.journal.state_shapes import CampaignState

if TYPE_CHECKING:
    from campaigns.journal.context import Ctx


def check_house_rule(state: CampaignState, ctx: Ctx, key: str, value: object) -> Any:
    """The book's value `value` would replace, once the key and the value are checked."""
    system = ctx.system
    if key.count(":") >= 2:
        try:
            book = system.tables.book_value(key)
        except KeyError:
            raise DomainError("key", f"{key} names no table cell.") from None
    elif key in system.constants():
        book = system.constants()[key]["value"]
        choices = system.constants()[key].get("choices")
        if choices and value not in choices:  # a reading of the rules, not a number
            raise DomainError("value", f"Must be one of: {'; '.join(map(str, choices))}.")
    else:
        raise DomainError("key", f"{key} names no table cell or constant.")
    if book is not None and not isinstance(book, bool) and type(value) is not type(book):
        kinds = {
            int: "a whole number",
            float: "a number",
            str: "text",
            list: "a list",
            dict: "a set of values",
        }
        raise DomainError(
            "value",
            f"Must be {kinds.get(type(book), 'like the book value')} like the book value ({book}).",
        )
    system.check_house_rule(key, value)
    return book


def set_house_rule(
    state: CampaignState, ctx: Ctx, key: str, value: object, note: str, seq: int
) -> None:
    book = check_house_rule(state, ctx, key, value)
    if value == book:
        state["house_rules"].pop(key, None)  # back to the book
    else:
        state["house_rules"][key] = {"value": value, "book": book, "note": note, "seq": seq}
