"""Output serializers shared by several API modules: journal entries, the
viewer, a submission's answer."""

from collections.abc import Iterable
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import ReturnList

from campaigns.access import visibility
from campaigns.access.visibility import Person
from campaigns.journal.records import Viewer
from campaigns.models import Campaign
from campaigns.selectors.history import entries_for_events
from campaigns.services.journal import Submission
from campaigns.services.state import current_state
from muster import connection_loss

AUDIENCES = ("public", "side", "referee")
T = TypeVar("T")


def serialized_list(items: Iterable[T], child: serializers.Serializer[T]) -> ReturnList[Any]:
    """`Serializer(items, many=True).data`, built as DRF builds it (the stubs take one item there,
    and a serializer with a `data` field hides the property from mypy)."""
    return serializers.ListSerializer[Iterable[T]](items, child=child).data


class EventEntrySerializer(serializers.Serializer[Any]):
    """One journal event as its reader may see it: named by uid, never by sequence number."""

    uid = serializers.UUIDField()
    kind = serializers.CharField()
    text = serializers.CharField(help_text="One line for the history.")
    actor = serializers.CharField(help_text="Username of who submitted it.")
    side = serializers.CharField(
        allow_blank=True, help_text="The side it was submitted for, or empty."
    )
    audience = serializers.ChoiceField(AUDIENCES)
    at = serializers.DateTimeField()
    data = serializers.JSONField(  # type: ignore[assignment]  # the JSON field named as DRF's own attribute
        help_text="The event's data; references to other events are uids."
    )
    undone = serializers.BooleanField()
    corrected = serializers.BooleanField()


class ViewerSerializer(serializers.Serializer[Viewer]):
    """What the requester is in this campaign."""

    playing = serializers.CharField(allow_null=True, help_text="The side you play, if any.")
    referee = serializers.BooleanField()
    organizer = serializers.BooleanField()
    arbiter = serializers.BooleanField(
        help_text=(
            "The referee, or an organizer who plays no side. Whether you may settle a disputed "
            "result also depends on who made you organizer and when: a Settle in actions/ says so."
        )
    )
    sides = serializers.SerializerMethodField(
        help_text="Sides whose private information you may read."
    )

    def get_sides(self, viewer: Viewer) -> list[str]:
        return sorted(viewer.sides)


@extend_schema_field(OpenApiTypes.OBJECT)
class StateField(serializers.JSONField):
    """The viewer's cut of the campaign state (campaigns.access.visibility.view_state)."""


class SubmissionOutputSerializer(serializers.Serializer[Any]):
    events = EventEntrySerializer(many=True, help_text="The events written, those you may read.")
    state = StateField(allow_null=True, help_text="Your view of the campaign state afterwards.")
    replayed = serializers.BooleanField(
        help_text="The idempotency key had been used: nothing new was written."
    )
    uid = serializers.UUIDField(
        required=False, help_text="Only in a stored-only answer: the uid of your event."
    )
    note = serializers.CharField(
        required=False,
        help_text=(
            "Only in a stored-only answer: the event is stored, but its answer could not be built (the database "
            "was away for a moment); `events` is then empty and `state` null: read the campaign again."
        ),
    )


STORED_ONLY_NOTE = (
    "Saved. The database was away for a moment, so this answer has no new state: "
    "read the campaign again."
)


def submission_output(campaign: Campaign, user: Person, submission: Submission) -> dict[str, Any]:
    """The answer to a submission: its events and the new state, cut for the submitter. Built
    after the write committed: a lost database connection is retried on a fresh one, and if the
    database stays away the answer says what was stored (the event's uid) instead of failing."""
    return connection_loss.after_commit(
        lambda: _full_output(campaign, user, submission),
        lambda: stored_only_output(submission),
        what=f"answer to a submission in campaign {campaign.pk}",
    )


def _full_output(campaign: Campaign, user: Person, submission: Submission) -> dict[str, Any]:
    if submission.after is not None:  # nobody's seat changed: as the writer left them
        campaign, viewer = submission.after
    else:  # as the change left them, one query
        campaign, viewer = visibility.campaign_and_viewer(user, campaign.pk)
    state = submission.state if submission.state is not None else current_state(campaign)
    return SubmissionOutputSerializer(
        {
            "events": entries_for_events(campaign, viewer, submission.events, state),
            "state": visibility.view_state(state, viewer),
            "replayed": submission.replayed,
        }
    ).data


def stored_only_output(submission: Submission) -> dict[str, Any]:
    """What is known without the database: the submitter's own event (the first written) is stored."""
    events = submission.events
    answer: dict[str, Any] = {
        "events": [],
        "state": None,
        "replayed": submission.replayed,
        "note": STORED_ONLY_NOTE,
    }
    if events:
        answer["uid"] = str(events[0].uid)
    return answer


def username_field(**kwargs: Any) -> serializers.CharField:
    return serializers.CharField(
        max_length=get_user_model()._meta.get_field("username").max_length, **kwargs
    )
