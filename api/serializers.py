"""Output serializers shared by several API modules: journal entries, the
viewer, a submission's answer."""

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns import selectors, visibility
from campaigns.services.state import current_state

AUDIENCES = ("public", "side", "referee")


class EventEntrySerializer(serializers.Serializer):
    """One journal event as its reader may see it: named by uid, never by sequence number."""

    uid = serializers.UUIDField()
    kind = serializers.CharField()
    text = serializers.CharField(help_text="One line for the history.")
    actor = serializers.CharField(help_text="Username of who submitted it.")
    side = serializers.CharField(allow_blank=True, help_text="The side it was submitted for, or empty.")
    audience = serializers.ChoiceField(AUDIENCES)
    at = serializers.DateTimeField()
    data = serializers.JSONField(help_text="The event's data; references to other events are uids.")
    undone = serializers.BooleanField()
    corrected = serializers.BooleanField()


class ViewerSerializer(serializers.Serializer):
    """What the requester is in this campaign."""

    playing = serializers.CharField(allow_null=True, help_text="The side you play, if any.")
    referee = serializers.BooleanField()
    organizer = serializers.BooleanField()
    arbiter = serializers.BooleanField(help_text="May settle disputed results.")
    sides = serializers.SerializerMethodField(help_text="Sides whose private information you may read.")

    def get_sides(self, viewer) -> list[str]:
        return sorted(viewer.sides)


@extend_schema_field(OpenApiTypes.OBJECT)
class StateField(serializers.JSONField):
    """The viewer's cut of the campaign state (campaigns.visibility.view_state)."""


class SubmissionOutputSerializer(serializers.Serializer):
    events = EventEntrySerializer(many=True, help_text="The events written, those you may read.")
    state = StateField(help_text="Your view of the campaign state afterwards.")
    replayed = serializers.BooleanField(help_text="The idempotency key had been used: nothing new was written.")


def submission_output(campaign, user, submission) -> dict:
    """The answer to a submission: its events and the new state, cut for the submitter."""
    campaign, viewer = visibility.campaign_and_viewer(user, campaign.pk)  # as the change left them, one query
    state = submission.state if submission.state is not None else current_state(campaign)
    return SubmissionOutputSerializer({
        "events": selectors.entries_for_events(campaign, viewer, submission.events, state),
        "state": visibility.view_state(state, viewer),
        "replayed": submission.replayed,
    }).data


def username_field(**kwargs):
    return serializers.CharField(max_length=get_user_model()._meta.get_field("username").max_length, **kwargs)
