"""The campaign page and everything done from it: submitting events (results,
steps of the between-game procedure, sealed choices, answers to proposals),
proposing corrections/undo/house rules/exports, the history and the export."""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import Context, engines
from django.template.loader import get_template, render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.cache import patch_cache_control
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_POST

from campaigns.access import permissions, visibility
from campaigns.errors import DiceNeeded, DomainError
from campaigns.forms import HouseRuleForm, ProposalForm, house_rule_tables
from campaigns.journal.core_events import KINDS as CORE_KINDS
from campaigns.journal.records import Viewer
from campaigns.kept_answers import pages, viewcache
from campaigns.models import Campaign
from campaigns.notices import inbox
from campaigns.selectors.campaign_page import CampaignPage, campaign_for, campaign_page
from campaigns.selectors.history import (
    HistoryEntry,
    history_by_uid,
    history_entry,
    history_page,
    history_tail,
    submission_report,
    submitted_words,
)
from campaigns.selectors.house_rules_shown import house_rule_labels
from campaigns.selectors.proposals_shown import proposal_rows
from campaigns.selectors.todos import result_to_confirm, stable_id
from campaigns.selectors.trends import campaign_trends
from campaigns.services import journal_files, odds as odds_service
from campaigns.services.journal import Submission, submit, submit_then
from campaigns.services.suggested import suggested_data
from campaigns.systems import get_system
from campaigns.systems.base import Action, GameSystem
from muster import connection_loss
from muster.memory import Recent

from . import actions, sent_later
from .actions import ActionBox
from .common import AuthenticatedHttpRequest, done, is_htmx, page

if TYPE_CHECKING:
    # What get_template answers (django-stubs' name for any engine's template).
    from django.template.backends.base import _EngineTemplate

RECENT = 15  # history entries on the campaign page; the rest on the history page
HISTORY_PAGE = 50  # entries on a page of the history (newest first; older on the next pages)
_CONFIRMING = ("result.confirmed", "result.resolved")


class HistoryRow(TypedDict):
    """A history entry as the page lists it, with whether the viewer may propose to amend it."""

    entry: HistoryEntry
    correct: bool
    undo: bool


def _system_template(name: str) -> _EngineTemplate | None:
    """A template a game system names (its ``panel_template``, ``records_template``), or None
    when it names none."""
    return get_template(name) if name else None


def _boxes(
    system: GameSystem,
    page_data: CampaignPage,
    bound: ActionBox | None = None,
    asked: str | None = None,
    query: QueryDict | None = None,
) -> list[ActionBox]:
    """The forms of what the viewer can do now. Optional things (nothing waits for them) are
    drawn only when asked for (``?do=<id>``) or sent back with errors: the page stays light.
    A to-do that picks a field first (``Action.choose``) takes it from `query` (``?do=<id>&<field>=``)."""
    todos = page_data.offered()
    boxes: list[ActionBox] = []
    for todo in todos:
        listed = stable_id(todo)
        if bound is not None and (bound.do == listed if bound.do else bound.todo == todo):
            boxes.append(bound)
            bound = None
            continue
        if todo.optional and listed != asked:
            continue
        if todo.own_page and listed != asked:  # its own page: what is not shown is not sent
            boxes.append(actions.elsewhere(todo, listed))
            continue
        todo, choosing = actions.with_choice(todo, query if listed == asked else None)
        todo, picking = actions.with_pick(todo, query if listed == asked else None)
        if picking:  # its first screen: the rows to fill in, grouped
            groups = system.pick_groups(page_data.state, todo.side, todo.kind, todo.pick)
            boxes.append(actions.ActionBox(todo, None, do=listed, open=True, picking=groups))
            continue
        suggested = (
            suggested_data(page_data.campaign, todo.kind) if todo.kind not in CORE_KINDS else {}
        )
        box = actions.build(
            system, page_data.state, replace(todo, initial={**suggested, **todo.initial})
        )
        if box is not None:
            box.do, box.choosing = listed, choosing
            box.picked = todo.initial.get(actions.PICKS) if todo.pick else None
            box.open = listed == asked  # followed its link: open at once
            if todo.kind in _CONFIRMING:  # a person confirms only what they can see
                box.confirming = result_to_confirm(page_data.state, todo.initial["scenario"])
            boxes.append(box)
    if bound is not None:  # the posted form matches nothing shown now: show it on top
        boxes.insert(0, bound)
    for box in boxes:
        box.open = box.open or bool(box.notice) or (box.form is not None and box.form.is_bound)
    main = [box for box in boxes if not box.todo.optional and box.form is not None]
    if main and not any(box.open for box in boxes):
        main[0].open = True
    drawn = next((box.todo.side for box in boxes if box.open and box.form is not None), None)
    followed = any(box.open and box.todo.optional for box in boxes)  # a "?do=" link was followed
    return [_folded(box, drawn, followed) for box in boxes]


SHORT_FORM = 4  # inputs (a row list's rows count each): a closed form this short stays drawn


def _folded(box: ActionBox, drawn: str | None, followed: bool) -> ActionBox:
    """Another side's long form is not drawn beside the one open: the referee, who acts for every
    side, finds a closed one as its heading and a link that opens it (``?do=<id>``), so that his
    page does not carry both sides' forms; nor is a closed long form drawn beside one asked for
    by its link (`followed`: one of the other things one can do). `drawn`: the side of the form
    open. A short form (a reason, a choice, one button), a GET form that picks a field and a form
    for no side in particular stay drawn."""
    if (
        box.open
        or box.form is None
        or box.choosing
        or not box.todo.side
        or (box.todo.side == drawn and not followed)
        or box.form.visible_count <= SHORT_FORM
    ):
        return box
    return actions.elsewhere(box.todo, box.do or stable_id(box.todo))


def _history(
    campaign: Campaign, viewer: Viewer, system: GameSystem, limit: int | None = None
) -> tuple[list[HistoryRow], bool]:
    if limit:
        entries, more = history_tail(campaign, viewer, limit)
    else:
        entries, more = history_by_uid(campaign, viewer), False
    return _rows(campaign, viewer, system, entries), more


def _history_page(
    campaign: Campaign, viewer: Viewer, system: GameSystem, number: int
) -> dict[str, Any]:
    """Page `number` of the history (1: the newest HISTORY_PAGE entries), newest first, with the
    number of the first entry shown and of the pages before and after it (None: none)."""
    entries, number, total = history_page(campaign, viewer, number, HISTORY_PAGE)
    pages = max(1, -(-total // HISTORY_PAGE))
    return {
        "rows": _rows(campaign, viewer, system, entries),
        "start": total - (number - 1) * HISTORY_PAGE,
        "number": number,
        "pages": pages,
        "newer": number - 1 if number > 1 else None,
        "older": number + 1 if number < pages else None,
    }


def _rows(
    campaign: Campaign, viewer: Viewer, system: GameSystem, entries: list[HistoryEntry]
) -> list[HistoryRow]:
    rows: list[HistoryRow] = []
    for entry in entries:
        correct, undo = permissions.amendments(campaign, viewer, system, entry.kind, entry.undone)
        rows.append({"entry": entry, "correct": correct, "undo": undo})
    rows.reverse()  # newest first
    return rows


def _scenarios(
    system: GameSystem, state: dict[str, Any], full: bool = True
) -> list[dict[str, Any]]:
    """The timeline: each scenario with its result (or the one waiting) in sentences, and its notes.
    Not `full` (the campaign page): only the scenario being played or confirmed and the last one
    played have them; the others are a line with a link to the scenarios page, so that the
    campaign page does not grow with the scenarios played."""
    from campaigns.journal.context import Ctx

    ctx = Ctx.reading(system, state)
    played = [s["index"] for s in state["scenarios"] if s.get("result")]
    last = played[-1] if played else None
    rows: list[dict[str, Any]] = []
    for scenario in state["scenarios"]:
        index = scenario["index"]
        result = scenario.get("result")
        pending = (scenario.get("pending") or {}).get("data")
        notes = [n for n in state.get("notes", []) if n["scenario"] == index]
        if (
            not full
            and index != last
            and scenario["status"] not in ("current", "pending", "disputed")
        ):
            rows.append(
                {
                    "s": scenario,
                    "result": [],
                    "pending": [],
                    "notes": [],
                    "folded": bool(result or notes),
                    "notes_count": len(notes),
                }
            )
            continue
        rows.append(
            {
                "s": scenario,
                "result": system.result_words(state, index, result, ctx) if result else [],
                "pending": system.result_words(state, index, pending, ctx) if pending else [],
                "notes": notes,
            }
        )
    return rows


def _sealed(state: dict[str, Any], full: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """The sealed choices; on the campaign page (not `full`) those still open and the last revealed."""
    items = list(state.get("sealed", {}).items())
    if full:
        return items
    revealed = [key for key, sealed in items if sealed.get("revealed")]
    return [
        (key, sealed) for key, sealed in items if not sealed.get("revealed") or key == revealed[-1]
    ]


def _more_scenarios(rows: list[dict[str, Any]], state: dict[str, Any]) -> bool:
    """Whether the scenarios page shows more than the campaign page's timeline."""
    return any(row.get("folded") for row in rows) or len(state.get("sealed", {})) > len(
        _sealed(state, False)
    )


def page_context(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, bound: ActionBox | None = None
) -> dict[str, Any]:
    """The page's context. What the cached fragments of the template draw (`{% viewcache %}`,
    campaigns.kept_answers.viewcache) is computed only when a fragment is drawn: lazily."""
    page_data = campaign_page(campaign, viewer)
    system = get_system(campaign.system)
    boxes = _boxes(system, page_data, bound, request.GET.get("do"), request.GET)
    shown = {box.do or stable_id(box.todo) for box in boxes}
    may_propose = permissions.may_propose(campaign, viewer)
    full_export = permissions.full_export_allowed(
        campaign, viewer, page_data.export_approved, page_data.export_agreed_at
    )
    history = SimpleLazyObject(lambda: _history(campaign, viewer, system, RECENT))

    def state() -> dict[str, Any]:
        return page_data.state

    @functools.cache
    def scenarios() -> list[dict[str, Any]]:
        return _scenarios(system, state(), full=False)

    scenario_rows = SimpleLazyObject(scenarios)

    def private_sides() -> list[tuple[str, Any]]:
        return [
            (state()["sides"][slug]["name"], private)
            for slug, private in (state()["game"] or {}).get("sides", {}).items()
        ]

    return {
        "campaign": campaign,
        "club": campaign.club,
        "viewer": viewer,
        "view_key": viewcache.key(campaign, viewer, "page-fragments"),
        "page": page_data,
        "state": SimpleLazyObject(state),
        "system": system,
        "variant": system.variant(campaign.variant),
        "boxes": [box for box in boxes if not box.todo.optional],
        "more_boxes": [box for box in boxes if box.todo.optional],
        "more_links": [
            (stable_id(t), t) for t in page_data.actions if t.optional and stable_id(t) not in shown
        ],
        "waiting": page_data.waiting,
        "proposals": SimpleLazyObject(lambda: proposal_rows(campaign, viewer, state())),
        "scenario_rows": scenario_rows,
        "sealed_rows": SimpleLazyObject(lambda: _sealed(state(), full=False)),
        "more_scenarios": SimpleLazyObject(lambda: _more_scenarios(scenarios(), state())),
        "house_rule_names": SimpleLazyObject(lambda: house_rule_labels(system)),
        "history": SimpleLazyObject(lambda: history[0]),
        "more_history": SimpleLazyObject(lambda: history[1]),
        "history_forms": may_propose,  # the history holds undo forms: never a cached fragment
        "private_sides": SimpleLazyObject(private_sides),
        "public_game": SimpleLazyObject(lambda: (state()["game"] or {}).get("public") or {}),
        "roster": SimpleLazyObject(lambda: list(visibility.roster_entries_for(viewer, campaign))),
        "system_panel": _system_template(system.panel_template),
        "panel": SimpleLazyObject(lambda: system.panel_context(state())),
        "trends": SimpleLazyObject(lambda: campaign_trends(campaign, viewer)),
        "may_propose": may_propose,
        "full_export": full_export,
        "ask_full_export": permissions.may_ask_full_export(
            viewer, page_data.export_approved, full_export
        ),
        "house_rule_form": _house_rule_form(request, system),
        "rule_table": request.GET.get("rule_table") or "",
        "rule_tables": house_rule_tables(system),
        "proposal_form": ProposalForm(),
        "sides": SimpleLazyObject(
            lambda: [
                (slug, side["name"], side["players"]) for slug, side in state()["sides"].items()
            ]
        ),
        "odds": _odds(campaign, viewer, system),
    }


def _house_rule_form(request: HttpRequest, system: GameSystem) -> HouseRuleForm | None:
    """The house-rule form opened at the table picked (``?rule_table=``), else none."""
    if not request.GET.get("rule_table"):
        return None
    return HouseRuleForm(
        system=system,
        table=request.GET.get("rule_table") or None,
        initial={"row": request.GET.get("rule_row")},
    )


def _odds(campaign: Campaign, viewer: Viewer, system: GameSystem) -> list[dict[str, Any]]:
    """Odds before rolling, for the viewer's own side(s) only (the odds service asks visibility)."""
    if campaign.status != "active":
        return []
    found = odds_service.odds_for(campaign, viewer)
    names = {side.slug: side.name for side in system.sides}
    return [
        dict(entry, name=names.get(slug, slug))
        for slug, entry in found.items()
        if entry["status"] == "pending" or entry.get("rolls")
    ]


@page
def campaign_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, viewer = campaign_for(request.user, pk)
    # A plain GET is served from the page kept for this audience position and seat, forms
    # included; only the CSRF token, the idempotency keys and the live parts are drawn for it.
    kept_as = pages.key(request, campaign, viewer)
    kept = pages.kept(kept_as) if kept_as else None
    if kept is not None:
        return _served(request, campaign, viewer, kept)
    context = page_context(request, campaign, viewer)
    own = _own_page_box(context)
    if own is not None:
        return render(request, "campaigns/form_page.html", dict(context, box=own))
    context["may_archive"] = permissions.may_archive(viewer, campaign)
    context["may_restore"] = permissions.may_restore(viewer, campaign)
    context["may_start_like"] = permissions.may_organize(viewer)  # same club: its organizers
    if kept_as is None:
        return render(request, "campaigns/detail.html", context)
    for number, box in enumerate([*context["boxes"], *context["more_boxes"]]):
        box.key = pages.idempotency_mark(number)
    context.update({pages.KEEPING: True, "csrf_token": pages.CSRF})
    drawn = render_to_string("campaigns/detail.html", context, request)
    pages.keep(kept_as, drawn)
    return _served(request, campaign, viewer, pages.cut(drawn))


def _served(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, kept: pages.Cut
) -> HttpResponse:
    """A kept page with this request's own parts: one CSRF masking for the page and its live parts."""
    token = get_token(request)
    return HttpResponse(pages.served(request, kept, _live(request, campaign, viewer, token), token))


def _live(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, token: str
) -> Callable[[str], str]:
    """What draws a kept page's live parts for this request (campaigns.kept_answers.pages.LIVE):
    each from one plain context, the site's context processors run once for all of them (not
    once per part), with the page's own CSRF token."""
    context: dict[str, Any] = {}
    for processor in engines["django"].engine.template_context_processors:  # type: ignore[attr-defined]
        context.update(processor(request))
    context.update(campaign=campaign, viewer=viewer, csrf_token=token)

    def plain(name: str, extra: dict[str, Any] | None = None) -> str:
        template = get_template(name).template  # type: ignore[attr-defined]  # the engine's own
        return str(template.render(Context({**context, **(extra or {})}, autoescape=True)))

    def drawn(name: str) -> str:
        if name == "_inbox_link.html":
            return _inbox_link(inbox.unread_count(request.user))
        if name != "campaigns/_odds.html":
            return plain(name)
        if campaign.status == "active":  # drawn already at this position: one cache read
            kept = viewcache.kept(campaign, viewer, "odds-part")
            if kept is not viewcache.MISSING:
                return str(kept)
        odds = _odds(campaign, viewer, get_system(campaign.system))
        if any(entry["status"] == "pending" for entry in odds):  # drawn until they are computed
            return plain(name, {"odds": odds})
        # Computed, the odds of a position never change: drawn once per audience position (and
        # never with this request's token in it).
        return viewcache.cached(
            campaign, viewer, "odds-part", lambda: plain(name, {"odds": odds, "csrf_token": ""})
        )

    return drawn


# The header's link to the notices, drawn once per count (and address of the notices page): the
# same for everyone, since it is drawn from the count alone (a template that read more would draw
# it blank, and the kept page would differ from the page drawn afresh: tests/kept_answers).
_INBOX_LINKS: Recent[tuple[object, str, int], str] = Recent(256)


def _inbox_link(count: int) -> str:
    key = (get_urlconf(), get_script_prefix(), count)
    link = _INBOX_LINKS.get(key)
    if link is None:
        template = get_template("_inbox_link.html").template  # type: ignore[attr-defined]  # the engine's own
        link = str(template.render(Context({"unread_notices": count}, autoescape=True)))
        _INBOX_LINKS.put(key, link)
    return link


def _own_page_box(context: dict[str, Any]) -> ActionBox | None:
    """The long form asked for (``?do=<id>`` of a Action.own_page), drawn on a page of its own."""
    return next(
        (
            box
            for box in [*context["boxes"], *context["more_boxes"]]
            if box.todo.own_page and not box.elsewhere
        ),
        None,
    )


@page
@require_POST
def campaign_submit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    if sent_later.asked(request) and not sent_later.same_person(request):
        return sent_later.another_person()
    campaign, viewer = campaign_for(request.user, pk)
    page_data = campaign_page(campaign, viewer)
    system = get_system(campaign.system)
    kind, side = actions.posted_kind(request.POST)
    todos = page_data.offered()
    todo = actions.match(todos, kind, side, request.POST) or actions.posted_todo(kind, side)
    listed = stable_id(todo)
    todo, _ = actions.with_choice(todo, request.POST)  # the form drawn for the field picked first
    todo, _ = actions.with_pick(
        todo, request.POST
    )  # the rows its own page drew (all, if it sent none)
    if kind not in CORE_KINDS:  # the same rows the page drew (a suggested set-up may have more)
        todo = replace(todo, initial={**suggested_data(campaign, kind), **todo.initial})
    box = actions.build(system, page_data.state, todo, request.POST)
    if box is None:
        return _refused(
            request, campaign, viewer, "That is not something one can do in this campaign."
        )
    box.key = request.POST.get("idempotency_key") or box.key
    box.do = listed
    box.picked = todo.initial.get(actions.PICKS) if todo.pick else None
    if not box.drawn.is_valid():
        return _again(request, campaign, viewer, box)
    dice = box.drawn.dice()
    if box.drawn.errors:
        return _again(request, campaign, viewer, box)
    data = system.form_data(page_data.state, todo.side or side, kind, box.drawn.event_data())
    then = todo.then if request.POST.get("_then") else ()
    try:
        if (
            then or todo.before
        ):  # with the events folded in before it / the second button's: all or none
            submissions = submit_then(
                campaign,
                request.user,
                kind,
                data,
                then,
                before=todo.before,
                side=todo.side or side,
                dice=dice,
                idempotency_key=box.key[:80],
            )
        else:
            submissions = [
                submit(
                    campaign,
                    request.user,
                    kind,
                    data,
                    side=todo.side or side,
                    dice=dice,
                    idempotency_key=box.key[:80],
                )
            ]
    except DiceNeeded as need:
        return _again(
            request, campaign, viewer, _dice_box(system, page_data.state, todo, box, need)
        )
    except DomainError as error:
        box.drawn.add_domain_error(error.field, error.message)
        return _again(request, campaign, viewer, box)
    said = connection_loss.after_commit(
        lambda: " ".join(
            _submitted_message(campaign, viewer, submission, todo) for submission in submissions
        ),
        lambda: f"Saved: {todo.label}. (The page could not say more just now.)",
        what="message after a submission",
    )
    if sent_later.asked(request):
        return sent_later.sent(said, replayed=all(s.replayed for s in submissions))
    messages.success(request, said)
    return done(request, reverse("campaign", args=[campaign.pk]) + "#now")


def _submitted_message(
    campaign: Campaign, viewer: Viewer, submission: Submission, todo: Action
) -> str:
    """What the page says after a submission: read after it committed (a lost connection is retried,
    and the submission is never answered with an error: muster.connection_loss)."""
    campaign.refresh_from_db()
    lines = [] if submission.replayed else submission_report(campaign, viewer, submission)
    said = submitted_words(campaign, viewer, submission)
    return " ".join([said or f"Done: {todo.label}.", *lines])


def _dice_box(
    system: GameSystem, view: dict[str, Any], todo: Action, box: ActionBox, need: DiceNeeded
) -> ActionBox:
    """The form again, asking for the dice still needed and keeping every die typed so far
    (a follow-up roll, such as the attached weapon of an "Attached" RG, asks for more)."""
    asked = {n["key"] for n in need.needs}
    kept = [d for d in box.drawn.posted_dice() if d["key"] not in asked]
    needs = [dict(n, label=system.roll_label(view, n["key"])) for n in need.needs]
    kept = [dict(d, label=system.roll_label(view, d["key"])) for d in kept]
    initial = {k: v for k, v in box.drawn.cleaned_data.items() if not k.startswith("dice")}
    shown = actions.build(system, view, todo, dice_needs=[*kept, *needs], initial=initial)
    assert shown is not None, "the to-do whose form was posted builds a form"
    shown.key, shown.do, shown.picked = box.key, box.do, box.picked
    # Every die due at once may be a couple of dozen: each field names its roll.
    shown.notice = (
        "Enter the dice rolled at the table for: " + "; ".join(n["label"] for n in needs) + "."
        if len(needs) <= 3
        else f"Enter the dice rolled at the table for the {len(needs)} rolls below."
    )
    return shown


def _refused(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, message: str
) -> HttpResponse:
    """Nothing on the page matches what was posted: say so on the page itself (with htmx,
    the page reloads with the message instead of being pasted inside the form)."""
    if sent_later.asked(request):
        return sent_later.refused(message)
    messages.error(request, message)
    if is_htmx(request):
        return done(request, reverse("campaign", args=[campaign.pk]))
    return render(
        request, "campaigns/detail.html", page_context(request, campaign, viewer), status=400
    )


def _again(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, box: ActionBox
) -> HttpResponse:
    """The page again with the refused form and its errors (400); nothing was written."""
    if sent_later.asked(request):
        return sent_later.refused_form(request, campaign, viewer, box)
    if is_htmx(request):
        box.open = True
        return render(
            request,
            "campaigns/_action.html",
            {"box": box, "campaign": campaign, "viewer": viewer},
            status=400,
        )
    context = page_context(request, campaign, viewer, bound=box)
    if box.todo.own_page:  # a long form comes back on its own page
        box.open = True
        return render(request, "campaigns/form_page.html", dict(context, box=box), status=400)
    return render(request, "campaigns/detail.html", context, status=400)


# --- proposals ------------------------------------------------------------------------------


def _propose(
    request: AuthenticatedHttpRequest, campaign: Campaign, data: dict[str, Any], success: str
) -> HttpResponse | None:
    try:
        submit(campaign, request.user, "proposal.made", data)
    except DomainError as error:
        messages.error(request, f"Not proposed: {error.message}")
        return None
    messages.success(request, success)
    return done(request, reverse("campaign", args=[campaign.pk]) + "#proposals")


@page
@require_POST
def propose_undo(request: AuthenticatedHttpRequest, pk: int, uid: uuid.UUID) -> HttpResponse:
    campaign, viewer = campaign_for(request.user, pk)
    entry = history_entry(campaign, viewer, str(uid))
    form = ProposalForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    answer = _propose(
        request,
        campaign,
        {"action": "undo", "target": entry.uid, "reason": reason},
        f"Undo of “{entry.text}” proposed; it applies once the other side agrees.",
    )
    if answer is None:
        context = page_context(request, campaign, viewer)
        return render(request, "campaigns/detail.html", context, status=400)
    return answer


@page
def propose_correction(request: AuthenticatedHttpRequest, pk: int, uid: uuid.UUID) -> HttpResponse:
    campaign, viewer = campaign_for(request.user, pk)
    entry = history_entry(campaign, viewer, str(uid))
    page_data = campaign_page(campaign, viewer)
    system = get_system(campaign.system)
    fixed = {"key": entry.data.get("key")} if entry.kind == "sealed.submitted" else {}
    todo = Action(entry.kind, "Propose this correction", entry.side or None, initial=fixed)
    initial = _flat(entry.data)
    box = actions.build(
        system, page_data.state, todo, request.POST or None, initial=initial, concrete=False
    )
    if box is None or not permissions.correctable(system, entry.kind):
        messages.error(request, "This event cannot be corrected; propose to undo it instead.")
        return done(request, reverse("campaign-history", args=[campaign.pk]))
    # A proposal's own form: the corrected data plus a reason, its input named apart from the
    # event's own fields (a retained unit's edit has a "reason" of its own).
    reason_form = ProposalForm(request.POST or None, prefix="proposal", auto_id="id_%s")
    if request.method == "POST" and box.drawn.is_valid() and reason_form.is_valid():
        try:
            submit(
                campaign,
                request.user,
                "proposal.made",
                {
                    "action": "correct",
                    "target": entry.uid,
                    "data": box.drawn.event_data(),
                    "reason": reason_form.cleaned_data["reason"],
                },
            )
        except DomainError as error:
            box.drawn.add_domain_error(error.field.removeprefix("data."), error.message)
        else:
            messages.success(request, "Correction proposed; it applies once the other side agrees.")
            return done(request, reverse("campaign", args=[campaign.pk]) + "#proposals")
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "campaigns/correct.html",
        {
            "campaign": campaign,
            "entry": entry,
            "box": box,
            "reason_form": reason_form,
        },
        status=status,
    )


def _flat(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and all(not isinstance(v, (dict, list)) for v in value.values()):
            out.update({f"{key}.{k}": v for k, v in value.items()})
        out[key] = value
    return out


@page
@require_POST
def propose_house_rule(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, viewer = campaign_for(request.user, pk)
    form = HouseRuleForm(request.POST, system=get_system(campaign.system))
    reason = ProposalForm(request.POST)
    if form.is_valid() and reason.is_valid():
        rule = {
            "key": form.cleaned_data["key"].strip(),
            "value": form.cleaned_data["value"],
            "note": form.cleaned_data["note"],
        }
        answer = _propose(
            request,
            campaign,
            {"action": "house_rule", "data": rule, "reason": reason.cleaned_data["reason"]},
            "House rule proposed; it applies once every side agrees.",
        )
        if answer is not None:
            return answer
    context = page_context(request, campaign, viewer)
    context["house_rule_form"] = form
    return render(request, "campaigns/detail.html", context, status=400)


@page
@require_POST
def propose_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, viewer = campaign_for(request.user, pk)
    answer = _propose(
        request,
        campaign,
        {"action": "export"},
        "Full export proposed; the organizers may download it once every side agrees.",
    )
    if answer is None:
        return render(
            request, "campaigns/detail.html", page_context(request, campaign, viewer), status=400
        )
    return answer


# --- history and export -----------------------------------------------------------------------


@page
def campaign_records(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A game's records in full (each side's units, rolls …, as the viewer may read them): the
    campaign page shows their summary and links here, so it does not grow with the campaign."""
    campaign, viewer = campaign_for(request.user, pk)
    system = get_system(campaign.system)
    template = _system_template(system.records_template)
    if template is None:
        raise Http404("This game keeps no records page.")
    state = campaign_page(campaign, viewer).state
    return HttpResponse(
        template.render(
            {
                "campaign": campaign,
                "club": campaign.club,
                "viewer": viewer,
                "state": state,
                "panel": system.panel_context(state),
                "may_propose": permissions.may_propose(campaign, viewer),
            },
            request,
        )
    )


@page
def campaign_scenarios(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Every scenario with its result and notes, and every sealed choice (the campaign page shows
    the current and the last played)."""
    campaign, viewer = campaign_for(request.user, pk)
    system = get_system(campaign.system)
    state = campaign_page(campaign, viewer).state
    return render(
        request,
        "campaigns/scenarios.html",
        {
            "campaign": campaign,
            "club": campaign.club,
            "viewer": viewer,
            "state": state,
            "scenario_rows": _scenarios(system, state),
            "sealed_rows": _sealed(state),
            "more_scenarios": False,
        },
    )


@page
def campaign_procedure(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The between-game procedure step by step, for the viewer's side(s) (the campaign page says
    only what is still to do, and links here)."""
    campaign, viewer = campaign_for(request.user, pk)
    page_data = campaign_page(campaign, viewer)
    return render(
        request,
        "campaigns/procedure.html",
        {
            "campaign": campaign,
            "club": campaign.club,
            "viewer": viewer,
            "state": page_data.state,
            "procedure": page_data.procedure,
        },
    )


@page
def campaign_history(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The history, HISTORY_PAGE entries a page (``?page=2``: the older ones), newest first. Its
    first page (a plain GET) is kept whole per audience position and seat, as the campaign page
    is, its undo forms included; the other pages are drawn for each request."""
    campaign, viewer = campaign_for(request.user, pk)
    kept_as = pages.key(request, campaign, viewer, "history-page")
    kept = pages.kept(kept_as) if kept_as else None
    if kept is not None:
        return _served(request, campaign, viewer, kept)
    system = get_system(campaign.system)
    asked = request.GET.get("page", "")
    number = int(asked) if asked.isdigit() and 0 < len(asked) < 7 and int(asked) > 0 else 1
    shown = _history_page(campaign, viewer, system, number)  # the kept entries, one page's rows
    # Lazy: a kept history fragment needs no state.
    context = {
        "campaign": campaign,
        "viewer": viewer,
        "view_key": viewcache.key(campaign, viewer, f"history-page:{shown['number']}"),
        "history": shown["rows"],
        "history_start": shown["start"],
        "shown": shown,
        "history_forms": permissions.may_propose(campaign, viewer),
        "state": SimpleLazyObject(lambda: campaign_page(campaign, viewer).state),
        "proposal_form": ProposalForm(),
    }
    if kept_as is None:
        return render(request, "campaigns/history.html", context)
    context.update({pages.KEEPING: True, "csrf_token": pages.CSRF})
    drawn = render_to_string("campaigns/history.html", context, request)
    pages.keep(kept_as, drawn)
    return _served(request, campaign, viewer, pages.cut(drawn))


@page
def campaign_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, viewer = campaign_for(request.user, pk)
    journal = journal_files.export_journal(campaign, viewer)
    scope = journal["scope"].replace(":", "-").replace(",", "-")
    response = HttpResponse(
        json.dumps(journal, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-{scope}.json"'
    patch_cache_control(
        response, private=True, no_store=True
    )  # a side's journal: never kept by a shared cache
    return response
