"""The admin is for site operators: they manage clubs, people, memberships and
invitations. Play data (campaigns, sides, scenarios, the journal, snapshots) is
read-only here, and operators are not referees: an event's data is shown only
when it is public to the club (campaigns.access.visibility.operator_viewer decides).
"""

from django.contrib import admin
from django.utils.html import format_html

from campaigns.access import visibility

from .models import (
    Campaign,
    Club,
    ClubLogEntry,
    Event,
    Invitation,
    JournalArchive,
    Membership,
    Scenario,
    Side,
    SidePlayer,
    Snapshot,
)

HIDDEN = "— private: not shown here —"


class ReadOnlyAdmin(admin.ModelAdmin):
    """Projections of the journal and the journal itself: never edited by hand."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- clubs and people: managed by operators -------------------------------------------------


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = [
        "club",
        "role",
        "email",
        "created_by",
        "created_at",
        "expires_at",
        "accepted_by",
        "revoked",
    ]
    list_filter = ["revoked", "role", "club"]
    search_fields = ["club__name", "email"]
    readonly_fields = ["code", "created_at", "accepted_by", "accepted_at"]
    autocomplete_fields = ["club", "created_by"]


# --- play data: read-only -------------------------------------------------------------------


class SideInline(ReadOnlyInline):
    model = Side
    fields = ["slug", "name", "order"]


class ScenarioInline(ReadOnlyInline):
    model = Scenario
    fields = ["index", "label", "status", "summary"]


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "system", "variant", "status", "referee", "updated_at"]
    list_filter = ["status", "system"]
    search_fields = ["name", "club__name"]
    inlines = [SideInline, ScenarioInline]
    # Cache positions name each side's newest hidden event: a timing no admin page shows.
    exclude = ["positions"]
    readonly_fields = ["journal_versions", "muster_release"]


@admin.register(ClubLogEntry)
class ClubLogEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "club", "actor", "action"]
    list_filter = ["action"]
    fields = readonly_fields = ["at", "club", "actor", "action", "detail"]


@admin.register(Side)
class SideAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "campaign"]
    search_fields = ["name", "campaign__name"]


@admin.register(SidePlayer)
class SidePlayerAdmin(ReadOnlyAdmin):
    list_display = ["user", "side"]


@admin.register(Scenario)
class ScenarioAdmin(ReadOnlyAdmin):
    list_display = ["campaign", "index", "label", "status"]
    list_filter = ["status"]


def shown_data(audience: str, side: str, data) -> object:
    """An event's (or roster entry's) data as an operator may see it."""
    return data if visibility.operator_viewer().can_read(audience, side) else HIDDEN


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """The journal, read-only. Searching or filtering by data would let an operator
    probe a side's secrets, so neither is offered."""

    list_display = ["campaign", "kind", "audience", "side", "actor", "created_at", "public_data"]
    list_filter = ["audience"]
    search_fields = ["campaign__name", "kind"]
    fields = ["campaign", "uid", "kind", "audience", "side", "actor", "created_at", "public_data"]
    readonly_fields = fields
    list_select_related = ["campaign", "actor"]

    @admin.display(description="data")
    def public_data(self, event):
        shown = shown_data(event.audience, event.side, event.data)
        return shown if shown == HIDDEN else format_html("<code>{}</code>", shown)


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin):
    """The cached state holds every side's secrets: only its public cut is shown."""

    list_display = ["campaign", "seq"]
    fields = ["campaign", "seq", "public_state"]
    readonly_fields = fields

    @admin.display(description="state (club's view)")
    def public_state(self, snapshot):
        return format_html(
            "<code>{}</code>", visibility.view_state(snapshot.state, visibility.operator_viewer())
        )


@admin.register(JournalArchive)
class JournalArchiveAdmin(ReadOnlyAdmin):
    """A journal as it stood before an upgrade: what the upgrade did and how many events it had;
    the events themselves hold every side's secrets and are not shown (export them from a shell)."""

    list_display = ["campaign", "archived_at", "journal_versions", "muster_release", "upgraded_by"]
    fields = [
        "campaign",
        "archived_at",
        "journal_versions",
        "muster_release",
        "upgraded_by",
        "summary",
        "event_count",
    ]
    readonly_fields = fields

    @admin.display(description="events")
    def event_count(self, archive):
        return len(archive.events)
