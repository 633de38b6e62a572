"""Campaigns: list, create, detail, scenarios, roster, and the organizer's
people management (players and referee, written to the journal by the services)."""

from functools import lru_cache

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response

from campaigns.access import visibility
from campaigns.kept_answers import viewcache
from campaigns.models import Campaign, Scenario
from campaigns.selectors.campaign_page import campaign_for, campaign_page
from campaigns.services import campaigns as campaign_services
from campaigns.systems import get_system
from rosters.models import RosterEntry

from .clubs import ClubRefSerializer
from .common import CampaignScoped, cached_json, valid_input
from .filters import CampaignFilter
from .openapi import errors
from .serializers import (
    SubmissionOutputSerializer,
    ViewerSerializer,
    submission_output,
    username_field,
)

# --- serializers ------------------------------------------------------------------------------


class CampaignSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = ClubRefSerializer()
    system = serializers.CharField()
    variant = serializers.CharField()
    status = serializers.ChoiceField(Campaign.STATUSES)
    referee = serializers.CharField(source="referee.username", allow_null=True, default=None)
    created_by = serializers.CharField(source="created_by.username")
    created_at = serializers.DateTimeField()


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
)


def summaries(rows) -> list[dict]:
    """CampaignSummarySerializer's output, from rows of _SUMMARY_COLUMNS: the same dates, each
    written once per process and time zone (a campaign's creation never moves; DRF's formatting
    had been a fifth of a list's time)."""
    from django.utils import timezone

    zone = timezone.get_current_timezone()
    return [
        {
            "id": row["id"],
            "name": row["name"],
            "club": {"slug": row["club__slug"], "name": row["club__name"]},
            "system": row["system"],
            "variant": row["variant"],
            "status": row["status"],
            "referee": row["referee__username"],
            "created_by": row["created_by__username"],
            "created_at": _written(row["created_at"], zone),
        }
        for row in rows
    ]


@lru_cache(maxsize=4096)
def _written(when, zone) -> str:
    return serializers.DateTimeField(default_timezone=zone).to_representation(when)


class SideOutputSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Usernames (team play: several)."
    )


class ScenarioOutputSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    label = serializers.CharField()
    status = serializers.CharField(help_text="upcoming | current | pending | disputed | played")
    summary = serializers.JSONField(help_text="The public summary of its result.")


class StandingSerializer(serializers.Serializer):
    side = serializers.CharField()
    label = serializers.CharField()
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


class CampaignCreateInputSerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="The club's slug; you must be one of its organizers.")
    system = serializers.CharField(max_length=40)
    variant = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=120)
    options = serializers.DictField(
        required=False, default=dict, help_text="The system's option fields."
    )


class RosterEntryOutputSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="Stable id of the unit within its campaign.")
    side = serializers.CharField(allow_blank=True)
    audience = serializers.CharField(help_text="public | side")
    kind = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField(allow_blank=True)
    data = serializers.JSONField()


class PlayerInputSerializer(serializers.Serializer):
    side = serializers.SlugField(max_length=40)
    username = username_field()


class ReplacePlayerInputSerializer(serializers.Serializer):
    side = serializers.SlugField(max_length=40)
    old = username_field()
    new = username_field()


class RefereeInputSerializer(serializers.Serializer):
    username = username_field(allow_null=True, help_text="null: no referee.")


def detail_representation(campaign) -> str:
    """The name of the detail answer in the cache of kept answers: what it shows beyond the
    journal (club, people's names) is part of it."""
    import hashlib

    row = (
        campaign.club.slug,
        campaign.club.name,
        campaign.created_by.username,
        campaign.referee.username if campaign.referee else None,
    )
    return "api.detail:" + hashlib.sha256(repr(row).encode()).hexdigest()[:16]


def campaign_detail(campaign, page) -> dict:
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
class CampaignListCreateApi(generics.ListAPIView):
    serializer_class = CampaignSummarySerializer
    filterset_class = CampaignFilter

    def get_serializer_class(self):  # the browsable API's form
        return (
            CampaignCreateInputSerializer
            if self.request.method == "POST"
            else CampaignSummarySerializer
        )

    def get_queryset(self):
        # Newest first by creation: ordering by last activity would let the other
        # side watch a campaign move when a side makes a secret step.
        return (
            visibility.campaigns_for(self.request.user)
            .select_related("created_by")
            .order_by("-created_at", "-id")
        )

    @extend_schema(operation_id="campaigns_list", summary="Campaigns of my clubs")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def list(self, request, *args, **kwargs):
        # Only the columns a summary shows, as plain rows: no model instances, no snapshots.
        rows = self.paginate_queryset(
            self.filter_queryset(self.get_queryset()).values(*_SUMMARY_COLUMNS)
        )
        return self.get_paginated_response(summaries(rows))

    @extend_schema(
        operation_id="campaigns_create",
        request=CampaignCreateInputSerializer,
        responses={201: CampaignDetailSerializer, **errors(400, 403, 404)},
        summary="Start a campaign (club organizer)",
    )
    def post(self, request):
        data = valid_input(CampaignCreateInputSerializer, request)
        club = visibility.get_club_for(request.user, data["club"])
        campaign = campaign_services.create_campaign(
            club=club,
            user=request.user,
            system=data["system"],
            variant=data["variant"],
            name=data["name"],
            options=data["options"],
        )
        campaign, viewer = campaign_for(request.user, campaign.pk)
        page = campaign_page(campaign, viewer)
        return Response(campaign_detail(campaign, page), status=status.HTTP_201_CREATED)


@extend_schema(tags=["campaigns"])
class CampaignDetailApi(CampaignScoped, generics.GenericAPIView):
    serializer_class = CampaignDetailSerializer

    @extend_schema(
        operation_id="campaigns_retrieve",
        responses={200: CampaignDetailSerializer, **errors(404)},
        summary="A campaign: sides, players, referee, scenarios, standings",
    )
    def get(self, request, campaign_id):
        campaign, viewer = self.campaign_and_viewer()
        return cached_json(
            request,
            campaign,
            viewer,
            detail_representation(campaign),
            lambda: campaign_detail(campaign, campaign_page(campaign, viewer)),
        )


@extend_schema(tags=["campaigns"])
class ScenarioListApi(CampaignScoped, generics.ListAPIView):
    serializer_class = ScenarioOutputSerializer
    filter_backends: list = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Scenario.objects.none()
        campaign, _ = self.campaign_and_viewer()
        return campaign.scenarios.order_by("index")

    @extend_schema(
        operation_id="campaigns_scenarios_list",
        responses={200: ScenarioOutputSerializer(many=True), **errors(404)},
        summary="The scenarios, in order",
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["campaigns"])
class RosterApi(CampaignScoped, generics.ListAPIView):
    serializer_class = RosterEntryOutputSerializer
    filter_backends: list = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return RosterEntry.objects.none()
        campaign, viewer = self.campaign_and_viewer()
        return visibility.roster_entries_for(viewer, campaign).order_by("side", "order", "pk")

    @extend_schema(
        operation_id="campaigns_roster_list",
        responses={200: RosterEntryOutputSerializer(many=True), **errors(404)},
        summary="Roster entries you may see (public ones and your side's)",
    )
    def get(self, request, *args, **kwargs):
        campaign, viewer = self.campaign_and_viewer()
        # Every entry the viewer's audience may read, serialised once per position; pages of it.
        rows = viewcache.cached(
            campaign,
            viewer,
            "api.roster",
            lambda: [
                dict(row)
                for row in RosterEntryOutputSerializer(self.get_queryset(), many=True).data
            ],
        )
        return self.get_paginated_response(self.paginate_queryset(rows))


@extend_schema(tags=["campaigns"])
class PlayerAssignApi(CampaignScoped, generics.GenericAPIView):
    serializer_class = PlayerInputSerializer

    @extend_schema(
        operation_id="campaigns_players_assign",
        request=PlayerInputSerializer,
        responses={201: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Put a club member on a side (organizer)",
    )
    def post(self, request, campaign_id):
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(PlayerInputSerializer, request)
        submission = campaign_services.assign_player(
            campaign, request.user, side=data["side"], username=data["username"]
        )
        return Response(
            submission_output(campaign, request.user, submission), status=status.HTTP_201_CREATED
        )


@extend_schema(tags=["campaigns"])
class PlayerRemoveApi(CampaignScoped, generics.GenericAPIView):
    serializer_class = PlayerInputSerializer

    @extend_schema(
        operation_id="campaigns_players_remove",
        request=PlayerInputSerializer,
        responses={200: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Take a player off a side (organizer)",
    )
    def post(self, request, campaign_id):
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(PlayerInputSerializer, request)
        submission = campaign_services.remove_player(
            campaign, request.user, side=data["side"], username=data["username"]
        )
        return Response(submission_output(campaign, request.user, submission))


@extend_schema(tags=["campaigns"])
class PlayerReplaceApi(CampaignScoped, generics.GenericAPIView):
    serializer_class = ReplacePlayerInputSerializer

    @extend_schema(
        operation_id="campaigns_players_replace",
        request=ReplacePlayerInputSerializer,
        responses={200: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Replace a player, also in a running campaign (organizer)",
    )
    def post(self, request, campaign_id):
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(ReplacePlayerInputSerializer, request)
        submission = campaign_services.replace_player(
            campaign, request.user, side=data["side"], old=data["old"], new=data["new"]
        )
        return Response(submission_output(campaign, request.user, submission))


@extend_schema(tags=["campaigns"])
class RefereeApi(CampaignScoped, generics.GenericAPIView):
    serializer_class = RefereeInputSerializer

    @extend_schema(
        operation_id="campaigns_referee_set",
        request=RefereeInputSerializer,
        responses={200: SubmissionOutputSerializer, **errors(400, 403, 404)},
        summary="Name the referee, or none (organizer)",
    )
    def post(self, request, campaign_id):
        campaign, _ = self.campaign_and_viewer()
        data = valid_input(RefereeInputSerializer, request)
        submission = campaign_services.assign_referee(
            campaign, request.user, username=data["username"]
        )
        return Response(submission_output(campaign, request.user, submission))
