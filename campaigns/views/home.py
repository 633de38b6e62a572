"""The dashboard: my clubs, my campaigns, what waits for me; founding a club."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaigns.errors import DomainError
from campaigns.forms import ClubForm
from campaigns.selectors.dashboard import dashboard as dashboard_of, mine as campaigns_of
from campaigns.services import clubs as club_services

from .common import AuthenticatedHttpRequest, done, invalid, page, page_number, pager_of

MINE_PAGE = 50  # campaigns on a page of "my campaigns"


@page
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    """What waits for the person first; the first few of each list, read as such in SQL with a
    count of them all, the rest a link away (the pages of their campaigns), so that the page
    does not grow with them."""
    board = dashboard_of(request.user)
    return render(request, "dashboard.html", {"board": board, "club_form": ClubForm()})


@page
def my_campaigns(request: AuthenticatedHttpRequest) -> HttpResponse:
    """All the campaigns one plays, referees or organizes, MINE_PAGE a page (``?page=``; past
    the last: the last), those one plays first, what waits longest for the person first."""
    number = page_number(request)
    found, count, waits = campaigns_of(request.user, number, MINE_PAGE)
    pager = pager_of(found, number, count, MINE_PAGE)
    return render(request, "campaigns/mine.html", {"board": {"waits": waits}, "pager": pager})


@page
@require_http_methods(["GET", "POST"])
def club_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_services.create_club(user=request.user, name=form.cleaned_data["name"])
        except DomainError as error:
            form.add_error("name", error.message)
        else:
            messages.success(
                request, f"{club.name} is founded; you are its organizer. Invite your players."
            )
            return done(request, reverse("club", args=[club.slug]))
    if form.errors:
        return invalid(request, "clubs/new.html", {"form": form})
    return render(request, "clubs/new.html", {"form": form})
