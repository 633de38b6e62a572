"""The dashboard: my clubs, my campaigns, what waits for me; founding a club."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaigns.errors import DomainError
from campaigns.forms import ClubForm
from campaigns.selectors.dashboard import dashboard as dashboard_of
from campaigns.services import clubs as club_services

from .common import AuthenticatedHttpRequest, done, invalid, page


@page
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(
        request,
        "dashboard.html",
        {"board": dashboard_of(request.user), "club_form": ClubForm()},
    )


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
