"""Each audience's position in a campaign (campaigns.kept_answers.viewcache says what a position is and what is
kept under it), and the digest of the code and templates that draw kept answers (BUILD). Pure
reads of a state: the projections store the positions after every append
(services.projections), the cache reads them (viewcache)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
from django.conf import settings
from django.core.signals import setting_changed
from django.db.models import Max
from django.dispatch import receiver

from campaigns.access.visibility import view_state
from campaigns.journal.records import Viewer
from campaigns.journal.state_digest import part_digest
from campaigns.journal.state_shapes import CampaignState, plain
from campaigns.models import Campaign
from campaigns.systems import get_system


def audience(viewer: Viewer) -> str | None:
    """The audience whose cut this viewer reads: "referee", "side:<slug>", "club"; None for nobody."""
    if viewer.referee:
        return "referee"
    if not viewer.member:
        return None
    return "side:" + ",".join(sorted(viewer.sides)) if viewer.sides else "club"


def _readers(sides: list[str]) -> dict[str, Viewer]:
    readers = {"club": Viewer.club_member(), "referee": Viewer.everything(sides)}
    readers.update({f"side:{side}": Viewer.for_side(side) for side in sides})
    return readers


def positions(
    campaign: Campaign,
    state: CampaignState,
    *,
    newest: dict[str, int] | None = None,
    roster: list[dict[str, Any]] | None = None,
    summaries: list[dict[str, Any]] | None = None,
    part_digests: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Every audience's position after `state` (the full state at ``state["seq"]``).

    `newest` ("audience|side" -> the newest event so filed), `roster` and `summaries` (the
    system's projections of `state`) and `part_digests` (each side's part of the game:
    ``state_digest.part_digest``) when the caller has them; otherwise read and drawn here. A
    side's part is hashed by its digest: encoded once, whoever reads it."""
    from campaigns.models import Event

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
        roster = system.roster(plain(state)) if state.get("game") is not None else []
    if summaries is None:
        summaries = [system.scenario_summary(plain(state), s["index"]) for s in state["scenarios"]]
    out: dict[str, Any] = {"seq": state["seq"], "newest": newest}
    filed = [(*_audience_and_side(name), seq) for name, seq in newest.items()]
    runs = _runs(roster)
    tail = b"]," + _canonical(summaries) + b"]"
    digests = _part_digests(state, part_digests or {})
    for name, reader in _readers(list(state["sides"])).items():
        seen = max((seq for aud, side, seq in filed if reader.can_read(aud, side)), default=0)
        if runs is None:
            readable = [
                e for e in roster if reader.can_read(e.get("audience", "public"), e.get("side", ""))
            ]
            digest = hashlib.sha256(
                _canonical([_hashed_view(state, reader, digests), readable, summaries])
            )
        else:  # the same bytes, each run of entries encoded once for every audience
            may = {pair: reader.can_read(*pair) for pair, _ in runs}
            digest = hashlib.sha256(b"[" + _canonical(_hashed_view(state, reader, digests)) + b",[")
            digest.update(b",".join(encoded for pair, encoded in runs if may[pair]))
            digest.update(tail)
        digest.update(f"|{seen}|{campaign.pk}|{campaign.created_at.isoformat()}".encode())
        out[name] = digest.hexdigest()[:32]
    return out


def _part_digests(state: CampaignState, known: dict[str, str]) -> dict[str, str]:
    game = state.get("game")
    sides = game.get("sides") if isinstance(game, dict) else None
    if not isinstance(sides, dict):
        return {}
    return {side: known.get(side) or part_digest(part) for side, part in sides.items()}


def _hashed_view(state: CampaignState, reader: Viewer, digests: dict[str, str]) -> Any:
    """What `reader` may read of `state`, each side's part of the game by its digest."""
    view = view_state(state, reader)
    game = view.get("game")
    if isinstance(game, dict) and isinstance(game.get("sides"), dict):
        view["game"] = {**game, "sides": {side: digests[side] for side in game["sides"]}}
    return view


RUNS_MOST = 32  # more runs than this: each audience's readable entries are encoded as a list


def _runs(roster: list[dict[str, Any]]) -> list[tuple[tuple[str, str], bytes]] | None:
    """The roster cut into runs of neighbouring entries filed alike ((audience, side): who may
    read them), each encoded once as the items of a canonical list, so that an audience's
    readable entries encode as its runs joined by commas (compact JSON: "[a,b,c]"), the same
    bytes as the list encoded whole. A large roster is a few long runs (a side's hidden units,
    its known ones); None when the runs are many and short."""
    filed_as = [(e.get("audience", "public"), e.get("side", "")) for e in roster]
    runs: list[tuple[tuple[str, str], bytes]] = []
    start = 0
    for i in range(1, len(roster) + 1):
        if i == len(roster) or filed_as[i] != filed_as[start]:
            if len(runs) == RUNS_MOST:
                return None
            runs.append((filed_as[start], _canonical(roster[start:i])[1:-1]))
            start = i
    return runs


def _audience_and_side(name: str) -> tuple[str, str]:
    """ "side|blue" -> ("side", "blue")."""
    audience, _, side = name.partition("|")
    return audience, side


def _canonical(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)


def _build_digest() -> str:
    """A digest of the code and templates that draw cached answers (extra systems and every
    template folder included)."""
    base = Path(str(settings.BASE_DIR))
    digest = hashlib.sha256()
    roots = [base / name for name in ("campaigns", "api", "rosters")]
    roots += [
        base.joinpath(*module.split("."))
        for module in getattr(settings, "MUSTER_EXTRA_SYSTEMS", [])
    ]
    roots += [
        Path(str(folder)) for engine in settings.TEMPLATES for folder in engine.get("DIRS", [])
    ]
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
def _settings_changed(setting: str, **kwargs: object) -> None:
    """Tests that swap templates or systems get keys of their own."""
    global BUILD
    if setting in ("TEMPLATES", "MUSTER_EXTRA_SYSTEMS", "MUSTER_BUILD"):
        BUILD = _build()
