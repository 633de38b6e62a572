"""Domain errors: every refusal names the field (or event) it is about.

Messages must never carry a side's secrets: they are shown to whoever submitted,
and the API returns them as 400 field errors.
"""

from __future__ import annotations


class DomainError(Exception):
    """Bad input or a rule violation; nothing was changed."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, list[str]]:
        return {self.field: [self.message]}


class NotFound(Exception):
    """The object does not exist *for this viewer* (404, never 403, for outsiders)."""


class Forbidden(Exception):
    """The viewer may see the campaign but may not do this."""

    def __init__(self, message: str = "You may not do this."):
        super().__init__(message)
        self.message = message


class Conflict(Exception):
    """The client acted on a stale view of its stream (HTTP 409)."""

    def __init__(self, message: str, current_version: int):
        super().__init__(message)
        self.message = message
        self.current_version = current_version


class TooMany(Exception):
    """A limit on how often someone may do something was reached (HTTP 429); nothing was changed.
    The message names the limit and when it is lifted."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after  # seconds


class DiceNeeded(DomainError):
    """Dice must be entered by a player before the event can be applied."""

    def __init__(self, needs: list[dict[str, str]]):
        keys = ", ".join(f"{n['key']} ({n['expr']})" for n in needs)
        super().__init__("dice", f"Enter the dice rolled at the table for: {keys}.")
        self.needs = needs
