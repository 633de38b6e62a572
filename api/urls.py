"""The API: /api/v1/ (session or token auth), its OpenAPI 3 schema and its docs (assets served locally)."""

import re

from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, include, path, re_path
from django.views.decorators.csrf import csrf_exempt

from . import auth, campaigns, clubs, journal, notices, systems, webhooks
from .docs import RedocDocsView, SchemaView, SwaggerDocsView
from .root import ApiRoot

CAMPAIGN = "v1/campaigns/<int:campaign_id>/"


@csrf_exempt  # it changes nothing: a POST with a session cookie and no token is a 404 too, not CSRF's HTML 403
def unknown_route(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    return JsonResponse({"detail": "Not found."}, status=404)


v1 = [
    path("v1/", ApiRoot.as_view(endpoints=lambda: endpoints()), name="api-root"),
    path("v1/auth/token/", auth.TokenObtainApi.as_view(), name="api-token"),
    path("v1/systems/", systems.SystemListApi.as_view(), name="api-systems"),
    path("v1/systems/<slug:slug>/", systems.SystemDetailApi.as_view(), name="api-system"),
    path("v1/clubs/", clubs.ClubListCreateApi.as_view(), name="api-clubs"),
    path("v1/clubs/<slug:slug>/", clubs.ClubDetailApi.as_view(), name="api-club"),
    path("v1/clubs/<slug:slug>/members/", clubs.MemberListApi.as_view(), name="api-club-members"),
    path(
        "v1/clubs/<slug:slug>/members/<str:username>/role/",
        clubs.MemberRoleApi.as_view(),
        name="api-member-role",
    ),
    path("v1/clubs/<slug:slug>/hand-over/", clubs.HandOverApi.as_view(), name="api-club-hand-over"),
    path(
        "v1/clubs/<slug:slug>/invitations/",
        clubs.InvitationListCreateApi.as_view(),
        name="api-invitations",
    ),
    path(
        "v1/clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        clubs.InvitationRevokeApi.as_view(),
        name="api-invitation-revoke",
    ),
    path(
        "v1/invitations/accept/", clubs.InvitationAcceptApi.as_view(), name="api-invitation-accept"
    ),
    path(
        "v1/clubs/<slug:slug>/webhooks/",
        webhooks.WebhookListCreateApi.as_view(),
        name="api-club-webhooks",
    ),
    path(
        "v1/clubs/<slug:slug>/webhooks/<int:webhook_id>/",
        webhooks.WebhookDetailApi.as_view(),
        name="api-club-webhook",
    ),
    path("v1/notices/", notices.NoticeListApi.as_view(), name="api-notices"),
    path("v1/notices/read/", notices.NoticesReadApi.as_view(), name="api-notices-read"),
    path("v1/notices/<int:notice_id>/", notices.NoticeDetailApi.as_view(), name="api-notice"),
    path("v1/campaigns/", campaigns.CampaignListCreateApi.as_view(), name="api-campaigns"),
    path(CAMPAIGN, campaigns.CampaignDetailApi.as_view(), name="api-campaign"),
    path(CAMPAIGN + "state/", journal.StateApi.as_view(), name="api-campaign-state"),
    path(CAMPAIGN + "actions/", journal.ActionsApi.as_view(), name="api-campaign-actions"),
    path(CAMPAIGN + "odds/", journal.OddsApi.as_view(), name="api-campaign-odds"),
    path(CAMPAIGN + "trends/", journal.TrendsApi.as_view(), name="api-campaign-trends"),
    path(CAMPAIGN + "events/", journal.EventsApi.as_view(), name="api-campaign-events"),
    path(CAMPAIGN + "export/", journal.ExportApi.as_view(), name="api-campaign-export"),
    path(
        CAMPAIGN + "scenarios/", campaigns.ScenarioListApi.as_view(), name="api-campaign-scenarios"
    ),
    path(CAMPAIGN + "roster/", campaigns.RosterApi.as_view(), name="api-campaign-roster"),
    path(CAMPAIGN + "players/", campaigns.PlayerAssignApi.as_view(), name="api-campaign-players"),
    path(
        CAMPAIGN + "players/remove/",
        campaigns.PlayerRemoveApi.as_view(),
        name="api-campaign-player-remove",
    ),
    path(
        CAMPAIGN + "players/replace/",
        campaigns.PlayerReplaceApi.as_view(),
        name="api-campaign-player-replace",
    ),
    path(CAMPAIGN + "referee/", campaigns.RefereeApi.as_view(), name="api-campaign-referee"),
    path(CAMPAIGN + "finish/", campaigns.FinishApi.as_view(), name="api-campaign-finish"),
    path(CAMPAIGN + "archive/", campaigns.ArchiveApi.as_view(), name="api-campaign-archive"),
    path(CAMPAIGN + "restore/", campaigns.RestoreApi.as_view(), name="api-campaign-restore"),
    path(CAMPAIGN + "again/", campaigns.LikeApi.as_view(), name="api-campaign-like"),
]


def _template(route: str) -> str:
    """'v1/campaigns/<int:campaign_id>/state/' -> '/api/v1/campaigns/{campaign_id}/state/'"""
    return "/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def endpoints() -> dict[str, str]:
    found: dict[str, str] = {}
    for pattern in v1:
        found[_name(pattern)] = _template(str(pattern.pattern))
    for pattern in rosters_v1():
        found[_name(pattern)] = _template("v1/" + str(pattern.pattern))
    return found


def _name(pattern: URLPattern) -> str:
    if pattern.name is None:  # never: every route of the API is named
        raise ValueError(f"the API route {pattern.pattern} has no name")
    return pattern.name


def rosters_v1() -> list[URLPattern]:
    from rosters import api_urls

    return api_urls.urlpatterns


urlpatterns = [
    *v1,
    path("v1/", include("rosters.api_urls")),
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SwaggerDocsView.as_view(), name="api-docs"),
    path("redoc/", RedocDocsView.as_view(), name="api-redoc"),
    # Last: any other address under /api/ is a JSON 404, like the API's own.
    re_path(r"^.*$", unknown_route),
]
