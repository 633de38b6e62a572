"""API routes of the rosters app (sheets and print jobs), mounted under /api/v1/ by api.urls."""

from django.urls import path

from . import api

urlpatterns = [
    path(
        "campaigns/<int:campaign_id>/sheets/",
        api.SheetListRequestApi.as_view(),
        name="api-campaign-sheets",
    ),
    path("jobs/<str:job_id>/", api.PrintJobApi.as_view(), name="api-sheet-job"),
    path("jobs/<str:job_id>/retry/", api.PrintJobRetryApi.as_view(), name="api-sheet-job-retry"),
    path("jobs/<str:job_id>/file/", api.PrintJobFileApi.as_view(), name="api-sheet-job-file"),
]
