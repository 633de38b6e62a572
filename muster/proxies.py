"""The address a request really came from, for the sign-in lockout (django-axes,
AXES_CLIENT_IP_CALLABLE).

With no proxy configured (TRUSTED_PROXY_COUNT=0, the default) it is the connection's own
address, REMOTE_ADDR, and X-Forwarded-For is never read: anyone can write that header. Behind
N trusted proxies, each appends the address it was reached from to X-Forwarded-For, so the
client's address is the N-th entry from the right: the one the outermost trusted proxy
appended. Entries left of it are whatever the client wrote, and are never used. A header with
fewer entries than that (a proxy that does not send it) falls back to REMOTE_ADDR: the
lockout then counts everyone under the proxy's address, which is too strict but cannot be
dodged, and the log says so once.
"""

from __future__ import annotations

import ipaddress
import logging

from django.conf import settings
from django.http import HttpRequest

log = logging.getLogger(__name__)
_warned = False


def client_address(request: HttpRequest) -> str:
    remote = str(request.META.get("REMOTE_ADDR", ""))
    count: int = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    chain = [entry.strip() for entry in forwarded.split(",")]
    chain = [entry for entry in chain if entry]
    if len(chain) >= count:
        try:
            return str(ipaddress.ip_address(chain[-count]))
        except ValueError:
            pass  # a proxy appends addresses only: the configuration is wrong
    _warn_once(count, len(chain))
    return remote


def _warn_once(count: int, entries: int) -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning(
            "TRUSTED_PROXY_COUNT is %d but a request's X-Forwarded-For has %d usable entries: the proxy "
            "must append the client's address (nginx: proxy_set_header X-Forwarded-For "
            "$proxy_add_x_forwarded_for). Counting sign-in failures by the proxy's address meanwhile.",
            count,
            entries,
        )
