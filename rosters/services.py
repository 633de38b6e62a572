"""Print jobs: requesting a sheet, rendering it once, retrying a failed render.

Pages, the API and the Celery task call these; they decide nothing themselves.

- ``request_sheet`` decides the audience (campaigns.access.visibility), builds what the
  sheet prints, hashes it, and returns the job of that hash: an existing one (no
  re-render) or a new one, within rosters.print_limits, enqueued once the transaction commits.
- ``run_job`` (the task's body) claims the job with a conditional UPDATE, renders,
  stores the file and marks it done, fenced by the attempt number: a duplicated,
  retried or redelivered task never produces a second result.
- ``retry_job`` puts a failed (or abandoned) job back in the queue, within the print limits
  (asking again renders again: it counts as a new job does).
- ``sweep`` (run by every worker every few seconds: rosters.sweep) puts back in the queue what
  lost its task: a running job with no heartbeat (its worker was killed), a queued job whose task
  is in no queue of the broker (sent while the broker was away, or Redis restarted empty).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.files.base import File
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from campaigns.access import visibility
from campaigns.errors import DomainError, Forbidden, NotFound
from campaigns.journal.records import Viewer
from campaigns.models import Campaign
from campaigns.selectors.campaign_page import campaign_for
from campaigns.services.state import current_state
from campaigns.systems import get_system
from campaigns.systems.base import GameSystem, SheetDef
from muster import connection_loss, queues
from muster.connection_loss import DATABASE_ERRORS

from . import broker, heartbeat, pdf, print_limits, sheets, storage
from .models import AskedAgain, PaperChoice, PrintJob

AnyUser = User | AnonymousUser
JobId = uuid.UUID | str  # a job's id, or its text as a URL or a task names it

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 3  # a render that kills its worker every time must not loop forever
QUEUED_BOUND = timedelta(
    seconds=5
)  # queued this long with its task in no queue of the broker: lost
STALE_QUEUED_AFTER = timedelta(
    minutes=10
)  # no worker took it (when the broker cannot be read): offer a retry


def lease_seconds() -> int:
    """How long a claimed job belongs to its worker: past the task's hard time limit
    the worker is gone, and a redelivered task may take the job over."""
    return int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 300)) + 30


# --- the paper a person prints on ------------------------------------------------------------------


def paper_for(user: AnyUser) -> str:
    """The paper this person's sheets are printed on: the one they chose last, else the site's
    default (settings.SHEET_PAPER_DEFAULT, A4 when it names no paper this site prints on)."""
    if user.is_authenticated:
        chosen = visibility.read_with_sign_in(user, "paper")  # read with the page's sign-in
        if chosen is visibility.MISSING:
            chosen = PaperChoice.objects.filter(user=user).values_list("paper", flat=True).first()
        if chosen in sheets.PAPERS:
            return str(chosen)
    default = str(getattr(settings, "SHEET_PAPER_DEFAULT", "A4"))
    return default if default in sheets.PAPERS else "A4"


def remember_paper(user: AnyUser, paper: str) -> None:
    """Keep `paper` as this person's (a paper this site prints on; anything else changes nothing)."""
    if user.is_authenticated and paper in sheets.PAPERS:
        PaperChoice.objects.update_or_create(user=user, defaults={"paper": paper})


# --- requesting ---------------------------------------------------------------------------------


def request_sheet(
    user: AnyUser, campaign: Campaign, sheet: str, paper: str = "A4", side: str | None = None
) -> tuple[PrintJob, bool]:
    """The print job of this sheet for this user; (job, created)."""
    viewer = visibility.viewer_for(user, campaign)
    if not viewer.member:
        raise NotFound("campaign")
    state = current_state(campaign)
    sheet_def, audience = resolve(viewer, campaign, state, sheet, paper, side)
    context = sheets.render_context(campaign, state, sheet_def, audience, paper)
    digest = sheets.content_hash(
        context, sheet=sheet_def, audience=audience, paper=paper, campaign_id=campaign.pk
    )
    existing = PrintJob.objects.filter(campaign=campaign, content_hash=digest).first()
    if existing is not None:
        if existing.status == PrintJob.FAILED or is_lost(existing):  # asked again: its task is gone
            _ask_again(user, viewer, existing)
            existing.refresh_from_db()
        return existing, False
    try:
        with transaction.atomic():
            print_limits.check(user, campaign, viewer.playing)  # only a new render counts
            job = PrintJob.objects.create(
                campaign=campaign,
                sheet=sheet_def.slug,
                paper=paper,
                audience=audience,
                content_hash=digest,
                context=context,
                title=f"{sheet_def.name} · {context['audience']['label']}"[:200],
                requested_by=user if user.is_authenticated else None,
            )
    except IntegrityError:  # the same request at the same moment: one job
        return PrintJob.objects.get(campaign=campaign, content_hash=digest), False
    transaction.on_commit(lambda: enqueue(job.pk))
    return job, True


COMBINED = "combined"  # the sheet slug of a job that prints several sheets of a campaign in one PDF


def request_combined(
    user: AnyUser, campaign: Campaign, picks: list[tuple[str, str | None]], paper: str = "A4"
) -> tuple[PrintJob, bool]:
    """One PDF of several sheets of a campaign, each (sheet, side) checked and cut for its audience
    exactly as a single sheet is (`resolve`, `sheets.render_context`); (job, created). The job's
    audience is the narrowest of its sheets' (`sheets.combined_audience`), so only those who may read
    every sheet in it see the job. One request, one job: counted once against the print limits."""
    viewer = visibility.viewer_for(user, campaign)
    if not viewer.member:
        raise NotFound("campaign")
    if not picks:
        raise DomainError("sheets", "Choose at least one sheet to put in the PDF.")
    state = current_state(campaign)
    resolved = [resolve(viewer, campaign, state, sheet, paper, side) for sheet, side in picks]
    chosen = list({(s.slug, a): (s, a) for s, a in resolved}.values())  # each sheet once, in order
    audience = sheets.combined_audience([a for _, a in chosen])
    context = sheets.combined_context(
        [(s, sheets.render_context(campaign, state, s, a, paper)) for s, a in chosen], audience
    )
    digest = sheets.combined_hash(context, [s for s, _ in chosen], campaign_id=campaign.pk)
    return _job_of(user, viewer, campaign, digest, context, audience, paper)


def _job_of(
    user: AnyUser,
    viewer: Viewer,
    campaign: Campaign,
    digest: str,
    context: dict[str, Any],
    audience: str,
    paper: str,
) -> tuple[PrintJob, bool]:
    """The combined job of this content: the one printed already, or a new one within the limits."""
    existing = PrintJob.objects.filter(campaign=campaign, content_hash=digest).first()
    if existing is not None:
        if existing.status == PrintJob.FAILED or is_lost(existing):
            _ask_again(user, viewer, existing)
            existing.refresh_from_db()
        return existing, False
    names = " + ".join(part["sheet"]["name"] for part in context["parts"])
    try:
        with transaction.atomic():
            print_limits.check(user, campaign, viewer.playing)  # one request: one job
            job = PrintJob.objects.create(
                campaign=campaign,
                sheet=COMBINED,
                paper=paper,
                audience=audience,
                content_hash=digest,
                context=context,
                title=f"{names} · {context['audience']['label']}"[:200],
                requested_by=user if user.is_authenticated else None,
            )
    except IntegrityError:
        return PrintJob.objects.get(campaign=campaign, content_hash=digest), False
    transaction.on_commit(lambda: enqueue(job.pk))
    return job, True


def request_blank(
    user: AnyUser, system: str, sheet: str, paper: str = "A4"
) -> tuple[PrintJob, bool]:
    """The print job of a game's blank sheet (no campaign: empty rows, nothing of anyone), for a
    signed-in person; (job, created). One job per sheet, paper and template version serves everyone
    who asks; a new one counts against the member's limit (print_limits, no campaign's)."""
    if not user.is_authenticated:
        raise NotFound("sheet")
    game, sheet_def = resolve_blank(system, sheet, paper)
    context = sheets.blank_context(game, sheet_def, paper)
    digest = sheets.content_hash(
        context, sheet=sheet_def, audience="blank", paper=paper, campaign_id=0
    )
    existing = PrintJob.objects.filter(campaign=None, content_hash=digest).first()
    if existing is not None:
        if existing.status == PrintJob.FAILED or is_lost(existing):  # asked again: its task is gone
            _ask_again(user, None, existing)
            existing.refresh_from_db()
        return existing, False
    try:
        with transaction.atomic():
            print_limits.check(user, None, None)  # only a new render counts
            job = PrintJob.objects.create(
                campaign=None,
                system=game.slug,
                sheet=sheet_def.slug,
                paper=paper,
                audience="blank",
                content_hash=digest,
                context=context,
                title=f"{sheet_def.name} · {game.name} · blank"[:200],
                requested_by=user,
            )
    except IntegrityError:  # the same request at the same moment: one job
        return PrintJob.objects.get(campaign=None, content_hash=digest), False
    transaction.on_commit(lambda: enqueue(job.pk))
    return job, True


def resolve_blank(system: str, sheet: str, paper: str) -> tuple[GameSystem, SheetDef]:
    """(game, SheetDef) of a blank sheet asked for, or the refusal naming the field."""
    try:
        game = get_system(str(system))
    except KeyError:
        raise DomainError("system", f"No game named {str(system)[:60]!r}.") from None
    found = {s.slug: s for s in sheets.blank_sheets_of(game)}
    if not sheet:
        raise DomainError("sheet", "Choose a sheet to print.")
    if sheet not in found:
        names = ", ".join(found) or "none"
        raise DomainError(
            "sheet", f"No blank sheet named {str(sheet)[:60]!r}; {game.name} has: {names}."
        )
    if paper not in sheets.PAPERS:
        raise DomainError("paper", "Choose A4 or Letter.")
    return game, found[sheet]


def resolve(
    viewer: Viewer,
    campaign: Campaign,
    state: Mapping[str, Any],
    sheet: str,
    paper: str,
    side: str | None,
) -> tuple[SheetDef, str]:
    """(SheetDef, audience key) for a request, or the refusal."""
    system = get_system(campaign.system)
    sheet_def = sheets.find_sheet(system, sheet or "")
    if sheet_def is None:
        names = ", ".join(s.slug for s in sheets.sheets_of(system))
        raise DomainError(
            "sheet", f"No sheet named {str(sheet)[:60]!r}; this campaign has: {names}."
        )
    if paper not in sheets.PAPERS:
        raise DomainError("paper", "Choose A4 or Letter.")
    if side and side not in state["sides"]:
        raise DomainError("side", f"This campaign has no side {str(side)[:40]!r}.")
    if sheet_def.audience == "referee":
        if not viewer.referee:
            raise Forbidden("Only the referee can print this sheet.")
        return sheet_def, "referee"
    if sheet_def.audience == "side":
        side = side or viewer.playing
        if not side:
            raise DomainError("side", "Name the side whose sheet to print.")
        if not viewer.can_read("side", side):
            raise Forbidden("Only that side's players and the referee can print this sheet.")
        return sheet_def, f"side:{side}"
    return sheet_def, "public"


def print_context(
    user: AnyUser, campaign: Campaign, sheet: str, paper: str = "A4", side: str | None = None
) -> tuple[str, dict[str, Any]]:
    """(template, context) of a sheet for the HTML print view: the same checks and
    the same context as a PDF request."""
    viewer = visibility.viewer_for(user, campaign)
    if not viewer.member:
        raise NotFound("campaign")
    state = current_state(campaign)
    sheet_def, audience = resolve(viewer, campaign, state, sheet, paper, side)
    return sheet_def.template, sheets.render_context(campaign, state, sheet_def, audience, paper)


def enqueue(job_id: JobId) -> None:
    """Send the render task (after commit: the worker must see the row), and note its id on the
    job: the sweep looks for it in the broker. If the broker cannot be reached the job stays
    queued with no task id, and the sweep sends it again once the broker is back; the request
    itself does not fail."""
    render_sheet = queues.task("rosters.tasks.render_sheet")

    task_id = str(uuid.uuid4())
    try:
        render_sheet.apply_async(
            args=(str(job_id),), queue=settings.CELERY_TASK_DEFAULT_QUEUE, task_id=task_id
        )
    except Exception:  # noqa: BLE001 - a broker outage must not turn a saved request into a 500
        logger.exception("Could not enqueue print job %s", job_id)
        return
    connection_loss.retrying(
        lambda: PrintJob.objects.filter(pk=job_id, status=PrintJob.QUEUED, task_id="").update(
            task_id=task_id
        ),
        f"noting the task of print job {job_id}",
    )


# --- reading ------------------------------------------------------------------------------------


def job_for(user: AnyUser, job_id: JobId) -> PrintJob:
    """A job the user may read, or NotFound (also for another side's job: its existence
    is not confirmed)."""
    found = PrintJob.objects.filter(pk=_uuid(job_id)).values_list("campaign_id", "audience").first()
    if found is None:
        raise NotFound("job")
    campaign_id, audience = found
    if campaign_id is None:  # a blank sheet: nothing of anyone, for every signed-in person
        if not user.is_authenticated or audience != "blank":
            raise NotFound("job")
        return PrintJob.objects.get(pk=job_id)
    campaign, viewer = campaign_for(user, campaign_id)
    job: PrintJob | None = visibility.print_jobs_for(viewer, campaign).filter(pk=job_id).first()
    if job is None:
        raise NotFound("job")
    job.campaign = campaign
    return job


class Reprinting(NotFound):
    """The job's file was gone (a site restored from a backup keeps no sheets, an object store lost
    it): the job is being printed again, from the context it keeps."""

    def __init__(self, job: PrintJob) -> None:
        super().__init__("file")
        self.job = job


def open_pdf(user: AnyUser, job_id: JobId) -> tuple[File[bytes], str]:
    """(open file, download name) of a finished job the user may read — checked on every
    download — or NotFound: the job is not the user's to read, or not done. A job whose file is
    gone is printed again on request: Reprinting (a NotFound) says so."""
    job = job_for(user, job_id)
    if job.status != PrintJob.DONE or not job.file:
        raise NotFound("file")
    try:
        return storage.open(job), download_name(job)
    except NotFound:
        if PrintJob.objects.filter(
            pk=job.pk, status=PrintJob.FAILED, error=storage.GONE_MESSAGE
        ).exists():
            _requeue(job)
            raise Reprinting(job) from None
        raise


def jobs_for(viewer: Viewer, campaign: Campaign, limit: int = 8) -> list[PrintJob]:
    """The newest jobs of a campaign whose sheets this viewer may read."""
    return visibility.recent_print_jobs(viewer, campaign, limit)


def is_stale(job: PrintJob) -> bool:
    """Abandoned, as the job's row alone tells: running with no heartbeat for HEARTBEAT_STALE (its
    worker is gone) or past its lease; queued with no task sent (the broker was away) for
    QUEUED_BOUND, or for STALE_QUEUED_AFTER whatever the broker holds."""
    now = timezone.now()
    if job.status == PrintJob.RUNNING:
        beat = job.heartbeat_at or job.started_at
        return (job.lease_until is not None and job.lease_until < now) or (
            beat is not None and beat < now - heartbeat.HEARTBEAT_STALE
        )
    if job.status == PrintJob.QUEUED:
        return job.queued_at < now - STALE_QUEUED_AFTER or (
            not job.task_id and job.queued_at < now - QUEUED_BOUND
        )
    return False


def is_lost(job: PrintJob, held: set[str] | None = None) -> bool:
    """Stale, or queued for QUEUED_BOUND with its task in no queue of the broker (Redis restarted
    empty). `held`: the task ids the broker holds (broker.held_task_ids), if already read."""
    if is_stale(job):
        return True
    if job.status != PrintJob.QUEUED or job.queued_at >= timezone.now() - QUEUED_BOUND:
        return False
    if held is None:
        held = broker.held_task_ids(settings.CELERY_TASK_DEFAULT_QUEUE)
    return held is not None and job.task_id not in held


def download_name(job: PrintJob) -> str:
    from django.utils.text import slugify

    who = job.audience.replace(":", "-")
    campaign_name: str = job.context["campaign"]["name"] or job.context["campaign"]["system"]
    return f"{slugify(campaign_name) or 'campaign'}-{job.sheet}-{who}-{job.paper}.pdf"


def _uuid(value: object) -> uuid.UUID:
    import uuid

    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise NotFound("job") from None


# --- retrying -----------------------------------------------------------------------------------


def retry_job(user: AnyUser, job_id: JobId) -> PrintJob:
    job = job_for(user, job_id)
    if job.status == PrintJob.DONE:
        raise DomainError("status", "This sheet is ready; download it.")
    if job.status != PrintJob.FAILED and not is_lost(job):
        raise DomainError("status", "This sheet is still being prepared.")
    viewer = visibility.viewer_for(user, job.campaign) if job.campaign is not None else None
    _ask_again(user, viewer, job)
    job.refresh_from_db()
    return job


def _ask_again(user: AnyUser, viewer: Viewer | None, job: PrintJob) -> bool:
    """A person asks again for a job that failed or lost its task: a render again, within the print
    limits as a new job is (print_limits.check: TooMany, the same words), and counted with them
    once queued again (AskedAgain). The sweep's own requeues (no person) are not counted."""
    with transaction.atomic():
        print_limits.check(user, job.campaign, viewer.playing if viewer is not None else None)
        if not _requeue(job):
            return False  # someone else queued it again meanwhile: nothing asked of this person
        AskedAgain.objects.create(job=job, requested_by=user if user.is_authenticated else None)
    return True


def _abandoned(now: datetime) -> Q:
    """A running job whose worker is gone, as is_stale reads it: past its lease, or no heartbeat
    (none yet: since it started) for HEARTBEAT_STALE."""
    silent = now - heartbeat.HEARTBEAT_STALE
    return (
        Q(lease_until__lt=now)
        | Q(heartbeat_at__lt=silent)
        | Q(heartbeat_at__isnull=True, started_at__lt=silent)
    )


def _requeue(job: PrintJob, keep_attempts: bool = False) -> bool:
    """Back in the queue, if it still is as found: failed, stale (is_stale), or queued with its task
    lost (the caller read the broker: nothing changed since `job` was read). A person asking starts
    the count of attempts again; the sweep keeps it (`keep_attempts`), so that a sheet that kills
    its worker every time still ends failed after MAX_ATTEMPTS."""
    now = timezone.now()
    stale = (
        Q(status=PrintJob.FAILED)
        | Q(status=PrintJob.RUNNING) & _abandoned(now)
        | Q(status=PrintJob.QUEUED, queued_at__lt=now - STALE_QUEUED_AFTER)
        | Q(status=PrintJob.QUEUED, task_id="", queued_at__lt=now - QUEUED_BOUND)
    )
    unchanged = Q(
        status=PrintJob.QUEUED,
        task_id=job.task_id,
        queued_at=job.queued_at,
        queued_at__lt=now - QUEUED_BOUND,
    )
    moved = (
        PrintJob.objects.filter(pk=job.pk)
        .filter(stale | unchanged)
        .update(
            status=PrintJob.QUEUED,
            progress=0,
            error="",
            queued_at=now,
            lease_until=None,
            heartbeat_at=None,
            claimed_by="",
            task_id="",
            **({} if keep_attempts else {"attempts": 0}),
        )
    )
    if moved:
        transaction.on_commit(lambda: enqueue(job.pk))
    return bool(moved)


def sweep(limit: int = 200) -> int:
    """Put back in the queue every job whose task is gone; how many. Run by every worker every few
    seconds (rosters.sweep): a running job with no heartbeat, a queued one with no task sent or
    whose task the broker no longer holds. A broker that cannot be read leaves queued jobs be."""
    now = timezone.now()
    requeued = 0
    abandoned = PrintJob.objects.filter(status=PrintJob.RUNNING).filter(_abandoned(now))
    for job in abandoned.order_by("started_at")[:limit]:
        if _requeue(job, keep_attempts=True):
            logger.warning(
                "Print job %s lost its task while rendering (no heartbeat): queued again", job.pk
            )
            requeued += 1
    waiting = list(
        PrintJob.objects.filter(status=PrintJob.QUEUED, queued_at__lt=now - QUEUED_BOUND).order_by(
            "queued_at"
        )[:limit]
    )
    if waiting:
        held = broker.held_task_ids(settings.CELERY_TASK_DEFAULT_QUEUE)
        if held is not None:  # None: the broker cannot say, queued jobs are left be
            for job in waiting:
                if job.task_id not in held and _requeue(job, keep_attempts=True):
                    logger.warning("Print job %s had no task in the broker: queued again", job.pk)
                    requeued += 1
    return requeued


# --- rendering (the task's body) -------------------------------------------------------------------


def run_job(
    job_id: JobId, task_id: str = "", rendered: str = "", kept: dict[str, str] | None = None
) -> str:
    """Render a job once. Returns what happened: rendered | skipped | failed | gave-up.

    A lost database connection is not the sheet's failure: it propagates (DATABASE_ERRORS), and
    the task retries on a fresh connection. The PDF is stored before the job is marked done, and
    its name put in `kept["rendered"]`: a retry passes it back as `rendered` and only finishes the
    job, without rendering again."""
    kept = {} if kept is None else kept
    attempt = claim(job_id, task_id)
    if attempt is None:
        if rendered:  # another task finished the job meanwhile: keep only its result
            storage.discard(rendered)
        return "skipped"
    if attempt > MAX_ATTEMPTS and not rendered:
        _fail(
            job_id,
            attempt,
            "Rendering was interrupted several times. Retry later, or tell the site operator.",
        )
        return "gave-up"
    stored = rendered
    if not stored:
        job = PrintJob.objects.get(pk=job_id)
        try:
            data = _render(job, attempt)
        except DATABASE_ERRORS:
            raise  # the connection, not the sheet: the task retries
        except Exception as exc:  # noqa: BLE001 - any failure becomes a message on the job
            logger.exception("Rendering print job %s failed", job_id)
            _fail(job_id, attempt, _safe_message(exc))
            return "failed"
        try:
            stored = storage.save(job, data)
        except storage.StoreFailed:  # failed, and retryable: never done and pointing at nothing
            _fail(job_id, attempt, storage.FAILED_MESSAGE)
            return "failed"
        kept["rendered"] = stored
    finished = PrintJob.objects.filter(pk=job_id, status=PrintJob.RUNNING, attempts=attempt).update(
        status=PrintJob.DONE,
        progress=100,
        file=stored,
        finished_at=timezone.now(),
        lease_until=None,
        error="",
    )
    if not finished:  # another attempt took the job over meanwhile: keep only its result
        storage.discard(stored)
        return "skipped"
    return "rendered"


def _render(job: PrintJob, attempt: int) -> bytes:
    if job.sheet == COMBINED:
        return _render_combined(job, attempt)
    system = job.campaign.system if job.campaign is not None else job.system
    sheet = sheets.find_sheet(get_system(system), job.sheet)
    if sheet is None:
        raise LookupError(f"the game system no longer has the sheet {job.sheet!r}")
    html = pdf.sheet_html(sheet.template, job.context)
    _progress(job.pk, attempt, 40)
    return render_hook(html)


def _render_combined(job: PrintJob, attempt: int) -> bytes:
    """Each sheet of the job printed as it prints alone (its own page numbers), joined in order."""
    import io

    import pypdf

    if job.campaign is None:
        raise LookupError("a combined PDF without its campaign")
    system = get_system(job.campaign.system)
    writer = pypdf.PdfWriter()
    parts = job.context["parts"]
    for done, part in enumerate(parts, start=1):
        sheet = sheets.find_sheet(system, part["sheet"]["slug"])
        if sheet is None:
            raise LookupError(f"the game system no longer has the sheet {part['sheet']['slug']!r}")
        writer.append(
            pypdf.PdfReader(io.BytesIO(render_hook(pdf.sheet_html(sheet.template, part))))
        )
        _progress(job.pk, attempt, 10 + 80 * done // len(parts))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def render_hook(html: str) -> bytes:
    """The renderer (a seam: tests count renders through it)."""
    return pdf.html_to_pdf(html)


def claim(job_id: JobId, task_id: str = "") -> int | None:
    """Take the job for this worker; the attempt number, or None if it is not ours to
    render (done, or held by a live worker under another task)."""
    now = timezone.now()
    claimable = Q(status__in=[PrintJob.QUEUED, PrintJob.FAILED]) | Q(
        status=PrintJob.RUNNING, lease_until__lt=now
    )
    if task_id:
        # The same task delivered again: its worker died mid-render (task_reject_on_worker_lost).
        claimable |= Q(status=PrintJob.RUNNING, task_id=task_id)
    with transaction.atomic():
        row = (
            PrintJob.objects.select_for_update()
            .filter(pk=job_id)
            .filter(claimable)
            .values("attempts")
            .first()
        )
        if row is None:
            return None
        attempt: int = row["attempts"] + 1
        PrintJob.objects.filter(pk=job_id).update(
            status=PrintJob.RUNNING,
            attempts=attempt,
            progress=10,
            started_at=now,
            heartbeat_at=now,
            task_id=task_id[:64],
            lease_until=now + timedelta(seconds=lease_seconds()),
            claimed_by=f"{socket.gethostname()}:{os.getpid()}"[:120],
            error="",
        )
    return attempt


def _progress(job_id: JobId, attempt: int, value: int) -> None:
    PrintJob.objects.filter(pk=job_id, status=PrintJob.RUNNING, attempts=attempt).update(
        progress=value
    )


def _fail(job_id: JobId, attempt: int, message: str) -> None:
    """Mark the attempt failed (retryable). Never raises: on a lost connection it tries again on a
    fresh one, and if the database stays away the job's lease runs out and the sweep takes it."""

    def mark() -> None:
        PrintJob.objects.filter(pk=job_id, status=PrintJob.RUNNING, attempts=attempt).update(
            status=PrintJob.FAILED,
            error=message[:300],
            finished_at=timezone.now(),
            lease_until=None,
        )

    connection_loss.retrying(mark, f"marking print job {job_id} failed")


def _safe_message(exc: Exception) -> str:
    """What users see: the kind of failure, never the exception's text (it may quote
    the sheet's data, which can be a side's secret). The log has the details."""
    from celery.exceptions import SoftTimeLimitExceeded

    if isinstance(exc, pdf.PdfUnavailable):  # says what the server lacks, nothing of the sheet
        return str(exc)
    if isinstance(exc, SoftTimeLimitExceeded):
        return "The sheet took too long to render. Retry, or tell the site operator."
    return (
        f"The sheet could not be rendered ({type(exc).__name__}). Retry, or tell the site operator."
    )
