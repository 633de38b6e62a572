"""Answers cut for an audience, kept in the cache under what that audience can see.

A campaign changes only when its journal grows, and a viewer's cut of it is the same for
everyone of the same audience: the club (a member who plays no side), one side (its players),
the referee. So the cut and what is drawn from it (API answers, page fragments) are computed
once per (campaign, the audience's position, audience, representation) and then served from
the cache (Redis in production, local memory embedded).

The **position** of an audience (``positions``) is a digest of its cut of the state
(``visibility.view_state``), of the projections it may read (roster entries, scenario
summaries) and of the newest journal entry it may read, computed after every append and
stored on the campaign row (``Campaign.positions``). It moves with everything that
audience can see, and only with that: the other side's hidden steps leave it, and so the
side's cache hits and timing, alone. Neither the journal position (``last_seq``) nor a
side's newest visible event alone would do: the first counts hidden events; the second misses
changes a side sees without reading the event that made them (the other side's sealed choice
being made, a proposal about a private event). A key never names a stale answer, so nothing
is ever invalidated; entries of old positions expire.

Keys also carry the organizer flag (the only part of a viewer beyond the audience that
changes an answer) and a digest of the code and templates that draw answers, so a deploy
never serves an old drawing.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import orjson
from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed
from django.db.models import Max
from django.dispatch import receiver

from .records import Viewer
from .systems import get_system
from .visibility import view_state

log = logging.getLogger(__name__)
T = TypeVar("T")
TIMEOUT = 24 * 3600  # entries of positions passed long ago expire
MISSING = object()  # what `get` answers for a key the cache does not hold


def audience(viewer: Viewer) -> str | None:
    """The audience whose cut this viewer reads: "referee", "side:<slug>", "club"; None for nobody."""
    if viewer.referee:
        return "referee"
    if not viewer.member:
        return None
    return "side:" + ",".join(sorted(viewer.sides)) if viewer.sides else "club"


def _readers(sides) -> dict[str, Viewer]:
    readers = {"club": Viewer.club_member(), "referee": Viewer.everything(sides)}
    readers.update({f"side:{side}": Viewer.for_side(side) for side in sides})
    return readers


def positions(
    campaign,
    state: dict,
    *,
    newest: dict | None = None,
    roster: list | None = None,
    summaries: list | None = None,
) -> dict:
    """Every audience's position after `state` (the full state at ``state["seq"]``).

    `newest` ("audience|side" -> the newest event so filed), `roster` and `summaries` (the
    system's projections of `state`) when the caller has them; otherwise read and drawn here."""
    from .models import Event

    if newest is None:
        newest = {
            f"{row['audience']}|{row['side']}": row["newest"]
            for row in Event.objects.filter(campaign=campaign, seq__lte=state["seq"])
            .values("audience", "side")
            .annotate(newest=Max("seq"))
            .order_by()
        }
    system = get_system(state["system"])
    # Projections drawn from the whole state (a public roster entry may come from a side's
    # private records): what each audience reads of them is part of its position.
    if roster is None:
        roster = system.roster(state) if state.get("game") is not None else []
    if summaries is None:
        summaries = [system.scenario_summary(state, s["index"]) for s in state["scenarios"]]
    out = {"seq": state["seq"], "newest": newest}
    filed = [(*name.split("|", 1), seq) for name, seq in newest.items()]
    for name, reader in _readers(list(state["sides"])).items():
        seen = max((seq for aud, side, seq in filed if reader.can_read(aud, side)), default=0)
        readable = [
            e for e in roster if reader.can_read(e.get("audience", "public"), e.get("side", ""))
        ]
        digest = hashlib.sha256(_canonical([view_state(state, reader), readable, summaries]))
        digest.update(f"|{seen}|{campaign.pk}|{campaign.created_at.isoformat()}".encode())
        out[name] = digest.hexdigest()[:32]
    return out


def _canonical(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)


def position(campaign, name: str, *, refresh_missing: bool = True) -> str | None:
    """The stored position of audience `name`, or None while the row has none for its journal
    (computed and stored first unless `refresh_missing` is false)."""
    stored = campaign.positions or {}
    if stored.get("seq") != campaign.last_seq:
        stored = refresh(campaign) if refresh_missing else {}
    return stored.get(name)


def refresh(campaign) -> dict:
    """Positions for a row that has none for its journal (written before they existed): computed
    from the current state and stored only if the journal has not moved meanwhile."""
    from .models import Campaign
    from .services.state import current_state

    state = current_state(campaign)
    found = positions(campaign, state)
    Campaign.objects.filter(pk=campaign.pk, last_seq=state["seq"]).update(positions=found)
    if state["seq"] == campaign.last_seq:
        campaign.positions = found
    return found if state["seq"] == campaign.last_seq else {}


def key(
    campaign, viewer: Viewer, representation: str, *, refresh_missing: bool = True
) -> str | None:
    name = audience(viewer)
    at = position(campaign, name, refresh_missing=refresh_missing) if name else None
    if at is None:
        return None
    return f"muster:view:{BUILD}:{campaign.pk}:{name}:{at}:{'o' if viewer.organizer else 'm'}:{representation}"


def kept(campaign, viewer: Viewer, representation: str):
    """What `cached` keeps under this key, or MISSING: never computed here (the stored positions
    are used only when they are the journal's; a refresh is left to the full answer)."""
    name = key(campaign, viewer, representation, refresh_missing=False)
    return MISSING if name is None else get(name)


def cached(campaign, viewer: Viewer, representation: str, build: Callable[[], T]) -> T:
    """`build()`, computed once per key; with no position (or the cache down) computed every time."""
    name = key(campaign, viewer, representation)
    if name is None:
        return build()
    found = get(name)
    if found is not MISSING:
        return found
    value = build()
    put(name, value)
    return value


def get(name: str):
    try:
        return cache.get(name, MISSING)
    except Exception:  # a cache outage slows pages down; it must not take them down
        log.exception("cache read failed")
        return MISSING


def put(name: str, value, timeout: int = TIMEOUT) -> None:
    try:
        cache.set(name, value, timeout)
    except Exception:
        log.exception("cache write failed")


def _build_digest() -> str:
    """A digest of the code and templates that draw cached answers (extra systems and every
    template folder included)."""
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    roots = [base / name for name in ("campaigns", "api", "rosters")]
    roots += [
        base.joinpath(*module.split("."))
        for module in getattr(settings, "MUSTER_EXTRA_SYSTEMS", [])
    ]
    roots += [Path(folder) for engine in settings.TEMPLATES for folder in engine.get("DIRS", [])]
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".html", ".yaml") and path.is_file():
                digest.update(str(path).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _build() -> str:
    return getattr(settings, "MUSTER_BUILD", "") or _build_digest()


BUILD = _build()


@receiver(setting_changed)
def _settings_changed(setting, **kwargs):
    """Tests that swap templates or systems get keys of their own."""
    global BUILD
    if setting in ("TEMPLATES", "MUSTER_EXTRA_SYSTEMS", "MUSTER_BUILD"):
        BUILD = _build()
