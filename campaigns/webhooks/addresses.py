"""Where a webhook may post: a URL checked when it is saved, and again at each delivery, where its
host is resolved, every address it resolves to is checked, and the post goes to the checked address
itself (a name that resolves to a public address when checked and to a private one a moment later
reaches nothing private). Loopback, private, link-local, multicast and reserved addresses are
refused unless the operator allows them (MUSTER_WEBHOOKS_ALLOW_PRIVATE), plain http unless
MUSTER_WEBHOOKS_ALLOW_HTTP: a webhook URL is typed by a club organizer, and without this it would
let anyone who runs a club make the site post to its own network."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from campaigns.errors import DomainError

MAX_URL = 500
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Target:
    """A checked URL: the post goes to `address`, naming `host` (its Host header, TLS name)."""

    scheme: str
    host: str
    port: int
    path: str  # the path and query
    address: str

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


def _parts(url: str, field: str, allow_http: bool) -> tuple[str, str, int, str]:
    """The URL's scheme, host, port and path, or a DomainError (on `field`) in words."""
    url = (url or "").strip()
    if not url:
        raise DomainError(field, "Give the address the events are posted to.")
    if len(url) > MAX_URL:
        raise DomainError(field, f"The address is too long (at most {MAX_URL} characters).")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise DomainError(field, "This is not a web address.") from None
    allowed = ("https", "http") if allow_http else ("https",)
    if parts.scheme not in allowed:
        raise DomainError(field, "The address must start with https:// (the posts are private).")
    if not parts.hostname:
        raise DomainError(field, "The address names no host.")
    if parts.username or parts.password:
        raise DomainError(field, "Leave the name and password out of the address.")
    try:
        host = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError:
        raise DomainError(field, "The host name cannot be read.") from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def refusal(
    address: str, allow_private: bool | None = None, poster: str = "webhooks post"
) -> str | None:
    """Why this address may not be posted to, in words; None when it may (`allow_private`: the
    operator's setting, MUSTER_WEBHOOKS_ALLOW_PRIVATE unless given)."""
    ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE if allow_private is None else allow_private:
        return None
    for test, words in (
        (ip.is_loopback, "this machine (a loopback address)"),
        (ip.is_link_local, "a link-local address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_unspecified, "an unspecified address"),
        (ip.is_reserved, "a reserved address"),
        (ip.is_private, "a private network"),
        (not ip.is_global, "an address that is not public"),
    ):
        if test:
            return f"The address leads to {words}: {poster} only to public addresses."
    return None


def resolve(
    url: str,
    *,
    field: str = "url",
    allow_http: bool | None = None,
    allow_private: bool | None = None,
    poster: str = "webhooks post",
) -> Target:
    """The URL checked and its host resolved: every address checked, the first one chosen. The
    allowances are the operator's webhook settings unless given (Web Push has its own)."""
    if allow_http is None:
        allow_http = settings.MUSTER_WEBHOOKS_ALLOW_HTTP
    scheme, host, port, path = _parts(url, field, allow_http)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise DomainError(field, f"No address was found for {host}.") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise DomainError(field, f"No address was found for {host}.")
    for address in addresses:
        words = refusal(address, allow_private, poster)
        if words:
            raise DomainError(field, words)
    return Target(scheme, host, port, path, addresses[0])


def check(url: str) -> str:
    """The URL as it is kept, once it is seen to lead somewhere a webhook may post."""
    resolve(url)
    return url.strip()


def urlsplit_host(url: str) -> str:
    """The host of a URL (for a log line: never its path, which may carry a token)."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""
