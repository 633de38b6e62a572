"""Pages of the rosters app: sheets and their print jobs (campaign page panel: templates/rosters/)."""

from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/sheets/request/", views.sheet_request, name="sheet-request"),
    path(
        "campaigns/<int:campaign_id>/sheets/combined/",
        views.sheet_combined,
        name="sheet-combined",
    ),
    path(
        "campaigns/<int:campaign_id>/sheets/<slug:sheet>/print/",
        views.print_view,
        name="sheet-print",
    ),
    path("sheets/blank/", views.blank_sheets, name="blank-sheets"),
    path("sheets/jobs/<str:job_id>/", views.job_status, name="sheet-job"),
    path("sheets/jobs/<str:job_id>/retry/", views.job_retry, name="sheet-job-retry"),
    path("sheets/jobs/<str:job_id>/file/", views.job_file, name="sheet-job-file"),
]
