"""The routes of the pages: the campaign page's comes first (the page read most), which is safe
only while no other route matches its addresses."""

from django.urls import URLPattern, URLResolver, get_resolver


def _matching(patterns, path: str, prefix: str = "") -> list[str]:
    """The names (or routes) of every page route that matches `path` whole, includes walked."""
    found = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            matched = entry.pattern.match(path)
            if matched:
                found += _matching(entry.url_patterns, matched[0], prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.pattern.match(path):
            found.append(entry.name or prefix + str(entry.pattern))
    return found


def test_only_the_campaign_route_matches_a_campaign_pages_address():
    for path in ("campaigns/1/", "campaigns/123456789/"):
        assert _matching(get_resolver().url_patterns, path) == ["campaign"]


def test_the_walk_finds_every_route_that_matches():
    """The check above can fail: an address two routes match is found twice."""
    assert _matching(get_resolver().url_patterns * 2, "campaigns/1/") == ["campaign", "campaign"]
    assert "notices" in _matching(get_resolver().url_patterns, "notices/")
