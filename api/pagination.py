from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.paginator import (
    EmptyPage,
    Page as DjangoPage,
    PageNotAnInteger,
    Paginator as DjangoPaginator,
)
from django.db.models import Count, Window
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200
    page_size: int  # the site's PAGE_SIZE (muster.settings), always set


LISTED = "listed_total"  # the window count's column, taken off every row


if TYPE_CHECKING:
    _Paginator = DjangoPaginator[Any]
else:  # Django's classes take no type arguments when the code runs
    _Paginator = DjangoPaginator


class WindowCountedPaginator(_Paginator):
    """Counts the rows with the page itself (COUNT(*) OVER () on the page's own query): one query
    where Django's paginator makes two, a count that reads every row and then the page. A count
    query only for a page past the last (to tell it from an empty list)."""

    def page(self, number: Any) -> DjangoPage[Any]:
        asked = self._positive(number)
        bottom = (asked - 1) * self.per_page
        rows = list(
            self.object_list.annotate(**{LISTED: Window(Count("pk"))})[  # type: ignore[attr-defined]
                bottom : bottom + self.per_page
            ]
        )
        if not rows:  # past the last row, or none: Django's answer (EmptyPage, or page 1 empty)
            return DjangoPage([], self.validate_number(asked), self)
        self.__dict__["count"] = _taken(rows)  # Paginator.count is a cached_property
        return DjangoPage(rows, asked, self)

    @staticmethod
    def _positive(number: Any) -> int:
        try:
            if isinstance(number, float) and not number.is_integer():
                raise ValueError
            asked = int(number)
        except (TypeError, ValueError) as error:
            raise PageNotAnInteger("That page number is not an integer") from error
        if asked < 1:
            raise EmptyPage("That page number is less than 1")
        return asked


def _taken(rows: list[Any]) -> int:
    """The window count of `rows` (dicts of a values() query, or model instances), taken off."""
    total = 0
    for row in rows:
        if isinstance(row, dict):
            total = row.pop(LISTED)
        else:
            total = getattr(row, LISTED)
            delattr(row, LISTED)
    return total


class WindowCountPagination(Pagination):
    """The site's pages of a list, counted with the page (WindowCountedPaginator): for a
    queryset whose rows may be many (a club's campaigns)."""

    django_paginator_class = WindowCountedPaginator
