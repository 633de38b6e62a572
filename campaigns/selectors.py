"""Reads for pages, API, exports and sheets: always cut to what the viewer may see.

Pages and API call these and render what they get; neither filters by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Callable

from . import viewcache, visibility
from .errors import Forbidden, NotFound
from .models import Campaign
from .proposals import is_complete, referee_may_approve, standing_in
from .records import Record, Viewer
from .seats import may_settle
from .services.state import current_state, current_states
from .systems import get_system


@dataclass
class CampaignPage:
    """What a campaign page or API answer shows a viewer. The parts are kept per audience
    (campaigns.viewcache); the whole cut of the state (`state`) is loaded only when asked for."""

    campaign: Campaign
    viewer: Viewer
    actions: list = field(default_factory=list)
    procedure: list = field(default_factory=list)
    standings: list = field(default_factory=list)
    proposals: dict = field(
        default_factory=dict
    )  # the cut's proposals (reject to-dos need no more)
    waiting: list = field(default_factory=list)  # whom the campaign waits for, in words
    export_approved: bool = False  # the cut's: every side agreed to a full export
    load: Callable[[], dict] | None = field(default=None, repr=False)

    @cached_property
    def state(self) -> dict:
        """The viewer's cut of the state (visibility.view_state)."""
        return self.load()


def campaign_for(user, pk) -> tuple[Campaign, Viewer]:
    campaign, viewer = visibility.campaign_and_viewer(user, pk)
    if not viewer.member:
        raise NotFound("campaign")
    return campaign, viewer


def campaign_page(campaign: Campaign, viewer: Viewer) -> CampaignPage:
    full: dict = {}

    def state() -> dict:
        if "state" not in full:
            full["state"] = current_state(campaign)
        return full["state"]

    def parts() -> dict:
        system = get_system(campaign.system)
        cut = visibility.view_state(state(), viewer)
        return {
            "actions": actions_for(state(), viewer),
            "procedure": [
                s
                for s in system.procedure(state(), viewer.sides)
                if s.side is None or s.side in viewer.sides or viewer.referee
            ],
            "standings": system.standings(state()) if state()["game"] is not None else [],
            "proposals": cut["proposals"],
            "waiting": waiting_on(cut, viewer),
            "export_approved": bool(cut["export_approved"]),
        }

    def cut() -> dict:
        return viewcache.cached(
            campaign, viewer, "view", lambda: visibility.view_state(state(), viewer)
        )

    # One who plays no side may settle, or stand in for a side, by who they are (whether they
    # played, whom they left): their to-dos are kept per person, not per audience.
    kept_as = "page" if viewer.sides else f"page:{viewer.username}"
    return CampaignPage(
        campaign, viewer, **viewcache.cached(campaign, viewer, kept_as, parts), load=cut
    )


@dataclass(frozen=True)
class Todo:
    """Something waiting for this viewer: an event to submit, with a label."""

    kind: str
    label: str
    side: str | None = None
    rule: str = ""
    initial: dict = field(default_factory=dict)
    help: str = ""
    optional: bool = False  # offered, but nothing waits for it
    button: str = ""
    choose: str = ""  # a field picked first on its own (systems.base.Action.choose)
    choose_button: str = ""
    links: tuple = ()  # ((words, href relative to the campaign page), ...)
    then: tuple = ()  # events a second button sends after this one (systems.base.Action.then)
    then_button: str = ""
    before: tuple = ()  # events sent before this one (systems.base.Action.before)
    own_page: bool = False  # a long form on a page of its own (systems.base.Action.own_page)
    pick: str = ""  # its rows picked first (systems.base.Action.pick)


def actions_for(state: dict, viewer: Viewer) -> list[Todo]:
    """What this viewer can (or should) do now, core and game actions together."""
    todos: list[Todo] = []
    if state["status"] != "active":
        return todos
    system = get_system(state["system"])
    acting = (
        [viewer.playing] if viewer.playing else (list(state["sides"]) if viewer.referee else [])
    )
    # The referee acts for every side: each of his to-dos names the side it is for.
    for_side = _referee_words(state) if viewer.referee and not viewer.playing else None
    current = state["current"]
    if current is not None:
        scenario = state["scenarios"][current]
        if (
            scenario["status"] == "current"
            and acting
            and system.result_open(state, current) is None
        ):
            if for_side:  # the referee's result is final (core_events._result_submitted)
                todos.append(
                    Todo(
                        "result.submitted",
                        f"Enter the result of {scenario['label']} (final: the "
                        "referee's result needs no confirmation)",
                        None,
                        initial={"scenario": current},
                    )
                )
            else:
                todos.append(
                    Todo(
                        "result.submitted",
                        f"Enter the result of {scenario['label']}",
                        acting[0],
                        initial={"scenario": current},
                    )
                )
        what = system.pending_words(state, current)
        if scenario["status"] == "pending":
            by = scenario["pending"]["side"]
            if viewer.referee or (viewer.playing and viewer.playing != by):
                todos.append(
                    Todo(
                        "result.confirmed",
                        f"Confirm {what}",
                        viewer.playing,
                        initial={"scenario": current},
                    )
                )
                if viewer.playing:
                    todos.append(
                        Todo(
                            "result.disputed",
                            f"Dispute {what}",
                            viewer.playing,
                            initial={"scenario": current},
                        )
                    )
            if viewer.playing == by:
                todos.append(
                    Todo(
                        "result.withdrawn",
                        f"Withdraw {_yours(what)}",
                        viewer.playing,
                        initial={"scenario": current},
                    )
                )
        if scenario["status"] in ("pending", "disputed") and may_settle(state, viewer):
            todos.append(
                Todo("result.resolved", f"Settle {what}", None, initial={"scenario": current})
            )
    for key, sealed in state["sealed"].items():
        for side in acting:
            if sealed["open"] and side in sealed["sides"] and side not in sealed["choices"]:
                label = f"Choose: {sealed['label']}"
                todos.append(
                    Todo(
                        "sealed.submitted",
                        for_side(side, label) if for_side else label,
                        side,
                        initial={"key": key},
                        help=_options_help(sealed),
                    )
                )
    for proposal in state["proposals"].values():
        if proposal["status"] != "pending" or is_complete(proposal):
            continue
        as_referee = viewer.referee and referee_may_approve(proposal)
        as_side = viewer.playing in proposal["needs"] and viewer.playing not in proposal["approved"]
        if as_referee or as_side or standing_in(state, proposal, viewer.username):
            todos.append(
                Todo(
                    "proposal.approved",
                    f"Agree to {proposal_summary(proposal, state)}",
                    viewer.playing,
                    initial={"proposal": proposal["uid"]},
                )
            )
    played = [s for s in state["scenarios"] if s["status"] != "upcoming"]
    if played and (viewer.playing or viewer.referee):
        todos.append(
            Todo(
                "note.added",
                "Write an after-action note",
                viewer.playing,
                optional=True,
                initial={"scenario": played[-1]["index"]},
                button="Add the note",
            )
        )
    joint_seen = set()
    for side in acting:
        for action in system.actions(state, side):
            label, acting_side = action.label, side
            if for_side and action.joint:  # either side's to-do for both: once, for no side
                seen = (action.kind, repr(sorted(action.initial.items())))
                if seen in joint_seen:
                    continue
                joint_seen.add(seen)
                acting_side = None
            elif for_side:
                label = action.referee_label or for_side(side, label)
            todos.append(
                Todo(
                    action.kind,
                    label,
                    acting_side,
                    action.rule,
                    action.initial,
                    action.help,
                    action.optional,
                    action.button,
                    action.choose,
                    action.choose_button,
                    tuple(action.links),
                    tuple(action.then),
                    action.then_button,
                    tuple(action.before),
                    action.own_page,
                    action.pick,
                )
            )
    if system.long_forms:  # the core's to-dos whose form this game makes long: a page of their own
        todos = [replace(t, own_page=True) if t.kind in system.long_forms else t for t in todos]
    return todos


def _yours(what: str) -> str:
    """ "the result of X" -> "your result of X"; "the German's record of X" -> "your record of X"."""
    if what.startswith("the result of"):
        return "your" + what[len("the") :]
    head, _, rest = what.partition("'s ")
    return f"your {rest}" if rest and head.startswith("the ") else what


def _referee_words(state: dict) -> Callable[[str, str], str]:
    names = {slug: side["name"] for slug, side in state["sides"].items()}
    return lambda side, label: f"{names.get(side, side)}: {label}"


def proposal_summary(proposal: dict, state: dict) -> str:
    """A proposal in words, as far as every reader of it may know ("seat carol as referee")."""
    if proposal["action"] == "seat" and isinstance(proposal.get("data"), dict):
        kind, data = proposal["data"]["kind"], proposal["data"]["data"]
        side = state["sides"].get(data.get("side"), {}).get("name", data.get("side"))
        if kind == "referee.assigned":
            return f"seat {data['username']} as referee"
        if kind == "player.assigned":
            return f"seat {data['username']} with {side}"
        if kind == "player.removed":
            return f"take {data['username']} off {side}"
        return f"seat {data['new']} with {side} instead of {data['old']}"
    return f"a proposed {proposal['action'].replace('_', ' ')}"


def _options_help(sealed) -> str:
    return "The choice stays hidden until every side has chosen; then they are revealed together."


@dataclass(frozen=True)
class HistoryEntry:
    uid: str
    kind: str
    text: str
    actor: str
    side: str
    audience: str
    at: str
    data: dict
    undone: bool
    corrected: bool


def history(campaign: Campaign, viewer: Viewer, state: dict | None = None) -> list[HistoryEntry]:
    """The journal as this viewer may read it, newest last.

    Undone/corrected marks come from the full state, but only for events the
    viewer can read; sequence numbers never leave the server (they would count
    the other side's hidden events).
    """
    state = state if state is not None else current_state(campaign)
    system = get_system(campaign.system)
    view = visibility.view_state(state, viewer)
    entries = []
    for event in visibility.events_for(viewer, campaign).order_by("seq"):
        record = Record.from_event(event)
        entries.append(
            HistoryEntry(
                uid=record.uid,
                kind=record.kind,
                text=describe(system, record, view),
                actor=record.actor,
                side=record.side,
                audience=record.audience,
                at=record.at,
                data=record.data,
                undone=str(record.seq) in state["undone"],
                corrected=str(record.seq) in state["corrected"],
            )
        )
    return entries


def describe(system, record: Record, state: dict) -> str:
    """One event in words for someone who may read it; ``state`` is that reader's cut."""
    data = record.data
    side_name = state["sides"].get(record.side, {}).get("name", "") if record.side else ""
    own = system.history_text(record, state) if state and record.kind != "dice.rolled" else None
    if own:
        return f"{side_name}: {own}" if side_name else own
    text = {
        "campaign.created": f"Campaign “{data.get('name')}” created",
        "player.assigned": f"{data.get('username')} joins {state['sides'].get(data.get('side'), {}).get('name')}",
        "player.removed": f"{data.get('username')} leaves {state['sides'].get(data.get('side'), {}).get('name')}",
        "player.replaced": f"{data.get('new')} replaces {data.get('old')}",
        "referee.assigned": f"Referee: {data.get('username') or 'none'}",
        "note.added": f"After-action note on {_label(state, data.get('scenario'))}: “{data.get('text')}”",
        "house_rule.set": f"House rule: {house_rule_labels(system).get(data.get('key'), data.get('key'))}"
        f" = {data.get('value')}",
        "campaign.started": "Campaign started",
        "campaign.finished": f"Campaign ended: {data.get('reason')}",
        "dice.rolled": _describe_dice(system, state, data),
        "journal.upgraded": _describe_upgrade(system, data),
        "sealed.revealed": "Choices revealed: "
        + ", ".join(
            f"{state['sides'].get(s, {}).get('name', s)} {c}"
            for s, c in (data.get("choices") or {}).items()
        ),
    }.get(record.kind)
    if text is None:
        from .core_events import KINDS

        kind = KINDS.get(record.kind)
        text = kind.label if kind else system.describe(record)
    return f"{side_name}: {text}" if side_name else text


def _label(state: dict, index) -> str:
    try:
        return state["scenarios"][index]["label"]
    except (IndexError, KeyError, TypeError):
        return "a scenario"


def _describe_upgrade(system, data: dict) -> str:
    """journal.upgraded in words: which Muster, which journal, what the step did."""
    from . import versions

    journal = data.get("journal")
    steps = versions.steps_of(journal, system) if journal in (versions.CORE, system.slug) else {}
    step = steps.get(data.get("from"))
    name = "Muster's own events" if journal == versions.CORE else system.name
    words = step.words if step is not None else str(data.get("step", ""))
    count = data.get("count") or 0
    listed = f" ({count} event{'s' if count != 1 else ''} here)" if count else ""
    return (
        f"Muster {data.get('release')} upgraded this journal: {name}, version {data.get('from')} to "
        f"{data.get('to')}: {words}{listed}"
    )


def _describe_dice(system, view: dict, data: dict) -> str:
    sentence = system.describe_roll(view, data) if view else None
    if sentence:
        return sentence
    how = "rolled by Muster" if data.get("source") == "server" else "entered from the table"
    label = system.roll_label(view, data.get("key", "")) if view else data.get("key", "")
    return f"{label}: {' + '.join(map(str, data.get('dice', [])))} ({how})"


def result_to_confirm(state: dict, index: int) -> dict | None:
    """The result waiting for confirmation in scenario `index`, in the words a person confirms or
    disputes it by: who entered it and every field as sentences (the game's result_words, with
    what it implies). `state` is the viewer's cut; the result itself is public."""
    from .context import Ctx

    scenario = state["scenarios"][index]
    pending = scenario.get("pending")
    if not pending:
        return None
    system = get_system(state["system"])
    side = (
        state["sides"].get(pending.get("side"), {}).get("name")
        if pending.get("side")
        else "the referee"
    )
    return {
        "label": scenario["label"],
        "what": system.pending_words(state, index),
        "by": pending.get("by"),
        "side": side,
        "lines": system.result_words(state, index, pending.get("data"), Ctx.reading(system, state)),
    }


def submitted_words(campaign: Campaign, viewer: Viewer, submission) -> str | None:
    """The submitted event in the game's own words for the person who sent it (the message after
    a submission), or None."""
    if submission.replayed or not submission.events or submission.state is None:
        return None
    system = get_system(campaign.system)
    event = submission.events[0]
    if not viewer.can_read(event.audience, event.side):
        return None
    return system.submitted_words(
        visibility.view_state(submission.state, viewer), Record.from_event(event)
    )


def submission_report(campaign: Campaign, viewer: Viewer, submission) -> list[str]:
    """What a submission did, in sentences this viewer may read (its rolls and their results,
    a reveal, an applied proposal), without the submitted event itself."""
    entries = entries_for_events(campaign, viewer, submission.events, submission.state)
    return [entry.text + ("" if entry.text.endswith((".", "!")) else ".") for entry in entries[1:]]


def waiting_on(state: dict, viewer: Viewer | None = None) -> list[str]:
    """Whom a campaign waits for, in words anyone in the club may read (never a side's secret);
    the viewer's own side is "you"."""
    if state["status"] != "active":
        return []
    system = get_system(state["system"])
    names = {slug: side["name"] for slug, side in state["sides"].items()}
    if viewer is not None and viewer.playing in names:
        names[viewer.playing] = "you"
    out = []
    current = state["current"]
    if current is not None:
        scenario = state["scenarios"][current]
        what = system.pending_words(state, current)
        if scenario["status"] == "pending":
            others = [names[s] for s in names if s != scenario["pending"]["side"]]
            out.append(f"{' or '.join(others) or 'the referee'} to confirm {what}")
        elif scenario["status"] == "disputed":
            out.append(f"the referee to settle {what}")
    for sealed in state["sealed"].values():
        if sealed["open"] and not sealed["revealed"]:
            chosen = set(
                sealed.get("submitted") or sealed["choices"]
            )  # a viewer's cut lists who chose
            missing = [names[s] for s in sealed["sides"] if s not in chosen]
            if missing:
                out.append(f"{', '.join(missing)}: {sealed['label']}")
    for proposal in state["proposals"].values():
        if proposal["status"] == "pending" and not is_complete(proposal):
            missing = [names[s] for s in proposal["needs"] if s not in proposal["approved"]] or [
                "the referee"
            ]
            out.append(
                f"{' and '.join(missing)} to answer a proposed {proposal['action'].replace('_', ' ')}"
            )
    for side, words in system.waiting_on(state):
        name = state["sides"][side]["name"] if side in state["sides"] else None
        if names.get(side) == "you" and name and words.startswith(name):
            words = (
                "you" + words[len(name) :]
            )  # "Allied: ..." -> "you: ..."; other words stay as written
        out.append(words)
    return out


def waiting_for(user) -> list[tuple[Campaign, list[Todo]]]:
    """The dashboard's "what waits for me": campaigns in play with something to do."""
    # Viewers and states are fetched for all campaigns at once: the dashboard's
    # queries must not grow with the number of campaigns.
    campaigns = list(visibility.campaigns_for(user).filter(status=Campaign.ACTIVE))
    viewers = visibility.viewers_for(user, campaigns)
    involved = [
        c
        for c in campaigns
        if viewers[c.pk].playing or viewers[c.pk].referee or viewers[c.pk].arbiter
    ]
    states = current_states(involved)
    found = []
    for campaign in involved:
        todos, seen = [], set()
        for todo in actions_for(states[campaign.pk], viewers[campaign.pk]):
            if todo.optional or todo.label in seen:
                continue  # the referee acting for both sides sees a shared step once
            seen.add(todo.label)
            todos.append(todo)
        if todos:
            found.append((campaign, todos))
    return found


# --- for the API: events named by uid ------------------------------------------------------

_EVENT_REFS = ("target", "proposal")  # keys of proposal.* data that name another event by seq


def history_by_uid(
    campaign: Campaign, viewer: Viewer, state: dict | None = None
) -> list[HistoryEntry]:
    """``history``, with the references of proposal events to other events given as
    uids: the journal stores sequence numbers, which would count hidden events. Kept per
    audience (campaigns.viewcache)."""
    return viewcache.cached(
        campaign,
        viewer,
        "history",
        lambda: _refs_as_uids(campaign, history(campaign, viewer, state)),
    )


def history_tail(campaign: Campaign, viewer: Viewer, count: int) -> tuple[list[HistoryEntry], bool]:
    """The newest `count` entries of ``history_by_uid`` (oldest first) and whether there are more."""

    def tail():
        entries = history_by_uid(campaign, viewer)
        return entries[-count:], len(entries) > count

    return viewcache.cached(campaign, viewer, f"history:last:{count}", tail)


def entries_for_events(
    campaign: Campaign, viewer: Viewer, events, state: dict
) -> list[HistoryEntry]:
    """History entries for given Event rows (a submission's), only those the viewer
    may read, named by uid like ``history_by_uid``."""
    system = get_system(campaign.system)
    view = visibility.view_state(state, viewer)
    entries = []
    for event in events:
        if not viewer.can_read(event.audience, event.side):
            continue
        record = Record.from_event(event)
        entries.append(
            HistoryEntry(
                uid=record.uid,
                kind=record.kind,
                text=describe(system, record, view),
                actor=record.actor,
                side=record.side,
                audience=record.audience,
                at=record.at,
                data=record.data,
                undone=str(record.seq) in state["undone"],
                corrected=str(record.seq) in state["corrected"],
            )
        )
    return _refs_as_uids(campaign, entries)


def _refs_as_uids(campaign: Campaign, entries: list[HistoryEntry]) -> list[HistoryEntry]:
    def refs(entry):
        if not entry.kind.startswith("proposal."):
            return {}
        return {k: v for k, v in entry.data.items() if k in _EVENT_REFS and isinstance(v, int)}

    wanted = {seq for entry in entries for seq in refs(entry).values()}
    if not wanted:
        return entries
    uid_of = {
        seq: str(uid)
        for seq, uid in campaign.events.filter(seq__in=wanted).values_list("seq", "uid")
    }
    return [
        replace(
            entry, data={**entry.data, **{k: uid_of.get(seq) for k, seq in refs(entry).items()}}
        )
        if refs(entry)
        else entry
        for entry in entries
    ]


def proposal_rows(campaign: Campaign, viewer: Viewer, view: dict) -> dict:
    """The viewer's cut of the proposals, each with what it is about in words and, for a
    correction, what it changes (before → after), for the page."""
    system = get_system(campaign.system)
    targets = {p.get("target_uid") for p in view["proposals"].values() if p.get("target_uid")}
    events = {
        str(e.uid): e for e in visibility.events_for(viewer, campaign).filter(uid__in=targets)
    }
    rows = {}
    for uid, proposal in view["proposals"].items():
        row = dict(proposal)
        event = events.get(proposal.get("target_uid") or "")
        if event is not None and not proposal.get("hidden"):
            record = Record.from_event(event)
            row["target_text"] = describe(system, record, view)
            if proposal["action"] == "correct" and isinstance(proposal.get("data"), dict):
                kind = system.event_kind(record.kind)
                row["changes"] = _changes(
                    record.data, proposal["data"], kind.fields if kind else ()
                )
        rows[uid] = row
    return rows


def _changes(before: dict, after: dict, fields=()) -> list[tuple[str, str, str]]:
    """What a correction changes, in words: each field by its label, each value by its words
    (a choice's label, yes/no for a tick), as the event kind declares them."""
    by_name = {f.name: f for f in fields}
    return [
        (
            _field_title(by_name.get(key), key),
            _value_words(by_name.get(key), before.get(key)),
            _value_words(by_name.get(key), after.get(key)),
        )
        for key in after
        if before.get(key) != after.get(key)
    ]


def _field_title(f, key: str) -> str:
    return f.title if f is not None else key.replace("_", " ").capitalize()


def _lower_first(text: str) -> str:
    """ "Fate" -> "fate", but "PP over IPC" stays as it is."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _value_words(f, value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value in (None, ""):
        return "—"
    if isinstance(value, list):
        item = f.item if f is not None else None
        return ", ".join(_value_words(item, v) for v in value) or "none"
    if isinstance(value, dict):
        subs = {s.name: s for s in (f.fields if f is not None else ())}
        return "; ".join(
            f"{_lower_first(_field_title(subs.get(k), k))} {_value_words(subs.get(k), v)}"
            for k, v in value.items()
        )
    if f is not None and f.choices:
        return f.choice_label(value)
    return str(value)


def club_invitations(*, user, club):
    """A club's invitations: organizers only (they hold the codes)."""
    if not visibility.is_organizer(user, club):
        raise Forbidden("Only a club organizer can see invitations.")
    return club.invitations.select_related("created_by", "accepted_by")


# --- for the pages --------------------------------------------------------------------------


def invitation_by_code(code: str):
    """(invitation, None) when the code can be used, else (None, why not) in words
    a visitor may read: the club of a dead code is not named."""
    from django.utils import timezone

    from .models import Invitation

    invitation = Invitation.objects.select_related("club").filter(code=code).first()
    if invitation is None:
        return (
            None,
            "This invitation code is not known. Check the link, or ask the organizer for a new one.",
        )
    if invitation.revoked:
        return None, "This invitation was withdrawn by the club. Ask the organizer for a new one."
    if invitation.accepted_at is not None:
        return None, "This invitation has already been used. Each invitation admits one person."
    if invitation.expires_at <= timezone.now():
        return None, "This invitation has expired. Ask the organizer for a new one."
    return invitation, None


@dataclass
class ClubPage:
    club: object
    role: str | None
    members: list
    campaigns: list
    invitations: list | None  # organizers only
    log: list | None = None  # organizers only: who changed members, roles, invitations
    comparisons: list = field(
        default_factory=list
    )  # [Comparison]: the club's campaigns side by side
    waiting: dict = field(default_factory=dict)  # campaign pk -> whom it waits for, in words


@dataclass(frozen=True)
class Comparison:
    """The club's campaigns of one game system side by side (GameSystem.comparison_row)."""

    system: str
    columns: tuple[str, ...]
    rows: tuple  # (campaign, players, dice in words, values) per campaign


DICE_WORDS = {
    frozenset(): "none rolled yet",
    frozenset({"server"}): "rolled by the server",
    frozenset({"entered"}): "entered from the table",
    frozenset({"server", "entered"}): "server and entered",
}


def club_comparisons(campaigns) -> list[Comparison]:
    """For each game system that compares its campaigns, one table of the campaigns' rows, read
    from what any club member may see of each (never a side's private part), with who plays and
    how the public dice were rolled."""
    from .models import Event, SidePlayer
    from .systems import all_systems

    systems = all_systems()
    compared = [
        c
        for c in campaigns
        if c.system in systems
        and systems[c.system].comparison_columns
        and c.status != Campaign.SETUP
    ]
    if not compared:
        return []
    states = current_states(compared)
    sources: dict[int, set] = {c.pk: set() for c in compared}
    for campaign_id, source in (
        Event.objects.filter(
            campaign__in=[c.pk for c in compared],
            kind="dice.rolled",
            audience=Event.PUBLIC,
        )
        .values_list("campaign_id", "data__source")
        .distinct()
    ):
        sources[campaign_id].add(source)
    players: dict[int, list] = {c.pk: [] for c in compared}
    for campaign_id, username in (
        SidePlayer.objects.filter(side__campaign__in=compared)
        .order_by("user__username")
        .values_list("side__campaign_id", "user__username")
    ):
        players[campaign_id].append(username)
    member = Viewer.club_member()
    tables = []
    for slug in sorted({c.system for c in compared}):
        system = systems[slug]
        rows = []
        for campaign in (c for c in compared if c.system == slug):
            values = system.comparison_row(visibility.view_state(states[campaign.pk], member))
            if values is not None:
                dice = DICE_WORDS.get(frozenset(sources[campaign.pk]), "")
                rows.append((campaign, ", ".join(players[campaign.pk]), dice, tuple(values)))
        if rows:
            tables.append(Comparison(system.name, tuple(system.comparison_columns), tuple(rows)))
    return tables


CLUB_LOG_SHOWN = 30


def club_page(user, club) -> ClubPage:
    role = visibility.role_in(user, club)
    if role is None:
        raise NotFound("club")
    invitations = log = None
    if role == "organizer":
        invitations = list(club_invitations(user=user, club=club).order_by("-created_at", "-pk"))
        log = list(club.log.select_related("actor")[:CLUB_LOG_SHOWN])
    campaigns = list(
        visibility.campaigns_for(user).filter(club=club).order_by("status", "-updated_at")
    )
    return ClubPage(
        club=club,
        role=role,
        members=list(club.memberships.select_related("user").order_by("user__username")),
        campaigns=campaigns,
        invitations=invitations,
        log=log,
        comparisons=club_comparisons(campaigns),
        waiting=campaigns_waiting_on([c for c in campaigns if c.status == Campaign.ACTIVE]),
    )


def campaigns_waiting_on(campaigns) -> dict[int, list[str]]:
    """Whom each campaign waits for, as any member of its club may read it (one query for all)."""
    states = current_states(campaigns)
    member = Viewer.club_member()
    return {
        c.pk: waiting_on(visibility.view_state(states[c.pk], member))
        for c in campaigns
        if c.pk in states
    }


@dataclass
class Dashboard:
    clubs: list  # (club, role)
    campaigns: list  # the campaigns one plays or referees
    waiting: list  # (campaign, [Todo])
    organized: list = field(
        default_factory=list
    )  # campaigns of clubs one organizes, played by others
    waits: dict = field(default_factory=dict)  # campaign pk -> whom it waits for


def dashboard(user) -> Dashboard:
    from .models import Membership

    roles = dict(Membership.objects.filter(user=user).values_list("club_id", "role"))
    everything = list(visibility.campaigns_for(user).order_by("status", "-updated_at"))
    viewers = visibility.viewers_for(user, everything)
    mine = [c for c in everything if viewers[c.pk].playing or viewers[c.pk].referee]
    organized = [
        c for c in everything if c not in mine and roles.get(c.club_id) == Membership.ORGANIZER
    ]
    return Dashboard(
        clubs=[(club, roles.get(club.pk)) for club in visibility.clubs_for(user).order_by("name")],
        campaigns=mine,
        waiting=waiting_for(user),
        organized=organized,
        waits=campaigns_waiting_on([c for c in mine + organized if c.status == Campaign.ACTIVE]),
    )


@dataclass(frozen=True)
class HouseRuleChoice:
    key: str
    label: str
    book: object


def house_rule_choices(system) -> list[HouseRuleChoice]:
    """Every value a house rule may override: the system's constants, then each
    table cell, with the book value."""
    from .tables import cell_key

    found = [
        HouseRuleChoice(key, f"{c.get('label', key)} ({c.get('rule', '')})", c["value"])
        for key, c in system.constants().items()
    ]
    for table in system.tables.tables.values():
        for row in table.rows:
            for column, value in row.cells.items():
                heading = table.columns.get(column, column)
                found.append(
                    HouseRuleChoice(
                        cell_key(table.id, row.label, column),
                        f"{table.name} ({table.rule}), {row.label}, {heading}",
                        value,
                    )
                )
    return found


_LABELS: dict[str, dict] = {}


def house_rule_labels(system) -> dict[str, str]:
    """key -> words of every value a house rule may override (computed once per system)."""
    if system.slug not in _LABELS:
        _LABELS[system.slug] = {c.key: c.label for c in house_rule_choices(system)}
    return _LABELS[system.slug]


def members_of(club) -> list[str]:
    return list(
        club.memberships.order_by("user__username").values_list("user__username", flat=True)
    )


def history_entry(campaign: Campaign, viewer: Viewer, uid: str) -> HistoryEntry:
    """One journal event the viewer may read, by uid (NotFound otherwise: a hidden
    event and a missing one look the same)."""
    import uuid

    try:
        wanted = uuid.UUID(str(uid))
    except ValueError:
        raise NotFound("event") from None
    event = visibility.events_for(viewer, campaign).filter(uid=wanted).first()
    if event is None:
        raise NotFound("event")
    state = current_state(campaign)
    return entries_for_events(campaign, viewer, [event], state)[0]


def full_export_allowed(
    campaign: Campaign, viewer: Viewer, page: CampaignPage | None = None
) -> bool:
    """May this viewer download the full journal (every side's secrets)? The referee may;
    an organizer once every side agreed (the cut says whether they did), if they were an
    organizer then already (visibility.organizer_when_export_agreed, as journal_io.may_export_full)."""
    page = page or campaign_page(campaign, viewer)
    if viewer.referee:
        return True
    return (
        viewer.organizer
        and page.export_approved
        and visibility.organizer_when_export_agreed(
            campaign, viewer, current_state(campaign)["export_approved"]
        )
    )
