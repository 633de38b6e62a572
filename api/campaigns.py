"""Campaigns: list, create, detail, scenarios, roster, and the organizer's
people management (players and referee, written to the journal by the services)."""

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.access import visibility
from campaigns.kept_answers import viewcache
from campaigns.models import Campaign, Scenario
from campaigns.selectors.campaign_page import CampaignPage, campaign_for, campaign_page
from campaigns.services import campaigns as campaign_services
from campaigns.systems import get_system
from rosters.models import RosterEntry

from .clubs import ClubRefSerializer
from .common import CampaignScoped, cached_json, signed_in_user, valid_input
from .filters import CampaignFilter
from .openapi import errors
from .pagination import WindowCountPagination
from .serializers import (
    SubmissionOutputSerializer,
    ViewerSerializer,
    serialized_list,
    submission_output,
    username_field,
)

# --- serializers ------------------------------------------------------------------------------


class CampaignSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = ClubRefSerializer()
    system = serializers.CharField()
    variant = serializers.CharField()
    status = serializers.ChoiceField(Campaign.STATUSES)
    referee = serializers.CharField(source="referee.username", allow_null=True, default=None)
    created_by = serializers.CharField(source="created_by.username")
    created_at = serializers.DateTimeField()
    archived_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When an organizer archived it (out of the lists, still readable); null if not.",
    )


_SUMMARY_COLUMNS = (
    "id",
    "name",
    "club__slug",
    "club__name",
    "system",
    "variant",
    "status",
    "referee__username",
    "created_by__username",
    "created_at",
    "archived_at",
)


def summaries(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """CampaignSummarySerializer's output, from rows of _SUMMARY_COLUMNS by name."""
    return summaries_of([tuple(row[column] for column in _SUMMARY_COLUMNS) for row in rows])


def summaries_of(rows: Iterable[Sequence[Any]]) -> list[dict[str, Any]]:
    """CampaignSummarySerializer's output, from rows of _SUMMARY_COLUMNS' values in their order
    (as the list's first page is read: no mapping made per row): the same dates, each written once
    per process and time zone (a campaign's creation never moves; DRF's formatting had been a
    fifth of a list's time)."""
    from django.utils import timezone

    zone = timezone.get_current_timezone()
    return [
        {
            "id": id_,
            "name": name,
            "club": {"slug": club_slug, "name": club_name},
            "system": system,
            "variant": variant,
            "status": status,
            "referee": referee,
            "created_by": created_by,
            "created_at": _written(created_at, zone),
            "archived_at": _written(archived_at, zone) if archived_at else None,
        }
        for (
            id_,
            name,
            club_slug,
            club_name,
            system,
            variant,
            status,
            referee,
            created_by,
            created_at,
            archived_at,
        ) in rows
    ]


@lru_cache(maxsize=4096)
def _written(when: datetime, zone: tzinfo) -> str:
    written: str = serializers.DateTimeField(default_timezone=zone).to_representation(when)
    return written


class SideOutputSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Usernames (team play: several)."
    )


class ScenarioOutputSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    status = serializers.CharField(help_text="upcoming | current | pending | disputed | played")
    summary = serializers.JSONField(help_text="The public summary of its result.")


class StandingSerializer(serializers.Serializer[Any]):
    side = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    value = serializers.JSONField()


class CampaignDetailSerializer(CampaignSummarySerializer):
    system_name = serializers.CharField()
    variant_name = serializers.CharField()
    winner = serializers.CharField(allow_null=True)
    finish_reason = serializers.CharField(allow_blank=True)
    sides = SideOutputSerializer(many=True)
    scenarios = ScenarioOutputSerializer(many=True)
    standings = StandingSerializer(many=True)
    viewer = ViewerSerializer()


class CampaignCreateInputSerializer(serializers.Serializer[Any]):
    club = serializers.SlugField(help_text="The club's slug; you must be one of its organizers.")
    system = serializers.CharField(max_length=40)
    variant = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=120)
    options = serializers.DictField(
        required=False, default=dict, help_text="The system's option fields."
    )


class RosterEntryOutputSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="Stable id of the unit within its campaign.")
    side = serializers.CharField(allow_blank=True)
    audience = serializers.CharField(help_text="public | side")
    kind = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField(allow_blank=True)
    data = serializers.JSONField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute


class PlayerInputSerializer(serializers.Serializer[Any]):
    side = serializers.SlugField(max_length=40)
    username = username_field()


class ReplacePlayerInputSerializer(serializers.Serializer[Any]):
    side = serializers.SlugField(max_length=40)
    old = username_field()
    new = username_field()


class FinishInputSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=500, help_text="Why the campaign ends early.")


class RefereeInputSerializer(serializers.Serializer[Any]):
    username = username_field(allow_null=True, help_text="null: no referee.")


def detail_representation(campaign: Campaign) -> str:
    """The name of the detail answer in the cache of kept answers: what it shows beyond the
    journal (club, people's names) is part of it."""
    import hashlib

    row = (
        campaign.club.slug,
        campaign.club.name,
        campaign.created_by.username,
        campaign.referee.username if campaign.referee else None,
        campaign.archived_at,
    )
    return "api.detail:" + hashlib.sha256(repr(row).encode()).hexdigest()[:16]


def campaign_detail(campaign: Campaign, page: CampaignPage) -> dict[str, Any]:
    system = get_system(campaign.system)
    return CampaignDetailSerializer(
        {
            "id": campaign.id,
            "name": campaign.name,
            "club": campaign.club,
            "system": campaign.system,
            "variant": campaign.variant,
            "status": campaign.status,
            "referee": campaign.referee,
            "created_by": campaign.created_by,
            "created_at": campaign.created_at,
            "archived_at": campaign.archived_at,
            "system_name": system.name,
            "variant_name": system.variant(campaign.variant).name,
            "winner": page.state["winner"],
            "finish_reason": page.state["finish_reason"],
            "sides": [{"slug": slug, **side} for slug, side in page.state["sides"].items()],
            "scenarios": list(campaign.scenarios.all()),
            "standings": page.standings,
            "viewer": page.viewer,
        }
    ).data


# --- views -----------------------------------------------------------------------------------


@extend_schema(tags=["campaigns"])
class CampaignListCreateApi(generics.ListAPIView[Any]):
    serializer_class = CampaignSummarySerializer
    filterset_class = CampaignFilter
    pagination_class = WindowCountPagination  # the count read with the page, in one query

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:  # the browsable API's form
        return (
            CampaignCreateInputSerializer
            if self.request.method == "POST"
            else CampaignSummarySerializer
        )

    def get_queryset(self) -> QuerySet[Campaign]:
        # Newest first by creation: ordering by last activity would let the other
        # side watch a campaign move when a side makes a secret step.
        return (
            visibility.campaigns_for(self.request.user)
            .select_related("created_by")
            .order_by("-created_at", "-id")
        )

    @extend_schema(operation_id="campaigns_list", summary="Campaigns of my clubs")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # Only the columns a summary shows, as plain rows: no model instances, no snapshots.
        rows = self.paginate_queryset(
            self.filter_queryset(self.get_queryset()).values(*_SUMMARY_COLUMNS)
        )
        assert rows is not None  # the API pages every list (DEFAULT_PAGINATION_CLASS)
        return self.get_paginated_response(summaries(rows))

    @extend_schema(
        operation_id="campaigns_create",
        request=CampaignCreateInputSerializer,
        responses={201: CampaignDetailSerializer, **errors(400, 403, 404)},
        summary="Start a campaign (club organizer)",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(CampaignCreateInputSerializer, request)
        club = visibility.get_club_for(request.user, data["club"])
        campaign = campaign_services.create_campaign(
            club=club,
            user=signed_in_user(request),
            system=data["system"],
            variant=data["variant"],
            name=data["name"],
            options=data["options"],
        )
        campaign, viewer = campaign_for(request.user, campaign.pk)
        page = campaign_page(campaign, viewer)
        return Response(campaign_detail(campaign, page), status=status.HTTP_201_CREATED)


@extend_schema(tags=["campaigns"])
class CampaignDetailApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = CampaignDetailSerializer

    @extend_schema(
        operation_id="campaigns_retrieve",
        responses={200: CampaignDetailSerializer, **errors(404)},
        summary="A campaign: sides, players, referee, scenarios, standings",
    )
    def get(self, request: Request, campaign_id: int) -> HttpResponse | Response:
        campaign, viewer = self.campaign_and_viewer()
        return cached_json(
            request,
            campaign,
            viewer,
            detail_representation(campaign),
            lambda: campaign_detail(campaign, campaign_page(campaign, viewer)),
        )


@extend_schema(tags=["campaigns"])
class ScenarioListApi(CampaignScoped, generics.ListAPIView[Any]):
    serializer_class = ScenarioOutputSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_queryset(self) -> QuerySet[Scenario]:
        if getattr(self, "swagger_fake_view", False):
            return Scenario.objects.none()
        campaign, _ = self.campaign_and_viewer()
        return campaign.scenarios.order_by("index")

    @extend_schema(
        operation_id="campaigns_scenarios_list",
        responses={200: ScenarioOutputSerializer(many=True), **errors(404)},
        summary="The scenarios, in order",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["campaigns"])
class RosterApi(CampaignScoped, generics.ListAPIView[Any]):
    serializer_class = RosterEntryOutputSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_queryset(self) -> QuerySet[RosterEntry]:
        if getattr(self, "swagger_fake_view", False):
            return RosterEntry.objects.none()
        campaign, viewer = self.campaign_and_viewer()
        return visibility.roster_entries_for(viewer, campaign).order_by("side", "order", "pk")

    @extend_schema(
        operation_id="campaigns_roster_list",
        responses={200: RosterEntryOutputSerializer(many=True), **errors(404)},
        summary="Roster entries you may see (public ones and your side's)",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        campaign, viewer = self.campaign_and_viewer()
        # Every entry the viewer's audience may read, serialised once per position; pages of it.
        rows = viewcache.cached(
            campaign,
            viewer,
            "api.roster",
            lambda: [
                dict(row)
                for row in serialized_list(self.get_queryset(), RosterEntryOutputSerializer())
            ],
        )
        return self.get_paginated_response(self.paginate_queryset(rows))


@extend_schema(tags=["campaigns"])
class PlayerAssignApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = PlayerInputSerializer

    @extend_schema(
        operation_id="campaigns_players_assign",
        request=PlayerInputSerializer,
        responses={201: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Put a club member on a side (organizer)",
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(PlayerInputSerializer, request)
        submission = campaign_services.assign_player(
            campaign, signed_in_user(request), side=data["side"], username=data["username"]
        )
        return Response(
            submission_output(campaign, request.user, submission), status=status.HTTP_201_CREATED
        )


@extend_schema(tags=["campaigns"])
class PlayerRemoveApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = PlayerInputSerializer

    @extend_schema(
        operation_id="campaigns_players_remove",
        request=PlayerInputSerializer,
        responses={200: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Take a player off a side (organizer)",
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(PlayerInputSerializer, request)
        submission = campaign_services.remove_player(
            campaign, signed_in_user(request), side=data["side"], username=data["username"]
        )
        return Response(submission_output(campaign, request.user, submission))


@extend_schema(tags=["campaigns"])
class PlayerReplaceApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = ReplacePlayerInputSerializer

    @extend_schema(
        operation_id="campaigns_players_replace",
        request=ReplacePlayerInputSerializer,
        responses={200: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Replace a player, also in a running campaign (organizer)",
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(ReplacePlayerInputSerializer, request)
        submission = campaign_services.replace_player(
            campaign, signed_in_user(request), side=data["side"], old=data["old"], new=data["new"]
        )
        return Response(submission_output(campaign, request.user, submission))


@extend_schema(tags=["campaigns"])
class RefereeApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = RefereeInputSerializer

    @extend_schema(
        operation_id="campaigns_referee_set",
        request=RefereeInputSerializer,
        responses={200: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Name the referee, or none (organizer)",
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(RefereeInputSerializer, request)
        submission = campaign_services.assign_referee(
            campaign, signed_in_user(request), username=data["username"]
        )
        return Response(submission_output(campaign, request.user, submission))


@extend_schema(tags=["campaigns"])
class FinishApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = FinishInputSerializer

    @extend_schema(
        operation_id="campaigns_finish",
        request=FinishInputSerializer,
        responses={200: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary=(
            "End the campaign (organizer): in play, one who plays or played a side, or is no "
            "neutral organizer, proposes it (the answer's first event is then the proposal)"
        ),
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(FinishInputSerializer, request)
        submission = campaign_services.finish_campaign(
            campaign, signed_in_user(request), reason=data["reason"]
        )
        return Response(submission_output(campaign, request.user, submission))


@extend_schema(tags=["campaigns"])
class ArchiveApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = CampaignDetailSerializer

    @extend_schema(
        operation_id="campaigns_archive",
        request=None,
        responses={200: CampaignDetailSerializer, **errors(400, 403, 404)},
        summary=(
            "Archive a campaign nobody plays, set up or finished (organizer): out of the lists "
            "(?archived=true lists them), still readable and exportable, no notices; undone by "
            "restore. A campaign in play is ended first (400)."
        ),
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        campaign_services.archive_campaign(campaign, signed_in_user(request))
        return Response(_detail_now(request, campaign_id))


@extend_schema(tags=["campaigns"])
class RestoreApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = CampaignDetailSerializer

    @extend_schema(
        operation_id="campaigns_restore",
        request=None,
        responses={200: CampaignDetailSerializer, **errors(400, 403, 404)},
        summary="Bring an archived campaign back to the lists (organizer); 400 if not archived",
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        campaign_services.restore_campaign(campaign, signed_in_user(request))
        return Response(_detail_now(request, campaign_id))


def _detail_now(request: Request, campaign_id: int) -> dict[str, Any]:
    campaign, viewer = campaign_for(request.user, campaign_id)
    return campaign_detail(campaign, campaign_page(campaign, viewer))


# --- a campaign like a past one ------------------------------------------------------------------


class SeatSerializer(serializers.Serializer[Any]):
    side = serializers.SlugField(max_length=40)
    username = username_field()


class LikeHouseRuleSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    value = serializers.JSONField()
    note = serializers.CharField(allow_blank=True)


class TemplateOutputSerializer(serializers.Serializer[Any]):
    system = serializers.CharField()
    variant = serializers.CharField()
    name = serializers.CharField(help_text="The past campaign's name.")
    options = serializers.DictField()
    house_rules = LikeHouseRuleSerializer(many=True)
    seats = SeatSerializer(many=True, help_text="Its players who are still members.")
    referee = serializers.CharField(allow_null=True)


class LikeInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    variant = serializers.CharField(max_length=40, required=False, help_text="Default: its own.")
    options = serializers.DictField(required=False, help_text="Default: its own.")
    house_rules = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        max_length=200,
        help_text="The keys of its house rules to keep. Default: all.",
    )
    seats = serializers.ListField(
        child=SeatSerializer(),
        required=False,
        max_length=100,
        help_text="Default: its players still members.",
    )
    referee = username_field(
        allow_null=True, required=False, help_text="Default: its referee; null: none."
    )


@extend_schema(tags=["campaigns"])
class LikeApi(CampaignScoped, generics.GenericAPIView[Any]):
    serializer_class = LikeInputSerializer

    @extend_schema(
        operation_id="campaigns_template",
        responses={200: TemplateOutputSerializer, **errors(403, 404)},
        summary="What a new campaign like this one starts from (club organizer)",
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign, _ = self.campaign_and_viewer()
        t = campaign_services.template_of(campaign, signed_in_user(request))
        rules = [{"key": k, "value": v, "note": n} for k, (v, n) in t.house_rules.items()]
        seats = [{"side": side, "username": name} for side, name in t.seats]
        return Response(
            TemplateOutputSerializer(
                {**t.__dict__, "house_rules": rules, "seats": seats}  # a frozen dataclass's fields
            ).data
        )

    @extend_schema(
        operation_id="campaigns_like",
        request=LikeInputSerializer,
        responses={201: CampaignDetailSerializer, **errors(400, 403, 404)},
        summary=(
            "Start a campaign like this one (club organizer): its game, and by default its "
            "variant, options, house rules, players and referee, seated by the normal path"
        ),
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        source, _ = self.campaign_and_viewer()
        user = signed_in_user(request)
        data = valid_input(LikeInputSerializer, request)
        t = campaign_services.template_of(source, user)
        seats = data.get("seats")
        campaign = campaign_services.create_like(
            source=source,
            user=user,
            name=data["name"],
            variant=data.get("variant", t.variant),
            options=data.get("options", t.options),
            house_rules=data.get("house_rules", list(t.house_rules)),
            seats=[(s["side"], s["username"]) for s in seats] if seats is not None else [*t.seats],
            referee=data["referee"] if "referee" in data else t.referee,
        )
        return Response(_detail_now(request, campaign.pk), status=status.HTTP_201_CREATED)
