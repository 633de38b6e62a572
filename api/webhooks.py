"""A club's webhooks (organizers only): list and add, read, change and remove one. The rules
live in campaigns.webhooks.organizer (403 for other members; a stranger gets 404 from
visibility); an address refused (not https, private, unresolvable) is a 400 naming `url`."""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.access import visibility
from campaigns.models import Webhook, WebhookDelivery
from campaigns.webhooks import organizer

from .common import signed_in_user, valid_input
from .openapi import DetailSerializer, errors


class DeliveryOutputSerializer(serializers.Serializer[Any]):
    event = serializers.CharField(
        source="event.kind", help_text="What happened (`campaign.started` …)."
    )
    text = serializers.CharField(source="event.words", help_text="The event in one sentence.")
    status = serializers.ChoiceField(WebhookDelivery.STATUSES)
    attempts = serializers.IntegerField()
    last_error = serializers.CharField(help_text="Why the last attempt failed, in words.")
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)


class WebhookOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField()
    format = serializers.ChoiceField(Webhook.FORMATS)
    created_at = serializers.DateTimeField()
    deliveries = serializers.SerializerMethodField(help_text="The last ten posts, newest first.")

    def get_deliveries(self, webhook: Webhook) -> list[dict[str, Any]]:
        rows = webhook.deliveries.order_by("-created_at", "-pk")[: organizer.LOG_SIZE]
        return [dict(row) for row in DeliveryOutputSerializer(rows, many=True).data]


class WebhookCreatedSerializer(WebhookOutputSerializer):
    secret = serializers.CharField(
        help_text="Signs every post (X-Muster-Signature): answered this once, keep it."
    )


class WebhookInputSerializer(serializers.Serializer[Any]):
    url = serializers.CharField(max_length=500, help_text="https, on the public internet.")
    format = serializers.ChoiceField(Webhook.FORMATS, default=Webhook.PLAIN)


class WebhookChangeInputSerializer(serializers.Serializer[Any]):
    url = serializers.CharField(max_length=500, required=False)
    format = serializers.ChoiceField(Webhook.FORMATS, required=False)


@extend_schema(tags=["clubs"])
class WebhookListCreateApi(generics.GenericAPIView[Any]):
    serializer_class = WebhookOutputSerializer
    filter_backends: list[type[BaseFilterBackend]] = []
    queryset = Webhook.objects.none()  # for the schema only: lookups are organizer's

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:  # the browsable API's form
        return WebhookInputSerializer if self.request.method == "POST" else WebhookOutputSerializer

    @extend_schema(
        operation_id="clubs_webhooks_list",
        responses={200: WebhookOutputSerializer(many=True), **errors(403, 404)},
        summary="A club's webhooks (organizer)",
    )
    def get(self, request: Request, slug: str) -> Response:
        club = visibility.get_club_for(request.user, slug)
        hooks = organizer.webhooks_of(user=signed_in_user(request), club=club)
        page = self.paginate_queryset(hooks)
        return self.get_paginated_response(WebhookOutputSerializer(page, many=True).data)

    @extend_schema(
        operation_id="clubs_webhooks_create",
        request=WebhookInputSerializer,
        responses={201: WebhookCreatedSerializer, **errors(400, 403, 404)},
        summary="Add a webhook (organizer)",
        description="The answer holds the webhook's `secret`, this once. An address that is not "
        "https, or leads to a private, loopback or link-local address, is a 400 naming `url`.",
    )
    def post(self, request: Request, slug: str) -> Response:
        club = visibility.get_club_for(request.user, slug)
        data = valid_input(WebhookInputSerializer, request)
        hook = organizer.add(
            user=signed_in_user(request), club=club, url=data["url"], format_=data["format"]
        )
        return Response(WebhookCreatedSerializer(hook).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["clubs"])
class WebhookDetailApi(generics.GenericAPIView[Any]):
    serializer_class = WebhookOutputSerializer
    queryset = Webhook.objects.none()  # for the schema only

    def _hook(self, request: Request, slug: str, webhook_id: int) -> Webhook:
        club = visibility.get_club_for(request.user, slug)
        return organizer.webhook_of(user=signed_in_user(request), club=club, webhook_id=webhook_id)

    @extend_schema(
        operation_id="clubs_webhooks_retrieve",
        responses={200: WebhookOutputSerializer, **errors(403, 404)},
        summary="One webhook and its last posts (organizer)",
    )
    def get(self, request: Request, slug: str, webhook_id: int) -> Response:
        return Response(WebhookOutputSerializer(self._hook(request, slug, webhook_id)).data)

    @extend_schema(
        operation_id="clubs_webhooks_change",
        request=WebhookChangeInputSerializer,
        responses={200: WebhookOutputSerializer, **errors(400, 403, 404)},
        summary="Change a webhook's address or format (organizer)",
    )
    def patch(self, request: Request, slug: str, webhook_id: int) -> Response:
        hook = self._hook(request, slug, webhook_id)
        data = valid_input(WebhookChangeInputSerializer, request)
        hook = organizer.change(
            user=signed_in_user(request),
            webhook=hook,
            url=data.get("url", hook.url),
            format_=data.get("format", hook.format),
        )
        return Response(WebhookOutputSerializer(hook).data)

    @extend_schema(
        operation_id="clubs_webhooks_remove",
        request=None,
        responses={200: DetailSerializer, **errors(403, 404)},
        summary="Remove a webhook (organizer)",
    )
    def delete(self, request: Request, slug: str, webhook_id: int) -> Response:
        organizer.remove(
            user=signed_in_user(request), webhook=self._hook(request, slug, webhook_id)
        )
        return Response({"detail": "Webhook removed: nothing more is posted to it."})
