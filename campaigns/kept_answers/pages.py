"""The campaign page (and the first page of its history) kept whole, its forms included, per
(audience position, seat).

The page a player reloads all evening is mostly forms: drawn from the side's cut of the state,
they are the same until what that audience sees moves. So a plain GET of the campaign page
(no query, no message waiting to be shown) is drawn once per key and kept, with a mark in the
place of each part that is not the audience's to share:

- the CSRF token (every ``{% csrf_token %}`` and ``{{ csrf_token }}``), the request's own;
- each form's idempotency key, a fresh one per form and per render (a double click appends
  once; two renders never share a key);
- the live parts (``{% live "template" %}``): the header's unread notices, the sheets panel
  (the viewer's print jobs) and the odds (computed in the background after the position moved),
  each drawn again for every request.

The **key** is the page's viewcache key (campaign, the audience's position, audience, organizer
or not, the digest of the code and templates) plus the viewer's **seat**: who they are (user and
username), the sides they play or read, referee or not, organizer or not, and what the page
shows from outside the journal (campaign and club names, archived or not). A page drawn for one side is
never served to the other, the referee's never to a player, a page drawn before a move never
after it (the position moved), and a seat change (someone becoming referee, leaving a side)
never reuses a page drawn for the seat before. Access is settled before the key is asked
(``campaign_for``): one who lost the campaign is refused, kept page or not.

Kept pages are compressed (a page of 80 KB keeps in 8 to 14) and expire sooner than other
kept answers (`TIMEOUT`): there is one per person who looks, not one per audience.
"""

from __future__ import annotations

import hashlib
import re
import uuid
import zlib
from collections.abc import Callable

import orjson
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.middleware.csrf import get_token

from campaigns.journal.records import Viewer
from campaigns.kept_answers import viewcache
from campaigns.models import Campaign
from muster.memory import Recent

TIMEOUT = 2 * 3600  # an evening's reloads at one position; a page per person, so shorter-lived
CSRF = "\x00csrf\x00"
# The parts drawn again for every request: the header's unread notices, the sheets panel, the odds.
LIVE = ("_inbox_link.html", "rosters/_sheets_panel.html", "campaigns/_odds.html")
KEEPING = "keeping_page"  # set in a context being drawn to keep: `{% live %}` draws its mark
# What a kept page carries in place of what each render puts in (NUL is refused in any input,
# muster/unstorable.py, so no text of a person can hold a mark).
_COOKIE_FIRST = (
    "django.contrib.messages.storage.fallback.FallbackStorage",
    "django.contrib.messages.storage.cookie.CookieStorage",
)
_MARK = re.compile("\x00(csrf|idem:[0-9]+|live:[0-9])\x00")
# A kept page as its text between marks and the marks' names (`cut`).
Cut = tuple[str, ...]
# The pages this process has served lately, cut, by the compressed bytes the cache holds: the cut
# is the bytes' own (the same bytes, the same page), so a page read again is neither decompressed
# nor searched for its marks, and nothing is served that the cache does not hold. Half as many
# characters as the process keeps bytes of kept answers (MUSTER_LOCAL_CACHE_BYTES): a page of
# 70 KB, about 230 pages in 16 MB.
_CUT: Recent[bytes, Cut] = Recent(
    getattr(settings, "MUSTER_LOCAL_CACHE_BYTES", 32 * 1024 * 1024) // 2,
    weigh=lambda parts: sum(len(part) for part in parts),
)


def idempotency_mark(number: int) -> str:
    """What a kept form carries in place of its idempotency key (a fresh one per render)."""
    return f"\x00idem:{number}\x00"


def live_mark(template: str) -> str:
    """What a kept page carries in place of a live part (drawn again for every request)."""
    return f"\x00live:{LIVE.index(template)}\x00"


def seat(campaign: Campaign, viewer: Viewer, person: object) -> str:
    """A digest of who looks from where (`person`: the user's primary key, which the page's offline
    key is made from), and of what the page shows from outside the journal."""
    club = campaign.club
    who = [
        person,
        viewer.username,
        sorted(viewer.sides),
        viewer.playing,
        viewer.referee,
        viewer.organizer,
        viewer.member,
        campaign.name,
        campaign.archived_at,
        campaign.archived_by_id,
        club.name,
        club.slug,
    ]
    return hashlib.sha256(orjson.dumps(who, default=str)).hexdigest()[:24]


def key(request: HttpRequest, campaign: Campaign, viewer: Viewer, page: str = "page") -> str | None:
    """The key of this request's `page` (the campaign page; "history-page": the history's first
    page), or None when it is drawn for this request alone: a query (a form asked for, a pick,
    another page of the history), a message to show, or no stored position for the journal."""
    if request.method != "GET" or request.GET or _messages_waiting(request):
        return None
    base = viewcache.key(campaign, viewer, page, refresh_missing=False)
    return (
        None
        if base is None
        else f"{base}:{seat(campaign, viewer, getattr(request.user, 'pk', None))}"
    )


def _messages_waiting(request: HttpRequest) -> bool:
    """Whether a message may wait to be shown (the page shows it once): the messages cookie, which
    also says when more wait in the session; with any other storage, always."""
    if settings.MESSAGE_STORAGE not in _COOKIE_FIRST:
        return True
    return CookieStorage.cookie_name in request.COOKIES


def kept(name: str) -> Cut | None:
    """The page kept under `name`, cut at its marks, or None."""
    found = viewcache.get(name)
    if not isinstance(found, bytes):
        return None
    parts = _CUT.get(found)
    if parts is None:
        parts = cut(zlib.decompress(found).decode())
        _CUT.put(found, parts)
    return parts


def keep(name: str, html: str) -> None:
    viewcache.put(name, zlib.compress(html.encode(), 1), TIMEOUT)


def cut(html: str) -> Cut:
    """A drawn page as its text between marks and the marks' names: text, mark, text, ..., text."""
    return tuple(_MARK.split(html))


def served(
    request: HttpRequest, page: Cut, live: Callable[[str], str], token: str | None = None
) -> str:
    """The kept page (`cut`) with this render's own parts put in: the CSRF token (`token`, the
    render's own if given, one masking for the page and its live parts), a fresh idempotency key
    per form, and each live part drawn by `live(template)`."""
    token = token or get_token(request)
    keys: dict[str, str] = {}
    parts = list(page)
    for at in range(1, len(parts), 2):
        mark = parts[at]
        if mark == "csrf":
            parts[at] = token
        elif mark.startswith("idem:"):
            parts[at] = keys.setdefault(mark, uuid.uuid4().hex)
        else:
            parts[at] = live(LIVE[int(mark[5:])])
    return "".join(parts)
