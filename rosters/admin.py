"""Roster entries are a projection of the journal: read-only, and a side's
private entries show neither name nor data to operators (not even in the
page title)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from campaigns.admin import ReadOnlyAdmin, shown_data

from .models import RosterEntry

PRIVATE = "— private —"
_SHOWN = (  # the change page's fields, all read-only
    "campaign",
    "shown_key",
    "side",
    "audience",
    "kind",
    "shown_name",
    "shown_status",
    "shown_data",
)


class _Masked:
    """Stands in for a private entry in the change page's title and breadcrumbs."""

    def __init__(self, pk: int) -> None:
        self.pk = pk

    def __str__(self) -> str:
        return "private roster entry"


@admin.register(RosterEntry)
class RosterEntryAdmin(ReadOnlyAdmin):
    list_display = ["campaign", "side", "audience", "kind", "shown_name", "shown_status"]
    list_filter = ["audience"]
    search_fields = ["campaign__name"]
    fields = _SHOWN
    readonly_fields = _SHOWN
    list_select_related = ["campaign"]

    def _private(self, entry: RosterEntry) -> bool:
        return shown_data(entry.audience, entry.side, True) is not True

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        entry = RosterEntry.objects.filter(pk=object_id).first() if object_id else None
        if entry is not None and self._private(entry):
            masked = _Masked(entry.pk)
            extra_context = {**(extra_context or {}), "original": masked, "subtitle": str(masked)}
        return super().changeform_view(request, object_id, form_url, extra_context)

    @admin.display(description="key")
    def shown_key(self, entry: RosterEntry) -> str:
        return PRIVATE if self._private(entry) else entry.key

    @admin.display(description="name")
    def shown_name(self, entry: RosterEntry) -> str:
        return PRIVATE if self._private(entry) else entry.name

    @admin.display(description="status")
    def shown_status(self, entry: RosterEntry) -> str:
        return PRIVATE if self._private(entry) else entry.status

    @admin.display(description="data")
    def shown_data(self, entry: RosterEntry) -> object:
        return shown_data(entry.audience, entry.side, entry.data)
