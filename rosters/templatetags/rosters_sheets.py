"""{% sheets_panel campaign viewer as panel %}: what the sheets panel of the campaign page shows."""

from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from campaigns.journal.records import Viewer
from campaigns.kept_answers import audiences
from campaigns.models import Campaign
from campaigns.systems import get_system
from muster.memory import Recent

from .. import services, sheets, word_widths
from ..models import PrintJob

register = template.Library()

PAPERS = PrintJob.PAPERS
# The forms depend on the campaign, its system and the viewer's audience only: drawn once per
# process, with a mark where each render puts its own CSRF token (a form's token is per render).
_CSRF_MARK = "\x00csrf\x00"
# Each paper's option carries a mark; a render selects the viewer's own paper (services.paper_for).
_PAPER_MARKS = [(value, label, f"\x00paper-{value}\x00") for value, label in PAPERS]
_CHOICES: Recent[tuple[object, ...], str] = Recent(4096)


@register.simple_tag(takes_context=True)
def sheets_panel(
    context: template.Context, campaign: Campaign, viewer: Viewer | None
) -> dict[str, object]:
    if viewer is None or not viewer.member:
        return {"choices": [], "jobs": [], "choices_html": _choices_html(context, campaign, None)}
    jobs = services.jobs_for(viewer, campaign)
    return {
        "jobs": [(job, services.is_stale(job)) for job in jobs],
        "papers": PAPERS,
        "choices_html": _choices_html(context, campaign, viewer),
    }


def _choices_html(context: template.Context, campaign: Campaign, viewer: Viewer | None) -> str:
    who = (
        (tuple(sorted(viewer.sides)), viewer.referee, viewer.member) if viewer is not None else None
    )
    key = (audiences.BUILD, campaign.pk, campaign.system, who)
    drawn = _CHOICES.get(key)
    if drawn is None:
        choices = []
        if viewer is not None:
            # The sides are the system's (their names too): the page needs no state for them.
            sides = {
                "sides": {
                    side.slug: {"name": side.name} for side in get_system(campaign.system).sides
                }
            }
            choices = sheets.choices_for(viewer, campaign, sides)
        drawn = render_to_string(
            "rosters/_sheet_choices.html",
            {
                "campaign": campaign,
                "panel": {"choices": choices, "papers": _PAPER_MARKS},
                "csrf_input": mark_safe(_CSRF_MARK),
            },
        )
        _CHOICES.put(key, drawn)
    drawn = drawn.replace(_CSRF_MARK, CsrfTokenNode().render(context))
    request = context.get("request")
    paper = services.paper_for(request.user) if request is not None else "A4"
    for value, _label, mark in _PAPER_MARKS:
        drawn = drawn.replace(mark, " selected" if value == paper else "")
    return mark_safe(drawn)


@register.simple_tag
def column_widths(table: dict[str, Any], paper: str = "A4", landscape: bool = False) -> list[str]:
    """Each column's share of a generic sheet table's width (rosters/word_widths.py): every heading,
    id and ordinary word fits its column whole. The table is laid out with these fixed widths
    (`table.fixed`), so neither engine measures every cell of a long sheet first."""
    shares = word_widths.column_widths(
        table.get("columns") or [], table.get("rows") or [], paper, landscape
    )
    return [f"{share:.1f}%" for share in shares]


@register.simple_tag
def record_widths(
    records: list[dict[str, Any]],
    fields: str,
    columns: str,
    paper: str = "A4",
    landscape: bool = False,
) -> list[str]:
    """Each column's share of a game sheet's table of records (as ``column_widths``): `fields` names
    each column's field of a record, space-separated (``a,b`` a column printing both, as "a, b");
    `columns` the headings, separated by "|"; a field holding a list (lines of a cell) counts
    each of its items; ``a.b`` is the field b of the record's field a. The sheet's template
    prints the table ``fixed``."""
    keys = [field.split(",") for field in fields.split()]
    rows = [
        [
            ", ".join(_words(value) for key in names if (value := _field(record, key)))
            for names in keys
        ]
        for record in records
    ]
    return column_widths({"columns": columns.split("|"), "rows": rows}, paper, landscape)


def _words(value: object) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _field(record: object, key: str) -> object:
    for name in key.split("."):
        record = record.get(name) if isinstance(record, dict) else None
    return record
