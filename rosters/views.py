"""Pages of the sheets: request a PDF, watch its progress, download it, print in the browser.

Thin doors into rosters.services; every download asks visibility again (MEDIA is
never served directly).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.errors import DomainError, TooMany
from campaigns.models import Campaign
from campaigns.selectors.campaign_page import campaign_for
from campaigns.systems import all_systems
from campaigns.views.common import AuthenticatedHttpRequest, is_htmx, page

from . import long_words, pdf, services, sheets
from .models import PrintJob


def _job_fragment(
    request: HttpRequest,
    job: PrintJob,
    status: int = 200,
    error: DomainError | TooMany | None = None,
) -> HttpResponse:
    return render(
        request,
        "rosters/_job.html",
        {"job": job, "stale": services.is_stale(job), "error": error},
        status=status,
    )


def _refused(
    request: HttpRequest, campaign: Campaign, error: DomainError | TooMany
) -> HttpResponse:
    """A sheet request refused: 400 with the field's words, 429 with the wait (in the panel or a page)."""
    status = 429 if isinstance(error, TooMany) else 400
    if is_htmx(request):
        response = render(request, "rosters/_request_error.html", {"error": error}, status=status)
    else:
        response = render(
            request, "rosters/job_page.html", {"campaign": campaign, "error": error}, status=status
        )
    if isinstance(error, TooMany):
        response["Retry-After"] = str(error.retry_after)
    return response


@page
@require_POST
def sheet_combined(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponseBase:
    """Several sheets of the campaign, chosen with the panel's checkboxes ("sheet" or
    "sheet:side" each), in one PDF."""
    campaign, viewer = campaign_for(request.user, campaign_id)
    paper = request.POST.get("paper") or services.paper_for(request.user)
    picks = [
        (sheet, side or None)
        for sheet, _, side in (pick.partition(":") for pick in request.POST.getlist("pick"))
    ]
    try:
        job, _ = services.request_combined(request.user, campaign, picks, paper)
    except (DomainError, TooMany) as error:
        return _refused(request, campaign, error)
    services.remember_paper(request.user, paper)
    if is_htmx(request):
        return _job_fragment(request, job)
    return redirect("sheet-job", job_id=job.pk)


@page
@require_POST
def sheet_request(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponseBase:
    campaign, viewer = campaign_for(request.user, campaign_id)
    paper = request.POST.get("paper") or services.paper_for(request.user)
    try:
        job, _ = services.request_sheet(
            request.user,
            campaign,
            request.POST.get("sheet", ""),
            paper,
            request.POST.get("side") or None,
        )
    except (DomainError, TooMany) as error:
        return _refused(request, campaign, error)
    services.remember_paper(request.user, paper)  # chosen on the panel: their paper from now on
    if is_htmx(request):
        return _job_fragment(request, job)
    return redirect("sheet-job", job_id=job.pk)


def _blank_page(
    request: AuthenticatedHttpRequest, error: DomainError | TooMany | None = None, status: int = 200
) -> HttpResponse:
    games = [
        (game, found) for game in all_systems().values() if (found := sheets.blank_sheets_of(game))
    ]
    posted = request.POST if request.method == "POST" else {}
    return render(
        request,
        "rosters/blank_sheets.html",
        {
            "games": games,
            "papers": PrintJob.PAPERS,
            "paper": posted.get("paper") or services.paper_for(request.user),
            "error": error,
            "posted": posted,
        },
        status=status,
    )


@page
@require_http_methods(["GET", "POST"])
def blank_sheets(request: AuthenticatedHttpRequest) -> HttpResponseBase:
    """Each game's blank sheets (empty rows, no campaign), printed through the print queue."""
    if request.method == "GET":
        return _blank_page(request)
    paper = request.POST.get("paper") or services.paper_for(request.user)
    try:
        job, _ = services.request_blank(
            request.user, request.POST.get("system", ""), request.POST.get("sheet", ""), paper
        )
    except (DomainError, TooMany) as error:
        status = 429 if isinstance(error, TooMany) else 400
        response = _blank_page(request, error, status)
        if isinstance(error, TooMany):
            response["Retry-After"] = str(error.retry_after)
        return response
    services.remember_paper(request.user, paper)
    return redirect("sheet-job", job_id=job.pk)


@page
@require_GET
def job_status(request: AuthenticatedHttpRequest, job_id: str) -> HttpResponse:
    job = services.job_for(request.user, job_id)
    if is_htmx(request):
        return _job_fragment(request, job)
    return render(
        request,
        "rosters/job_page.html",
        {"campaign": job.campaign, "job": job, "stale": services.is_stale(job)},
    )


@page
@require_POST
def job_retry(request: AuthenticatedHttpRequest, job_id: str) -> HttpResponseBase:
    try:
        job = services.retry_job(request.user, job_id)
    except (DomainError, TooMany) as error:  # TooMany: asking again is within the print limits
        job = services.job_for(request.user, job_id)
        status = 429 if isinstance(error, TooMany) else 400
        if is_htmx(request):
            response = _job_fragment(request, job, status=status, error=error)
        else:
            response = render(
                request,
                "rosters/job_page.html",
                {"campaign": job.campaign, "job": job, "error": error},
                status=status,
            )
        if isinstance(error, TooMany):
            response["Retry-After"] = str(error.retry_after)
        return response
    if is_htmx(request):
        return _job_fragment(request, job)
    return redirect("sheet-job", job_id=job.pk)


@page
@require_GET
def job_file(request: AuthenticatedHttpRequest, job_id: str) -> HttpResponseBase:
    try:
        handle, filename = services.open_pdf(request.user, job_id)  # visibility, on every download
    except services.Reprinting as again:
        messages.info(
            request,
            "The printed file was no longer kept (sheets are printed again rather than "
            "backed up): it is being printed again; download it once it is ready.",
        )
        return redirect("sheet-job", job_id=again.job.pk)
    response = FileResponse(
        handle, as_attachment=True, filename=filename, content_type="application/pdf"
    )
    response["Cache-Control"] = "private, no-store"
    return response


@page
@require_GET
def print_view(request: AuthenticatedHttpRequest, campaign_id: int, sheet: str) -> HttpResponse:
    """The sheet as an HTML page, for the browser's own print."""
    campaign, viewer = campaign_for(request.user, campaign_id)
    try:
        template, context = services.print_context(
            request.user,
            campaign,
            sheet,
            request.GET.get("paper") or services.paper_for(request.user),
            request.GET.get("side") or None,
        )
    except DomainError as error:
        return render(
            request, "rosters/job_page.html", {"campaign": campaign, "error": error}, status=400
        )
    html = long_words.mark(pdf.sheet_html(template, context, for_browser=True))
    response = HttpResponse(html)
    response["Cache-Control"] = "private, no-store"
    return response
