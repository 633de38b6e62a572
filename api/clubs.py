"""Clubs, members and invitations.

Every lookup goes through campaigns.access.visibility (a non-member gets 404); the
organizer-only rules live in campaigns.services.clubs (403 for other members).
"""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import OuterRef, QuerySet, Subquery
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.access import visibility
from campaigns.errors import NotFound
from campaigns.models import Club, Invitation, Membership
from campaigns.selectors.clubs import club_invitations
from campaigns.services import clubs as club_services

from .common import signed_in_user, valid_input
from .openapi import DetailSerializer, errors

# --- serializers ------------------------------------------------------------------------------


class ClubOutputSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    role = serializers.ChoiceField(
        Membership.ROLES, source="my_role", help_text="Your role in the club."
    )


class ClubCreateInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)


class MemberOutputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(Membership.ROLES)
    joined_at = serializers.DateTimeField()


class ClubRefSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()


class MembershipOutputSerializer(MemberOutputSerializer):
    club = ClubRefSerializer()


class RoleInputSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(Membership.ROLES)


class HandOverInputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(
        max_length=150, help_text="The member who becomes organizer; you step down."
    )


class InvitationOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    code = serializers.CharField(help_text="Give it to the person invited; they accept it once.")
    role = serializers.ChoiceField(Membership.ROLES)
    email = serializers.EmailField(allow_blank=True)
    created_by = serializers.CharField(source="created_by.username")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    accepted_by = serializers.CharField(
        source="accepted_by.username", allow_null=True, default=None
    )
    accepted_at = serializers.DateTimeField(allow_null=True)
    revoked = serializers.BooleanField()
    usable = serializers.BooleanField()


class InvitationCreateInputSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(Membership.ROLES, default=Membership.PLAYER)
    email = serializers.EmailField(
        required=False,
        allow_blank=True,
        help_text="Optional: the invitation is e-mailed to this address.",
    )


INVITATIONS_429 = OpenApiResponse(
    DetailSerializer,
    description="You created as many invitations in the last hour "
    "as an organizer may: wait (`Retry-After`).",
)


class InvitationAcceptInputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(max_length=40)


# --- views -----------------------------------------------------------------------------------


def _clubs_with_role(user: User) -> QuerySet[Club]:
    role = Membership.objects.filter(club=OuterRef("pk"), user=user).values("role")[:1]
    return visibility.clubs_for(user).annotate(my_role=Subquery(role))


def _club(request: Request, slug: str) -> Club:
    club = visibility.get_club_for(request.user, slug)
    _with_role(club, visibility.role_in(request.user, club))
    return club


def _with_role(club: Club, role: str | None) -> None:
    """The requester's role, read by ClubOutputSerializer (as _clubs_with_role annotates it)."""
    club.my_role = role  # type: ignore[attr-defined]  # an attribute of the answer, not of the model


@extend_schema(tags=["clubs"])
class ClubListCreateApi(generics.GenericAPIView[Any]):
    serializer_class = ClubOutputSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:  # the browsable API's form
        return ClubCreateInputSerializer if self.request.method == "POST" else ClubOutputSerializer

    def get_queryset(self) -> QuerySet[Club]:
        return _clubs_with_role(signed_in_user(self.request)).order_by("name", "pk")

    @extend_schema(
        operation_id="clubs_list", responses=ClubOutputSerializer(many=True), summary="My clubs"
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(ClubOutputSerializer(page, many=True).data)

    @extend_schema(
        operation_id="clubs_create",
        request=ClubCreateInputSerializer,
        responses={201: ClubOutputSerializer, **errors(400)},
        summary="Found a club (you become its organizer)",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(ClubCreateInputSerializer, request)
        club = club_services.create_club(user=signed_in_user(request), name=data["name"])
        _with_role(club, Membership.ORGANIZER)
        return Response(ClubOutputSerializer(club).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["clubs"])
class ClubDetailApi(generics.GenericAPIView[Any]):
    serializer_class = ClubOutputSerializer

    @extend_schema(
        operation_id="clubs_retrieve",
        responses={200: ClubOutputSerializer, **errors(404)},
        summary="Club",
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(ClubOutputSerializer(_club(request, slug)).data)


@extend_schema(tags=["clubs"])
class MemberListApi(generics.ListAPIView[Any]):
    serializer_class = MemberOutputSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_queryset(self) -> QuerySet[Membership]:
        if getattr(self, "swagger_fake_view", False):
            return Membership.objects.none()
        club = visibility.get_club_for(self.request.user, self.kwargs["slug"])
        return club.memberships.select_related("user").order_by("user__username")

    @extend_schema(
        operation_id="clubs_members_list",
        responses={200: MemberOutputSerializer(many=True), **errors(404)},
        summary="A club's members",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["clubs"])
class MemberRoleApi(generics.GenericAPIView[Any]):
    serializer_class = RoleInputSerializer

    @extend_schema(
        operation_id="clubs_members_set_role",
        request=RoleInputSerializer,
        responses={200: MemberOutputSerializer, **errors(400, 403, 404)},
        summary="Set a member's role (organizer)",
    )
    def post(self, request: Request, slug: str, username: str) -> Response:
        club = _club(request, slug)
        data = valid_input(RoleInputSerializer, request)
        membership = club_services.set_role(
            club=club, user=signed_in_user(request), member_username=username, role=data["role"]
        )
        return Response(MemberOutputSerializer(membership).data)


@extend_schema(tags=["clubs"])
class HandOverApi(generics.GenericAPIView[Any]):
    serializer_class = HandOverInputSerializer

    @extend_schema(
        operation_id="clubs_hand_over",
        request=HandOverInputSerializer,
        responses={200: MemberOutputSerializer, **errors(400, 403, 404)},
        summary="Hand the organizer role to another member (organizer)",
    )
    def post(self, request: Request, slug: str) -> Response:
        club = _club(request, slug)
        data = valid_input(HandOverInputSerializer, request)
        membership = club_services.hand_over_organizer(
            club=club, user=signed_in_user(request), to_username=data["username"]
        )
        return Response(MemberOutputSerializer(membership).data)


@extend_schema(tags=["clubs"])
class InvitationListCreateApi(generics.GenericAPIView[Any]):
    serializer_class = InvitationOutputSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:  # the browsable API's form
        return (
            InvitationCreateInputSerializer
            if self.request.method == "POST"
            else InvitationOutputSerializer
        )

    def get_queryset(self) -> QuerySet[Invitation]:
        club = visibility.get_club_for(self.request.user, self.kwargs["slug"])
        return club_invitations(user=signed_in_user(self.request), club=club).order_by(
            "-created_at", "-pk"
        )

    @extend_schema(
        operation_id="clubs_invitations_list",
        responses={200: InvitationOutputSerializer(many=True), **errors(403, 404)},
        summary="A club's invitations (organizer)",
    )
    def get(self, request: Request, slug: str) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(InvitationOutputSerializer(page, many=True).data)

    @extend_schema(
        operation_id="clubs_invitations_create",
        request=InvitationCreateInputSerializer,
        responses={201: InvitationOutputSerializer, **errors(400, 403, 404), 429: INVITATIONS_429},
        summary="Invite someone (organizer)",
        description="With an `email`, the invitation is e-mailed to it (a background task). An organizer creates "
        "at most `INVITATIONS_PER_HOUR` invitations an hour (20 unless the site says otherwise): "
        "beyond it, 429 with the limit and the minutes to wait (`Retry-After`).",
    )
    def post(self, request: Request, slug: str) -> Response:
        club = _club(request, slug)
        data = valid_input(InvitationCreateInputSerializer, request)
        invitation = club_services.invite(
            club=club, user=signed_in_user(request), role=data["role"], email=data.get("email", "")
        )
        return Response(InvitationOutputSerializer(invitation).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["clubs"])
class InvitationRevokeApi(generics.GenericAPIView[Any]):
    serializer_class = InvitationOutputSerializer

    @extend_schema(
        operation_id="clubs_invitations_revoke",
        request=None,
        responses={200: InvitationOutputSerializer, **errors(403, 404)},
        summary="Revoke an invitation (organizer)",
    )
    def post(self, request: Request, slug: str, invitation_id: int) -> Response:
        club = _club(request, slug)
        invitation = (
            club_invitations(user=signed_in_user(request), club=club)
            .filter(pk=invitation_id)
            .first()
        )
        if invitation is None:
            raise NotFound("invitation")
        club_services.revoke_invitation(invitation=invitation, user=signed_in_user(request))
        return Response(InvitationOutputSerializer(invitation).data)


@extend_schema(tags=["clubs"])
class InvitationAcceptApi(generics.GenericAPIView[Any]):
    serializer_class = InvitationAcceptInputSerializer

    @extend_schema(
        operation_id="invitations_accept",
        request=InvitationAcceptInputSerializer,
        responses={200: MembershipOutputSerializer, **errors(400, 404)},
        summary="Join a club with an invitation code",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(InvitationAcceptInputSerializer, request)
        membership = club_services.accept_invitation(
            code=data["code"], user=signed_in_user(request)
        )
        return Response(MembershipOutputSerializer(membership).data)
