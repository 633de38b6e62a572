"""Printable sheets: which exist for a campaign, who each is for, and what each prints.

Every campaign has the core sheets (the campaign summary); its game system adds
its own through ``GameSystem.sheets`` (SheetDef) and ``GameSystem.sheet_context``.
A system sheet with the slug of a core sheet replaces it.

A sheet prints exactly its *render context*: a JSON-able dict built here from the
campaign state as the sheet's audience may see it (campaigns.access.visibility). The
context is hashed (with the audience, paper, sheet and template version) and stored
with the print job, so a render depends on nothing but its job.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db.models import Max
from django.template.backends.django import Template as DjangoTemplate
from django.template.loader import get_template
from django.utils import timezone

from campaigns.access import visibility
from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import CampaignState, plain
from campaigns.models import Campaign
from campaigns.selectors.trends import campaign_trends
from campaigns.systems import get_system
from campaigns.systems.base import GameSystem, SheetDef

from . import long_words, typst_render, word_widths

# Bump when something a sheet prints changes outside the templates hashed below
# (the renderer, the shape of the context).
RENDER_VERSION = "5"  # 5: the ledgers' tables (victory_ledger's template) in fixed widths
BASE_TEMPLATE = "sheets/base.html"
PRINT_CSS = "print/sheet.css"
PAPERS = ("A4", "Letter")

CORE_SHEETS = (SheetDef("summary", "Campaign summary", "public", "sheets/summary.html"),)


def sheets_of(system: GameSystem) -> list[SheetDef]:
    """The core sheets, then the system's own (a system sheet replaces a core one of its slug)."""
    own = {s.slug: s for s in system.sheets}
    return [own.pop(s.slug, s) for s in CORE_SHEETS] + list(own.values())


def find_sheet(system: GameSystem, slug: str) -> SheetDef | None:
    return next((s for s in sheets_of(system) if s.slug == slug), None)


# --- audiences ------------------------------------------------------------------------------


def audience_key(sheet: SheetDef, side: str | None) -> str:
    if sheet.audience == "side":
        return f"side:{side}"
    return sheet.audience  # public | referee


def audience_viewer(key: str, sides: Iterable[str]) -> Viewer:
    """The reader a sheet is printed for: the club, one side, or the referee."""
    if key == "public":
        return Viewer.club_member()
    if key == "referee":
        return Viewer.everything(sides)
    return Viewer.for_side(key.removeprefix("side:"))


@dataclass(frozen=True)
class SheetChoice:
    """A sheet a viewer may print, with the sides they may print it for."""

    sheet: SheetDef
    sides: tuple[tuple[str, str], ...] = ()  # (slug, name) for side sheets


def choices_for(viewer: Viewer, campaign: Campaign, state: Mapping[str, Any]) -> list[SheetChoice]:
    system = get_system(campaign.system)
    found: list[SheetChoice] = []
    for sheet in sheets_of(system):
        if sheet.audience == "public" and viewer.member:
            found.append(SheetChoice(sheet))
        elif sheet.audience == "referee" and viewer.referee:
            found.append(SheetChoice(sheet))
        elif sheet.audience == "side":
            sides = tuple(
                (slug, s["name"]) for slug, s in state["sides"].items() if slug in viewer.sides
            )
            if sides:
                found.append(SheetChoice(sheet, sides))
    return found


# --- blank sheets ----------------------------------------------------------------------------------


def blank_sheets_of(system: GameSystem) -> list[SheetDef]:
    """The sheets of a game printable blank, before any campaign (GameSystem.blank_sheet)."""
    return [s for s in sheets_of(system) if system.blank_sheet(s.slug) is not None]


def blank_context(system: GameSystem, sheet: SheetDef, paper: str) -> dict[str, Any]:
    """What a blank sheet prints: its game, its title and its empty rows; nothing of any campaign,
    club or person, so one render serves everyone who asks (audience "blank")."""
    return {
        "sheet": {
            "slug": sheet.slug,
            "name": sheet.name,
            "audience": "public",  # no side's mark: the sheet holds nothing of anyone
            "landscape": sheet.landscape,
        },
        "paper": paper,
        "audience": {"key": "blank", "label": "Blank sheet"},
        "club": "",
        "campaign": {"id": None, "name": "", "system": system.name, "variant": ""},
        "blank_of": system.slug,
        "side": None,
        "as_of": "",
        "core": {},
        "system": _jsonable(system.blank_sheet(sheet.slug) or {}),
        "trends": [],
    }


# --- the render context ------------------------------------------------------------------------


def render_context(
    campaign: Campaign, state: CampaignState, sheet: SheetDef, audience: str, paper: str
) -> dict[str, Any]:
    """Everything the sheet prints, as the audience may see it. JSON-able."""
    system = get_system(campaign.system)
    reader = audience_viewer(audience, state["sides"])
    view = visibility.view_state(state, reader)
    side = audience.removeprefix("side:") if audience.startswith("side:") else None
    return {
        "sheet": {
            "slug": sheet.slug,
            "name": sheet.name,
            "audience": sheet.audience,
            "landscape": sheet.landscape,
        },
        "paper": paper,
        "audience": {"key": audience, "label": _audience_label(audience, state)},
        "club": campaign.club.name,
        "campaign": {
            "id": campaign.pk,
            "name": view["name"],
            "system": system.name,
            "variant": _variant_name(system, view["variant"]),
        },
        "side": {"slug": side, "name": state["sides"][side]["name"]} if side else None,
        "as_of": _as_of(campaign, reader),
        "core": summary(system, state, view),
        "system": _jsonable(system.sheet_context(sheet.slug, view) or {}),
        # the game's numbers over time, as this audience may read them (never another side's)
        "trends": campaign_trends(campaign, reader),
    }


def summary(system: GameSystem, state: CampaignState, view: dict[str, Any]) -> dict[str, Any]:
    """The campaign summary: sides and players, the timeline with results in words and the
    after-action notes the audience may read, standings."""
    from campaigns.journal.context import Ctx
    from campaigns.selectors.house_rules_shown import house_rule_labels

    sides = view["sides"]
    ctx = Ctx.reading(system, view)
    names = house_rule_labels(system) if view.get("house_rules") else {}
    return {
        "status": view["status"],
        "winner": sides.get(view["winner"], {}).get("name") if view.get("winner") else None,
        "finish_reason": view.get("finish_reason", ""),
        "referee": view.get("referee"),
        "sides": [
            {"slug": slug, "name": s["name"], "players": list(s["players"])}
            for slug, s in sides.items()
        ],
        "scenarios": [
            {
                "index": sc["index"],
                "label": sc["label"],
                "status": STATUS_WORDS.get(sc["status"], sc["status"]),
                "result": system.result_words(view, i, sc["result"], ctx)
                if sc.get("result")
                else [],
                "notes": [n["text"] for n in view.get("notes", []) if n["scenario"] == i],
            }
            for i, sc in enumerate(view["scenarios"])
        ],
        "standings": [
            {
                "side": sides.get(s["side"], {}).get("name", s["side"]),
                "label": s["label"],
                "value": _text(s["value"]),
            }
            for s in (system.standings(plain(state)) if state.get("game") is not None else [])
        ],
        "house_rules": [
            {"key": names.get(k, k), "value": _text(r.get("value")), "book": _text(r.get("book"))}
            for k, r in sorted(view.get("house_rules", {}).items())
        ],
    }


STATUS_WORDS = {
    "upcoming": "to come",
    "current": "being prepared or played",
    "pending": "result to confirm",
    "played": "played",
    "disputed": "result disputed",
}


def _text(value: object, sides: Mapping[str, Mapping[str, str]] | None = None) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if sides and isinstance(value, str) and value in sides:
        return sides[value]["name"]
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v, sides) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v, sides)}" for k, v in value.items())
    return "" if value is None else str(value)


def _audience_label(audience: str, state: Mapping[str, Any]) -> str:
    if audience == "public":
        return "Club"
    if audience == "referee":
        return "Referee only"
    side = audience.removeprefix("side:")
    name: str = state["sides"][side]["name"]
    return f"{name} only"


def _variant_name(system: GameSystem, slug: str) -> str:
    try:
        return system.variant(slug).name
    except KeyError:
        return slug


def _as_of(campaign: Campaign, reader: Viewer) -> str:
    """The time of the newest journal entry this audience may read: a sheet's date
    never hints at another side's hidden activity, and stays the same until
    something the audience sees changes."""
    latest = visibility.events_for(reader, campaign).aggregate(at=Max("created_at"))["at"]
    return timezone.localtime(latest or campaign.created_at).strftime("%Y-%m-%d %H:%M")


def _jsonable(value: object) -> Any:
    """`value` as JSON gives it back (what is no JSON written as its str)."""
    return json.loads(json.dumps(value, default=str))


# --- several sheets in one PDF -----------------------------------------------------------------------


def combined_audience(audiences: list[str]) -> str:
    """The audience of a PDF holding sheets of these audiences: the narrowest, so that only those
    who may read every sheet in it may read it (the club's sheets are in every side's; sheets of
    two sides, or a referee's, make it the referee's)."""
    narrow = sorted(set(audiences) - {"public"})
    if not narrow:
        return "public"
    return narrow[0] if len(narrow) == 1 else "referee"


def combined_context(parts: list[tuple[SheetDef, dict[str, Any]]], audience: str) -> dict[str, Any]:
    """What a combined PDF prints: each sheet's own render context, in order (each cut for its own
    audience, never wider than the job's), and what the job's lists and file name show."""
    first = parts[0][1]
    label = {"public": "Club", "referee": "Referee only"}.get(audience)
    if label is None:
        label = next(c["audience"]["label"] for _, c in parts if c["audience"]["key"] == audience)
    return {
        "parts": [context for _, context in parts],
        "campaign": first["campaign"],
        "paper": first["paper"],
        "audience": {"key": audience, "label": label},
    }


def combined_hash(context: dict[str, Any], parts: list[SheetDef], campaign_id: int) -> str:
    payload = {
        "context": context,
        "templates": [[s.slug, s.template, template_version(s)] for s in parts],
        "campaign": campaign_id,
        "combined": True,
    }
    return hashlib.sha256(
        json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


# --- the hash ---------------------------------------------------------------------------------


def template_version(sheet: SheetDef) -> str:
    """A digest of the templates and stylesheet a sheet is drawn with: editing them
    makes new PDFs instead of serving old ones."""
    from django.contrib.staticfiles import finders

    digest = hashlib.sha256(RENDER_VERSION.encode())
    for name in (BASE_TEMPLATE, sheet.template):
        template = get_template(name)
        assert isinstance(template, DjangoTemplate)  # sheets are Django templates
        digest.update(template.template.source.encode())
    css = finders.find(PRINT_CSS)
    if css:
        with open(css, "rb") as handle:
            digest.update(handle.read())
    digest.update(typst_render.version().encode())  # plain table sheets are printed with Typst
    for module in (long_words, word_widths):  # how wide columns and words are
        assert module.__file__ is not None  # read from their files
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()


def content_hash(
    context: dict[str, Any], *, sheet: SheetDef, audience: str, paper: str, campaign_id: int
) -> str:
    payload = {
        "context": context,
        "sheet": sheet.slug,
        "template": sheet.template,
        "audience": audience,
        "paper": paper,
        "campaign": campaign_id,
        "version": template_version(sheet),
    }
    return hashlib.sha256(
        json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
