"""Small template helpers for showing game state generically."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django import template

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from campaigns.systems.base import StepStatus

# The sides of a state as the templates are given them: {slug: {"name": ..., ...}}.
SideNames = dict[str, dict[str, str]]

register = template.Library()


@register.filter
def is_mapping(value: object) -> bool:
    return isinstance(value, dict)


@register.filter
def is_list(value: object) -> bool:
    return isinstance(value, (list, tuple))


@register.filter
def humanize_key(value: object) -> str:
    return str(value).replace("_", " ")


@register.filter
def side_name(slug: str | None, sides: SideNames | None) -> str:
    """A side's name from the state's sides ({slug: {"name", ...}})."""
    return (sides or {}).get(slug, {}).get("name", slug) if slug else ""


@register.filter
def get(mapping: object, key: object) -> object:
    return (mapping or {}).get(key) if isinstance(mapping, dict) else None


@register.filter
def when(iso: object) -> datetime | None:
    """An ISO 8601 time string (journal entries) as a datetime for |date."""
    try:
        return datetime.fromisoformat(str(iso))
    except ValueError:
        return None


@register.filter
def is_flat_list(value: object) -> bool:
    """A list of plain values, shown on one line."""
    return isinstance(value, (list, tuple)) and all(
        not isinstance(v, (dict, list, tuple)) for v in value
    )


@register.filter
def game_label(campaign: Campaign) -> str:
    """ "Achtung! Panzer! · CG I: …" for a campaign (its system's and variant's names)."""
    from campaigns.systems import all_systems

    system = all_systems().get(campaign.system)
    if system is None:
        return f"{campaign.system} · {campaign.variant}"
    variant = next(
        (v.name for v in system.variants if v.slug == campaign.variant), campaign.variant
    )
    return f"{system.name} · {variant}"


_STEP_STATUS = {"done": "done", "current": "now", "waiting": "waits", "skipped": "nothing to do"}
_SCENARIO_STATUS = {
    "upcoming": "to come",
    "current": "now",
    "pending": "result to confirm",
    "played": "played",
    "disputed": "disputed",
}
_PROPOSALS = {
    "correct": "Correction",
    "undo": "Undo",
    "house_rule": "Late house rule",
    "export": "Full export",
    "seat": "Change of seats",
}


@register.filter
def step_status(value: str) -> str:
    return _STEP_STATUS.get(value, str(value).replace("_", " "))


@register.filter
def scenario_status(value: str) -> str:
    return _SCENARIO_STATUS.get(value, str(value).replace("_", " "))


@register.filter
def proposal_words(value: str) -> str:
    return _PROPOSALS.get(value, str(value).replace("_", " ").capitalize())


@register.filter
def side_names(slugs: Iterable[str] | None, sides: SideNames | None) -> str:
    """["allied", "referee"] -> "Allied, the referee"."""
    names = [
        (sides or {}).get(s, {}).get("name") or ("the referee" if s == "referee" else s)
        for s in slugs or []
    ]
    return ", ".join(names)


@register.filter
def steps_left(procedure: Iterable[StepStatus]) -> list[StepStatus]:
    """The viewer's own steps of the between-game procedure still to do (current first)."""
    return [s for s in procedure if s.side and s.status in ("current", "waiting")]


@register.filter
def steps_left_by_side(
    procedure: Iterable[StepStatus], sides: SideNames | None
) -> list[tuple[str, list[StepStatus]]]:
    """The steps still to do (steps_left) side by side, each side's name with its steps: the
    referee, who sees both sides' steps, reads whose each one is."""
    by_side: dict[str, list[StepStatus]] = {}
    for step in steps_left(procedure):
        by_side.setdefault(side_name(step.side, sides), []).append(step)
    return list(by_side.items())


@register.filter
def rule_of(table_id: object) -> str:
    """A table's rule number for a reference ("1.6113.german" -> "1.6113"); "" for a plain roll."""
    import re

    match = re.match(r"^\d+(?:\.\d+)?", str(table_id or ""))
    return match.group(0) if match else ""
