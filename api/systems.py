"""The game-system registry: what each system declares, for clients that build
forms (event kinds with their fields, options, results) and calendars."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.response import Response

from campaigns.errors import NotFound
from campaigns.journal.core_events import KINDS as CORE_KINDS
from campaigns.services.campaigns import option_fields
from campaigns.systems import all_systems

from .openapi import errors


class FieldSpecSerializer(serializers.Serializer):
    """One field of event data, options or results (campaigns.schema.fields.Field)."""

    name = serializers.CharField()
    type = serializers.ChoiceField(("str", "int", "bool", "choice", "list", "object", "json"))
    label = serializers.CharField(source="title")
    required = serializers.BooleanField()
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


class EventKindSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    fields = FieldSpecSerializer(many=True)
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

    def get_core(self, kind) -> bool:
        return CORE_KINDS.get(kind.name) is kind


class SideDefSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class VariantSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    calendar = serializers.ListField(
        child=serializers.CharField(), help_text="Labels of the rounds, in order."
    )


class RosterKindSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    fields = serializers.ListField(child=serializers.CharField())


class SheetSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    audience = serializers.ChoiceField(("public", "side", "referee"))


class SystemSerializer(serializers.Serializer):
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
    def get_event_kinds(self, system):
        return EventKindSerializer([*CORE_KINDS.values(), *system.event_kinds], many=True).data

    @extend_schema_field(FieldSpecSerializer(many=True))
    def get_option_fields(self, system):
        return FieldSpecSerializer(option_fields(system), many=True).data

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "object"}})
    def get_constants(self, system):
        return system.constants()


def _systems() -> list:
    return [system for _, system in sorted(all_systems().items())]


@extend_schema(tags=["systems"])
class SystemListApi(generics.ListAPIView):
    serializer_class = SystemSerializer
    filter_backends: list = []

    def get_queryset(self):
        return _systems()

    @extend_schema(operation_id="systems_list", summary="The game systems")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["systems"])
class SystemDetailApi(generics.GenericAPIView):
    serializer_class = SystemSerializer

    @extend_schema(
        operation_id="systems_retrieve",
        responses={200: SystemSerializer, **errors(404)},
        summary="System",
    )
    def get(self, request, slug):
        system = all_systems().get(slug)
        if system is None:
            raise NotFound("system")
        return Response(SystemSerializer(system).data)
