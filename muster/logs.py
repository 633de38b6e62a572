"""Logging helpers named in settings.LOGGING."""

import logging


class WithoutTraceback(logging.Filter):
    """An expected refusal in one line, not a traceback: DisallowedHost is a scanner or a
    wrong name in ALLOWED_HOSTS (its message names the host), never a fault in the code."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True
