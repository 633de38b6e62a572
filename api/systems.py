"""The game-system registry: what each system declares, for clients that build
forms (event kinds with their fields, options, results) and calendars."""

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.serializer_helpers import ReturnList

from campaigns.errors import NotFound
from campaigns.journal.core_events import KINDS as CORE_KINDS
from campaigns.schema.fields import EventKind, Field
from campaigns.services.campaigns import option_fields
from campaigns.systems import all_systems
from campaigns.systems.base import GameSystem

from .openapi import errors
from .serializers import serialized_list


class FieldSpecSerializer(serializers.Serializer[Field]):
    """One field of event data, options or results (campaigns.schema.fields.Field)."""

    name = serializers.CharField()
    type = serializers.ChoiceField(("str", "int", "bool", "choice", "list", "object", "json"))
    label = serializers.CharField(source="title")  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    required = serializers.BooleanField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    default = serializers.JSONField(allow_null=True)
    choices = serializers.ListField(child=serializers.JSONField())
    min = serializers.IntegerField(allow_null=True)
    max = serializers.IntegerField(allow_null=True)
    max_length = serializers.IntegerField()
    help = serializers.CharField(allow_blank=True)


# Lists and objects nest fields: the serializer refers to itself.
FieldSpecSerializer._declared_fields["item"] = FieldSpecSerializer(
    allow_null=True, help_text="Of each list entry."
)
FieldSpecSerializer._declared_fields["fields"] = FieldSpecSerializer(
    many=True, help_text="Of an object."
)


class EventKindSerializer(serializers.Serializer[EventKind]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    fields = FieldSpecSerializer(many=True)  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
    audience = serializers.ChoiceField(
        ("public", "side", "referee"), help_text="Who may read such an event."
    )
    actor = serializers.ChoiceField(
        ("side", "organizer", "referee", "member", "arbiter", "system"),
        help_text="Who may submit it (system: written by Muster itself).",
    )
    rule = serializers.CharField(allow_blank=True)
    help = serializers.CharField(allow_blank=True)
    core = serializers.SerializerMethodField(help_text="A core kind, common to every system.")

    def get_core(self, kind: EventKind) -> bool:
        return CORE_KINDS.get(kind.name) is kind


class SideDefSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()


class VariantSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    calendar = serializers.ListField(
        child=serializers.CharField(), help_text="Labels of the rounds, in order."
    )


class RosterKindSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    fields = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]  # the JSON field named as DRF's own attribute


class SheetSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    audience = serializers.ChoiceField(("public", "side", "referee"))


class SystemSerializer(serializers.Serializer[GameSystem]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    sides = SideDefSerializer(many=True)
    variants = VariantSerializer(many=True)
    event_kinds = serializers.SerializerMethodField(
        help_text="The core kinds, then the system's own."
    )
    option_fields = serializers.SerializerMethodField(
        help_text="Chosen when a campaign is created (`options`)."
    )
    result_fields = FieldSpecSerializer(many=True, help_text="The `data` of a scenario result.")
    constants = serializers.SerializerMethodField(
        help_text="Numbers the rules state outside tables: "
        "key -> {value, rule, label}; house rules may override."
    )
    roster_kinds = RosterKindSerializer(many=True)
    sheets = SheetSerializer(many=True)

    @extend_schema_field(EventKindSerializer(many=True))
    def get_event_kinds(self, system: GameSystem) -> ReturnList[Any]:
        kinds = [*CORE_KINDS.values(), *system.event_kinds]
        return serialized_list(kinds, EventKindSerializer())

    @extend_schema_field(FieldSpecSerializer(many=True))
    def get_option_fields(self, system: GameSystem) -> ReturnList[Any]:
        return serialized_list(list(option_fields(system)), FieldSpecSerializer())

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "object"}})
    def get_constants(self, system: GameSystem) -> dict[str, dict[str, Any]]:
        return system.constants()


def _systems() -> list[GameSystem]:
    return [system for _, system in sorted(all_systems().items())]


@extend_schema(tags=["systems"])
class SystemListApi(generics.ListAPIView[Any]):
    serializer_class = SystemSerializer
    filter_backends: list[type[BaseFilterBackend]] = []

    # DRF lists any sequence; the stubs want a QuerySet.
    def get_queryset(self) -> list[GameSystem]:  # type: ignore[override]
        return _systems()

    @extend_schema(operation_id="systems_list", summary="The game systems")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["systems"])
class SystemDetailApi(generics.GenericAPIView[Any]):
    serializer_class = SystemSerializer

    @extend_schema(
        operation_id="systems_retrieve",
        responses={200: SystemSerializer, **errors(404)},
        summary="System",
    )
    def get(self, request: Request, slug: str) -> Response:
        system = all_systems().get(slug)
        if system is None:
            raise NotFound("system")
        return Response(SystemSerializer(system).data)
