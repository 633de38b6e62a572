"""Sheets and print jobs through the API (mounted under /api/v1/ by api.urls).

Same services, same checks as the pages: a job of another side's sheet does not
exist for you (404), and every file download asks visibility again.
"""

from __future__ import annotations

from typing import Any

from django.http import FileResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response

from api.common import CampaignScoped, valid_input
from api.openapi import DetailSerializer, errors
from campaigns.services.state import current_state

from . import services, sheets
from .models import PrintJob


class SheetChoiceSerializer(serializers.Serializer[Any]):  # read many=True as well
    slug = serializers.SlugField(source="sheet.slug")
    name = serializers.CharField(source="sheet.name")
    audience = serializers.ChoiceField(("public", "side", "referee"), source="sheet.audience")
    sides = serializers.SerializerMethodField(
        help_text="Side sheets: the sides you may print it for."
    )

    def get_sides(self, choice: sheets.SheetChoice) -> list[str]:
        return [slug for slug, _ in choice.sides]


class SheetRequestSerializer(serializers.Serializer[Any]):  # input only
    sheet = serializers.CharField(max_length=60, help_text="A sheet's slug (GET …/sheets/).")
    paper = serializers.ChoiceField(sheets.PAPERS, default="A4")
    side = serializers.SlugField(
        max_length=40,
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        help_text="Side sheets: the side (your own by default).",
    )


class PrintJobSerializer(serializers.Serializer[PrintJob]):
    id = serializers.UUIDField()
    campaign = serializers.IntegerField(source="campaign_id")
    sheet = serializers.CharField()
    title = serializers.CharField()
    paper = serializers.CharField()
    audience = serializers.CharField(help_text='"public", "side:<slug>" or "referee"')
    status = serializers.CharField(help_text="queued | running | done | failed")
    progress = serializers.IntegerField(min_value=0, max_value=100)
    error = serializers.CharField(allow_blank=True)
    retryable = serializers.SerializerMethodField(
        help_text="POST …/retry/ would put it back in the queue."
    )
    file_url = serializers.SerializerMethodField(help_text="When done: where to download the PDF.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_retryable(self, job: PrintJob) -> bool:
        return job.status == PrintJob.FAILED or services.is_stale(job)

    def get_file_url(self, job: PrintJob) -> str | None:
        if job.status != PrintJob.DONE:
            return None
        request: Request = self.context["request"]
        return request.build_absolute_uri(reverse("api-sheet-job-file", args=[job.pk]))


def job_output(request: Request, job: PrintJob) -> dict[str, object]:
    return PrintJobSerializer(job, context={"request": request}).data


SHEETS_429 = OpenApiResponse(
    DetailSerializer,
    description="As many new sheets were asked for in the last 10 "
    "minutes as one member, or one campaign, may print: wait (`Retry-After`).",
)


@extend_schema(tags=["sheets"])
class SheetListRequestApi(CampaignScoped, generics.GenericAPIView[Any]):  # no queryset
    serializer_class = SheetChoiceSerializer
    pagination_class = None  # a handful of sheets
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:  # the browsable API's form
        return SheetRequestSerializer if self.request.method == "POST" else SheetChoiceSerializer

    @extend_schema(
        operation_id="campaigns_sheets_list",
        responses={200: SheetChoiceSerializer(many=True), **errors(404)},
        summary="The sheets you may print",
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign, viewer = self.campaign_and_viewer()
        choices = sheets.choices_for(viewer, campaign, current_state(campaign))
        return Response(SheetChoiceSerializer(choices, many=True).data)

    @extend_schema(
        operation_id="campaigns_sheets_request",
        request=SheetRequestSerializer,
        responses={
            201: PrintJobSerializer,
            200: PrintJobSerializer,
            **errors(400, 403, 404),
            429: SHEETS_429,
        },
        summary="Ask for a sheet as PDF",
        description="201 with a new print job (queued), or 200 with the existing job of the very same content "
        "(the same sheet, audience, paper and campaign state are rendered once). Poll the job. "
        "New jobs are limited: at most `SHEET_RENDERS_PER_MEMBER` (6) in 10 minutes for one member "
        "and `SHEET_RENDERS_PER_SIDE` (12) for one side of a campaign (its players together; those "
        "who play no side are one more group), unless the site says otherwise; "
        "beyond them, 429 naming the limit and the wait (`Retry-After`). Asking again for a sheet "
        "whose content did not change answers its job and is never refused, unless that job failed or lost "
        "its task: it is queued again, a render again, within the same limits.",
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(SheetRequestSerializer, request)
        job, created = services.request_sheet(
            request.user, campaign, data["sheet"], data["paper"], data["side"] or None
        )
        return Response(
            job_output(request, job),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


@extend_schema(tags=["sheets"])
class PrintJobApi(generics.GenericAPIView[PrintJob]):
    serializer_class = PrintJobSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    @extend_schema(
        operation_id="sheet_jobs_retrieve",
        responses={200: PrintJobSerializer, **errors(404)},
        summary="A print job: status, progress, file URL",
    )
    def get(self, request: Request, job_id: str) -> Response:
        return Response(job_output(request, services.job_for(request.user, job_id)))


@extend_schema(tags=["sheets"])
class PrintJobRetryApi(generics.GenericAPIView[PrintJob]):
    serializer_class = PrintJobSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    @extend_schema(
        operation_id="sheet_jobs_retry",
        request=None,
        responses={200: PrintJobSerializer, **errors(400, 404), 429: SHEETS_429},
        summary="Queue a failed (or abandoned) render again",
        description="A render again: within the limits of new jobs, and counted with them "
        "(`SHEET_RENDERS_PER_MEMBER`, `SHEET_RENDERS_PER_SIDE` in 10 minutes); beyond them, 429 "
        "naming the limit and the wait (`Retry-After`), as for a new job.",
    )
    def post(self, request: Request, job_id: str) -> Response:
        return Response(job_output(request, services.retry_job(request.user, job_id)))


@extend_schema(tags=["sheets"])
class PrintJobFileApi(generics.GenericAPIView[PrintJob]):
    filter_backends: list[type[BaseFilterBackend]] = []

    @extend_schema(
        operation_id="sheet_jobs_file",
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF"),
            **errors(404),
        },
        summary="Download the PDF (checked on every download)",
    )
    def get(self, request: Request, job_id: str) -> FileResponse:
        handle, filename = services.open_pdf(request.user, job_id)
        response = FileResponse(
            handle, as_attachment=True, filename=filename, content_type="application/pdf"
        )
        response["Cache-Control"] = "private, no-store"
        return response
