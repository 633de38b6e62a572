"""What the kept-page tests share: the names pages are kept under (whatever the cache: local memory
or Redis), a page read as served, and the same page drawn afresh in a key space nothing was kept in."""

from __future__ import annotations

from django.core.cache import cache
from django.test import Client

from campaigns.kept_answers import audiences, pages

KEPT: set[str] = set()  # the names `pages.keep` was called with since the test began


def record_kept_names(monkeypatch) -> None:
    """From now on, every name a page is kept under is added to KEPT (emptied first)."""
    keep = pages.keep

    def recorded(name: str, html: str) -> None:
        KEPT.add(name)
        keep(name, html)

    KEPT.clear()
    monkeypatch.setattr(pages, "keep", recorded)


def read(client: Client, path: str) -> str:
    """The page at `path` as served, every mark put in."""
    response = client.get(path)
    assert response.status_code == 200
    text = response.content.decode()
    assert "\x00" not in text  # every mark put in
    return text


def drawn_afresh(client: Client, path: str, monkeypatch) -> str:
    """The page at `path` drawn afresh: with a key space nothing was kept in."""
    with monkeypatch.context() as patch:
        patch.setattr(audiences, "BUILD", "fresh-drawing")
        cache.clear()
        return read(client, path)
