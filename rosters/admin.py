"""Roster entries are a projection of the journal: read-only, and a side's
private entries show neither name nor data to operators (not even in the
page title)."""

from django.contrib import admin

from campaigns.admin import ReadOnlyAdmin, shown_data

from .models import RosterEntry

PRIVATE = "— private —"


class _Masked:
    """Stands in for a private entry in the change page's title and breadcrumbs."""

    def __init__(self, pk):
        self.pk = pk

    def __str__(self):
        return "private roster entry"


@admin.register(RosterEntry)
class RosterEntryAdmin(ReadOnlyAdmin):
    list_display = ["campaign", "side", "audience", "kind", "shown_name", "shown_status"]
    list_filter = ["audience"]
    search_fields = ["campaign__name"]
    fields = [
        "campaign",
        "shown_key",
        "side",
        "audience",
        "kind",
        "shown_name",
        "shown_status",
        "shown_data",
    ]
    readonly_fields = fields
    list_select_related = ["campaign"]

    def _private(self, entry) -> bool:
        return shown_data(entry.audience, entry.side, True) is not True

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        entry = RosterEntry.objects.filter(pk=object_id).first() if object_id else None
        if entry is not None and self._private(entry):
            masked = _Masked(entry.pk)
            extra_context = {**(extra_context or {}), "original": masked, "subtitle": str(masked)}
        return super().changeform_view(request, object_id, form_url, extra_context)

    @admin.display(description="key")
    def shown_key(self, entry):
        return PRIVATE if self._private(entry) else entry.key

    @admin.display(description="name")
    def shown_name(self, entry):
        return PRIVATE if self._private(entry) else entry.name

    @admin.display(description="status")
    def shown_status(self, entry):
        return PRIVATE if self._private(entry) else entry.status

    @admin.display(description="data")
    def shown_data(self, entry):
        return shown_data(entry.audience, entry.side, entry.data)
