"""The admin is for site operators: they manage clubs, people, memberships and
invitations. Play data (campaigns, sides, scenarios, the journal, snapshots) is
read-only here, and operators are not referees: an event's data is shown only
when it is public to the club (campaigns.access.visibility.operator_viewer decides).
"""

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from campaigns.access import visibility
from campaigns.services.snapshots import stored_state

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

# django-stubs makes the admin classes generic over their model; at run time they cannot be
# subscripted (that needs django_stubs_ext.monkeypatch(), a test-only requirement), so the
# subscripted bases exist for the type checker only.
if TYPE_CHECKING:
    AnyModelAdmin = admin.ModelAdmin[Model]
    ReadOnlyInlineBase = admin.TabularInline[Model, Campaign]
    MembershipInlineBase = admin.TabularInline[Membership, Club]
    ClubAdminBase = admin.ModelAdmin[Club]
    MembershipAdminBase = admin.ModelAdmin[Membership]
    InvitationAdminBase = admin.ModelAdmin[Invitation]
else:
    AnyModelAdmin = admin.ModelAdmin
    ReadOnlyInlineBase = admin.TabularInline
    MembershipInlineBase = admin.TabularInline
    ClubAdminBase = admin.ModelAdmin
    MembershipAdminBase = admin.ModelAdmin
    InvitationAdminBase = admin.ModelAdmin


class ReadOnlyAdmin(AnyModelAdmin):
    """Projections of the journal and the journal itself: never edited by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyInline(ReadOnlyInlineBase):
    """A campaign's sides and scenarios, shown on its page and never edited by hand."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Campaign | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Campaign | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Campaign | None = None) -> bool:
        return False


# --- clubs and people: managed by operators -------------------------------------------------


class MembershipInline(MembershipInlineBase):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(ClubAdminBase):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(MembershipAdminBase):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(InvitationAdminBase):
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
    list_filter = ["status", "system", ("archived_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "club__name"]
    inlines = [SideInline, ScenarioInline]
    # Cache positions name each side's newest hidden event: a timing no admin page shows.
    exclude = ["positions"]
    readonly_fields = ["journal_versions", "muster_release"]


@admin.register(ClubLogEntry)
class ClubLogEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "club", "actor", "action"]
    list_filter = ["action"]
    fields = readonly_fields = ("at", "club", "actor", "action", "detail")


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


def shown_data(audience: str, side: str, data: object) -> object:
    """An event's (or roster entry's) data as an operator may see it."""
    return data if visibility.operator_viewer().can_read(audience, side) else HIDDEN


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """The journal, read-only. Searching or filtering by data would let an operator
    probe a side's secrets, so neither is offered."""

    list_display = ["campaign", "kind", "audience", "side", "actor", "created_at", "public_data"]
    list_filter = ["audience"]
    search_fields = ["campaign__name", "kind"]
    fields = readonly_fields = (
        "campaign",
        "uid",
        "kind",
        "audience",
        "side",
        "actor",
        "created_at",
        "public_data",
    )
    list_select_related = ["campaign", "actor"]

    @admin.display(description="data")
    def public_data(self, event: Event) -> object:
        shown = shown_data(event.audience, event.side, event.data)
        return shown if shown == HIDDEN else format_html("<code>{}</code>", shown)


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin):
    """The cached state holds every side's secrets: only its public cut is shown."""

    list_display = ["campaign", "seq"]
    fields = readonly_fields = ("campaign", "seq", "public_state")

    @admin.display(description="state (club's view)")
    def public_state(self, snapshot: Snapshot) -> SafeString:
        state = stored_state(snapshot.campaign) or snapshot.state
        return format_html(
            "<code>{}</code>", visibility.view_state(state, visibility.operator_viewer())
        )


@admin.register(JournalArchive)
class JournalArchiveAdmin(ReadOnlyAdmin):
    """A journal as it stood before an upgrade: what the upgrade did and how many events it had;
    the events themselves hold every side's secrets and are not shown (export them from a shell)."""

    list_display = ["campaign", "archived_at", "journal_versions", "muster_release", "upgraded_by"]
    fields = readonly_fields = (
        "campaign",
        "archived_at",
        "journal_versions",
        "muster_release",
        "upgraded_by",
        "summary",
        "event_count",
    )

    @admin.display(description="events")
    def event_count(self, archive: JournalArchive) -> int:
        return len(archive.events)
