"""What the benchmarks request: API calls and pages, for one benchmark club.

Pages are named by URL name and skipped (with the reason recorded) while the
product does not have them yet.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.urls import NoReverseMatch, reverse


@dataclass(frozen=True)
class Target:
    label: str
    path: str | None  # None: not available in this build
    note: str = ""
    user: str | None = None  # who reads it, signed in (None: the benchmark user, "bench")


def api_targets(club: str, campaign: int) -> list[Target]:
    base = f"/api/v1/campaigns/{campaign}/"
    return [
        Target("API clubs list", "/api/v1/clubs/"),
        Target("API club members", f"/api/v1/clubs/{club}/members/"),
        Target("API campaign list", f"/api/v1/campaigns/?club={club}"),
        Target("API campaign detail", base),
        Target("API campaign state", base + "state/"),
        Target("API campaign actions", base + "actions/"),
        Target("API campaign events", base + "events/"),
        Target("API campaign scenarios", base + "scenarios/"),
        Target("API campaign roster", base + "roster/"),
        Target("API campaign export", base + "export/"),
        *_optional([("API campaign sheets", "api-campaign-sheets", {"campaign_id": campaign})]),
    ]


def page_targets(club: str, campaign: int) -> list[Target]:
    return _optional(
        [
            ("page dashboard", "dashboard", {}),
            ("page club", "club", {"slug": club}),
            ("page campaign", "campaign", {"pk": campaign}),
            ("page campaign history", "campaign-history", {"pk": campaign}),
            (
                "page summary sheet (HTML)",
                "sheet-print",
                {"campaign_id": campaign, "sheet": "summary"},
            ),
        ]
    )


def campaign_page(campaign: int) -> Target:
    return _optional([("page campaign", "campaign", {"pk": campaign})])[0]


def ap_targets(campaign: int) -> list[Target]:
    """The club's Achtung! Panzer! CG III campaign: its page, history, state and odds."""
    base = f"/api/v1/campaigns/{campaign}/"
    return [
        *_optional(
            [
                ("CG III page campaign", "campaign", {"pk": campaign}),
                ("CG III page history", "campaign-history", {"pk": campaign}),
            ]
        ),
        Target("CG III API state", base + "state/"),
        Target("CG III API odds", base + "odds/"),
    ]


def in_play_targets(play: dict) -> list[Target]:
    """The pages in play of the club "bench-play" (benchmarks.generate._in_play), each read by its
    own person, signed in: the CG III campaign page stopped mid-Refit Phase in its 12th half-day
    from every seat (each side with its Refit forms, the referee), the Rifles in the Ardennes page
    with its squad and the Ardennes '44 page with its ledger's chart."""
    cg3 = play["cg3_refit"]
    return [
        *(
            _page(f"CG III mid-Refit page, {seat}", cg3["campaign"], user)
            for seat, user in cg3["seats"].items()
        ),
        _page("Rifles squad page", play["rifles"]["campaign"], play["rifles"]["user"]),
        _page("ledger page with chart", play["ledger"]["campaign"], play["ledger"]["user"]),
    ]


def _page(label: str, campaign: int, user: str) -> Target:
    return replace(_optional([(label, "campaign", {"pk": campaign})])[0], user=user)


def _optional(named) -> list[Target]:
    found = []
    for label, name, kwargs in named:
        try:
            found.append(Target(label, reverse(name, kwargs=kwargs)))
        except NoReverseMatch:
            found.append(
                Target(label, None, f"no URL named {name!r} with {sorted(kwargs)} in this build")
            )
    return found
