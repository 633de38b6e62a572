"""Sessions read through the cache, written through to the database (Django's cached_db), whose
keys are only ever what Django makes: letters and digits. A cookie holding anything else (a NUL
byte, which PostgreSQL refuses in a text value) is no session, not a 500."""

import re

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore

KEY = re.compile(r"[a-z0-9]{8,64}")


class SessionStore(CachedDbStore):
    def _validate_session_key(self, key):
        return bool(key) and KEY.fullmatch(key) is not None
