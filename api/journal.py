"""A campaign's journal through the API: the viewer's state and what they may do now (their
to-dos, each a `campaigns.systems.base.Action`), the history, submitting an event, and the journal
file (export).

Events are named by uid. Sequence numbers never leave the server for anyone
but the referee's full export: they would count the other side's hidden events.
"""

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.serializer_helpers import ReturnDict

from campaigns.errors import DomainError
from campaigns.models import Campaign
from campaigns.selectors.campaign_page import campaign_page
from campaigns.selectors.history import HistoryEntry, history_by_uid
from campaigns.selectors.trends import campaign_trends
from campaigns.services import journal_files, odds
from campaigns.services.journal import submit
from campaigns.systems.base import Action, StepStatus

from .common import CampaignScoped, cached_json, valid_input
from .openapi import SUBMIT_400, errors
from .serializers import (
    EventEntrySerializer,
    StateField,
    SubmissionOutputSerializer,
    ViewerSerializer,
    submission_output,
)

# --- serializers ------------------------------------------------------------------------------


class StepSerializer(serializers.Serializer[StepStatus]):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    rule = serializers.CharField(allow_blank=True)
    side = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text="done | current | waiting | skipped")
    detail = serializers.CharField(allow_blank=True)


class StateOutputSerializer(serializers.Serializer[Any]):
    viewer = ViewerSerializer()
    state = StateField(
        help_text="Your cut of the state; `streams` holds the versions to send as expected_version."
    )
    procedure = StepSerializer(
        many=True, help_text="The between-game procedure, as far as you may see it."
    )


class ActionSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(help_text="The event kind to submit.")
    label = serializers.CharField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    side = serializers.CharField(allow_null=True, help_text="The side to submit it for.")
    rule = serializers.CharField(allow_blank=True)
    initial = serializers.JSONField(help_text="Suggested `data` for the event.")
    help = serializers.CharField(allow_blank=True)
    optional = serializers.BooleanField(
        help_text="Offered, but nothing waits for it (e.g. an after-action note)."
    )


class SubmitInputSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(
        max_length=60, help_text="A core kind or one of the system's (GET /systems/)."
    )
    data = serializers.DictField(required=False, default=dict)  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    side = serializers.SlugField(
        max_length=40,
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        help_text="The side acted for: a player's own side by default; the referee names one.",
    )
    dice = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField(), allow_empty=False),
        required=False,
        allow_null=True,
        default=None,
        help_text="Dice rolled at the table, {key: [faces]}, when asked for.",
    )
    expected_version = serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        default=None,
        help_text="The version of your own stream you acted on (state.streams); 409 if it moved.",
    )
    idempotency_key = serializers.CharField(
        max_length=80,
        required=False,
        allow_null=True,
        default=None,
        help_text="Sending the same key again appends nothing and answers with the original events. A key "
        "is yours: someone else's same key is a fresh one. Also accepted as the Idempotency-Key "
        "header.",
    )


class JournalCampaignSerializer(serializers.Serializer[Any]):
    club = serializers.DictField(child=serializers.CharField(), help_text="slug and name")
    system = serializers.CharField()
    variant = serializers.CharField()
    name = serializers.CharField()
    created_by = serializers.CharField()


class JournalEventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(required=False, help_text="Full exports only.")
    uid = serializers.UUIDField()
    kind = serializers.CharField()
    at = serializers.CharField()
    actor = serializers.CharField()
    side = serializers.CharField(allow_blank=True)
    audience = serializers.ChoiceField(("public", "side", "referee"))
    data = serializers.JSONField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    idempotency_key = serializers.CharField(allow_null=True)


class JournalSerializer(serializers.Serializer[Any]):
    """The journal file format (docs/journal.md)."""

    format = serializers.CharField()
    version = serializers.IntegerField(help_text="The file format's own version.")
    muster = serializers.CharField(
        help_text="The Muster release that wrote the campaign's journal."
    )
    journals = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=(
            "The journal versions the events were written under (the core's and the game's): a file of earlier "
            "versions is upgraded when replayed (docs/journal.md)."
        ),
    )
    scope = serializers.CharField(
        help_text='"full", or "side:<slug>" (what your side may read; "side:club" '
        "for a member who plays no side)"
    )
    campaign = JournalCampaignSerializer()
    events = JournalEventSerializer(many=True)


# --- views -----------------------------------------------------------------------------------


@extend_schema(tags=["journal"])
class StateApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = StateOutputSerializer

    @extend_schema(
        operation_id="campaigns_state",
        responses={200: StateOutputSerializer, **errors(404)},
        summary="The campaign state as you may see it",
    )
    def get(self, request: Request, campaign_id: int) -> HttpResponse | Response:
        campaign, viewer = self.campaign_and_viewer()

        def build() -> ReturnDict[str, Any]:
            page = campaign_page(campaign, viewer)
            return StateOutputSerializer(
                {"viewer": viewer, "state": page.state, "procedure": page.procedure}
            ).data

        return cached_json(request, campaign, viewer, "api.state", build)


@extend_schema(tags=["journal"])
class ActionsApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = ActionSerializer
    filter_backends: list[type[BaseFilterBackend]] = []
    pagination_class = None  # a handful of to-dos, computed from the state

    @extend_schema(
        operation_id="campaigns_actions",
        responses={200: ActionSerializer(many=True), **errors(404)},
        summary="What you can (or should) do now",
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(ActionSerializer(self.get_queryset(), many=True).data)

    # DRF lists any sequence (the browsable API's filter form asks for it too); the stubs want a
    # QuerySet.
    def get_queryset(self) -> list[Action]:  # type: ignore[override]
        if getattr(self, "swagger_fake_view", False):
            return []
        campaign, viewer = self.campaign_and_viewer()
        # What the campaign page offers, proposals to reject or withdraw among them.
        return campaign_page(campaign, viewer).offered()


_IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Same as the body's idempotency_key (give one or the other, or both equal).",
)


@extend_schema(tags=["journal"])
class EventsApi(CampaignScoped, generics.ListAPIView[Any]):
    serializer_class = EventEntrySerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:  # the browsable API's form
        return SubmitInputSerializer if self.request.method == "POST" else EventEntrySerializer

    # DRF lists any sequence; the stubs want a QuerySet.
    def get_queryset(self) -> list[HistoryEntry]:  # type: ignore[override]
        if getattr(self, "swagger_fake_view", False):
            return []
        campaign, viewer = self.campaign_and_viewer()
        return history_by_uid(campaign, viewer)

    @extend_schema(
        operation_id="campaigns_events_list",
        responses={200: EventEntrySerializer(many=True), **errors(404)},
        summary="The history you may read, oldest first",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="campaigns_events_submit",
        request=SubmitInputSerializer,
        parameters=[_IDEMPOTENCY_HEADER],
        responses={
            201: SubmissionOutputSerializer,
            200: SubmissionOutputSerializer,
            400: SUBMIT_400,
            **errors(403, 404, 409),
        },
        summary="Submit an event (results, choices, purchases, proposals and their answers…)",
        description="201 with the events written that you may read and your new state; 200 with the original "
        "events when the idempotency key was used before. Proposals are answered with "
        '`{"kind": "proposal.approved", "data": {"proposal": "<uid>"}}`.',
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        # The journal's writer looks the campaign up, locked, with the requester in it (not a
        # member: not found): no look-up of its own first. A refusal of what was sent is said
        # only to a member; anyone else is told there is no such campaign, as before.
        campaign = Campaign(pk=campaign_id)
        try:
            data = valid_input(SubmitInputSerializer, request)
            key = _idempotency_key(data["idempotency_key"], request.headers.get("Idempotency-Key"))
            submission = submit(
                campaign,
                request.user,
                data["kind"],
                data["data"],
                side=data["side"] or None,
                dice=data["dice"],
                expected_version=data["expected_version"],
                idempotency_key=key,
            )
        except (ValidationError, DomainError):
            self.campaign_and_viewer()  # NotFound for one who is no member
            raise
        code = status.HTTP_200_OK if submission.replayed else status.HTTP_201_CREATED
        return Response(submission_output(campaign, request.user, submission), status=code)


def _idempotency_key(body: str | None, header: str | None) -> str | None:
    if body and header and body != header:
        raise DomainError("idempotency_key", "Differs from the Idempotency-Key header.")
    return body or header or None


@extend_schema(tags=["journal"])
class ExportApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = JournalSerializer

    @extend_schema(
        operation_id="campaigns_export",
        responses={200: JournalSerializer, **errors(404)},
        summary="The journal file: full for the referee (or an organizer once every side agreed), else your side's",
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign, viewer = self.campaign_and_viewer()
        return Response(JournalSerializer(journal_files.export_journal(campaign, viewer)).data)


# --- odds before rolling ------------------------------------------------------------------------


class SideOddsSerializer(serializers.Serializer[Any]):
    side = serializers.CharField()
    status = serializers.CharField(help_text="ready | pending (being computed in the background)")
    rolls = serializers.JSONField(
        required=False,
        help_text="each upcoming roll: key, label, table, modifiers [{label, rule, value}], total_modifier, "
        "outcomes [{outcome, fraction, percent}] and, where the roll changes a side value, after {label, values}",
    )


@extend_schema(tags=["journal"])
class OddsApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = SideOddsSerializer
    filter_backends: list[type[BaseFilterBackend]] = []
    pagination_class = None

    @extend_schema(
        operation_id="campaigns_odds",
        responses={200: SideOddsSerializer(many=True), **errors(404)},
        summary="Exact odds of your side's upcoming rolls (only the sides you may read)",
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign, viewer = self.campaign_and_viewer()
        found = odds.odds_for(campaign, viewer)
        # The journal position would count the other side's hidden events: not shown.
        rows = [
            {k: v for k, v in dict(entry, side=slug).items() if k != "seq"}
            for slug, entry in found.items()
        ]
        return Response(SideOddsSerializer(rows, many=True).data)


class TrendSeriesSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    values = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    kind = serializers.CharField(required=False, help_text="line (default), level or marks")


class TrendChartSerializer(serializers.Serializer[Any]):
    title = serializers.CharField()
    x = serializers.ListField(
        child=serializers.CharField(), help_text="the labels along the bottom"
    )
    x_name = serializers.CharField(required=False)
    series = TrendSeriesSerializer(many=True)


class TrendsApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = TrendChartSerializer
    filter_backends: list[type[BaseFilterBackend]] = []
    pagination_class = None

    @extend_schema(
        operation_id="campaigns_trends",
        responses={200: TrendChartSerializer(many=True), **errors(404)},
        summary="The campaign's numbers over time, as charts: public ones, and your side's own",
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign, viewer = self.campaign_and_viewer()
        return Response(TrendChartSerializer(campaign_trends(campaign, viewer), many=True).data)
