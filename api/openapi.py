"""Error answers as the schema documents them (api.errors produces them)."""

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current_version = serializers.IntegerField(help_text="The current version of your own stream.")


_FIELD_ERRORS = {
    "type": "object",
    "description": "Each refused field (dotted path for nested data) with its messages.",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}

_SUBMIT_ERRORS = {
    **_FIELD_ERRORS,
    "properties": {
        "dice_needed": {
            "type": "array",
            "description": "Present when the dice rolled at the table must be entered: resend with "
                           "`dice` = {key: [faces]}.",
            "items": {
                "type": "object",
                "properties": {"key": {"type": "string"}, "expr": {"type": "string"}},
                "required": ["key", "expr"],
            },
        },
    },
}

RESPONSES = {
    400: OpenApiResponse(_FIELD_ERRORS, description="Bad input; nothing was changed."),
    403: OpenApiResponse(DetailSerializer, description="Not signed in, or not allowed to do this."),
    404: OpenApiResponse(DetailSerializer, description="No such thing for you (non-members never learn more)."),
    409: OpenApiResponse(ConflictSerializer, description="Your stream moved since you loaded it."),
}

SUBMIT_400 = OpenApiResponse(_SUBMIT_ERRORS, description="Bad input or a refused event; nothing was changed.")


def errors(*codes: int) -> dict:
    """The documented error answers of an operation: `errors(400, 403, 404)`."""
    return {code: RESPONSES[code] for code in codes}
