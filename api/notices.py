"""A person's notices (campaigns.notices): their own only; another person's notice is not found,
exactly like a missing one. Listing reads nothing; marking read is explicit."""

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.models import Notice
from campaigns.notices import inbox

from .common import signed_in_user, valid_input
from .openapi import errors


class NoticeOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField(
        source="campaign_id", allow_null=True, help_text="None for a club's or the site's."
    )
    campaign_name = serializers.CharField(source="campaign.name", allow_null=True, default=None)
    key = serializers.CharField(
        help_text="What waits (`turn/<side>`, `result/<n>/confirm`, `proposal/<uid>` …): stable "
        "while it waits, never a value of it."
    )
    words = serializers.CharField(help_text="A sentence drawn from what you may see.")
    link = serializers.CharField(help_text="The page where you act (a path on this site).")
    waiting = serializers.BooleanField(
        help_text="Something waits for you: it goes away when you act. Otherwise news, which "
        "goes away when read."
    )
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class NoticeReadInputSerializer(serializers.Serializer[Any]):
    read = serializers.BooleanField(
        default=True, help_text="false: unread again (a notice still waiting only)."
    )


class NoticesReadInputSerializer(serializers.Serializer[Any]):
    up_to = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        help_text="The newest notice id you have seen: it and every older open notice of yours "
        "are marked read (news goes away); newer ones stay unread.",
    )


UNREAD = OpenApiParameter(
    "unread", OpenApiTypes.BOOL, description="true: only unread notices (their `count`)."
)


@extend_schema(tags=["notices"])
class NoticeListApi(generics.GenericAPIView[Any]):
    serializer_class = NoticeOutputSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    def get_queryset(self) -> QuerySet[Notice]:
        return inbox.open_notices(self.request.user).order_by("-created_at", "-pk")

    @extend_schema(
        operation_id="notices_list",
        parameters=[UNREAD],
        responses={200: NoticeOutputSerializer(many=True), **errors(400)},
        summary="My notices (open ones, newest first)",
    )
    def get(self, request: Request) -> Response:
        unread = _flag(request, "unread")
        found = self.get_queryset()
        if unread:
            found = found.filter(read_at=None)
        page = self.paginate_queryset(found)
        return self.get_paginated_response(NoticeOutputSerializer(page, many=True).data)


def _flag(request: Request, name: str) -> bool:
    value = request.query_params.get(name, "false").lower()
    if value not in ("true", "false", "1", "0"):
        raise serializers.ValidationError({name: ["Must be true or false."]})
    return value in ("true", "1")


@extend_schema(tags=["notices"])
class NoticeDetailApi(generics.GenericAPIView[Any]):
    serializer_class = NoticeReadInputSerializer
    queryset = Notice.objects.none()  # for the schema only: lookups are inbox.own_notice's

    @extend_schema(
        operation_id="notices_retrieve",
        responses={200: NoticeOutputSerializer, **errors(404)},
        summary="One of my notices",
    )
    def get(self, request: Request, notice_id: int) -> Response:
        notice = inbox.own_notice(signed_in_user(request), notice_id)
        return Response(NoticeOutputSerializer(notice).data)

    @extend_schema(
        operation_id="notices_mark",
        request=NoticeReadInputSerializer,
        responses={200: NoticeOutputSerializer, **errors(400, 404)},
        summary="Mark one of my notices read (or unread again)",
    )
    def patch(self, request: Request, notice_id: int) -> Response:
        data = valid_input(NoticeReadInputSerializer, request)
        user = signed_in_user(request)
        notice = (
            inbox.mark_read(user, notice_id) if data["read"] else inbox.mark_unread(user, notice_id)
        )
        return Response(NoticeOutputSerializer(notice).data)


@extend_schema(tags=["notices"])
class NoticesReadApi(generics.GenericAPIView[Any]):
    serializer_class = NoticesReadInputSerializer
    queryset = Notice.objects.none()  # for the schema only

    @extend_schema(
        operation_id="notices_read_all",
        request=NoticesReadInputSerializer,
        responses={200: NoticeOutputSerializer(many=True), **errors(400)},
        summary="Mark all my notices read, up to the newest I have seen",
        description="Answers the notices still open afterwards (those still waiting for you).",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(NoticesReadInputSerializer, request)
        user = signed_in_user(request)
        inbox.mark_all_read(user, up_to=data["up_to"])
        return Response(NoticeOutputSerializer(inbox.inbox(user), many=True).data)
