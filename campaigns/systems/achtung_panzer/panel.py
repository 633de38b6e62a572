"""What the A!P! panel of the campaign page shows, in words, from the viewer's cut of the state
only: the half-day's facts, the CG Roster, and for each side the viewer may read its points,
RGs, fortifications, retained units grouped by RG and its rolls as sentences."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import elr, words
from .common import SIDES
from .shapes import APState
from .steps.fortifications import fortification_words

ROLLS_SHOWN = 40


def context(view: APState) -> dict:
    game = view.get("game")
    if not game:
        return {}
    pub = game["public"]
    facts: list[tuple[str, str | None, str]] = []
    if pub.get("scenario_type"):
        facts.append(
            (
                "Scenario type",
                words.TYPE_WORDS.get(pub["scenario_type"], words.plain(pub["scenario_type"])),
                "1.623",
            )
        )
    for label, who in (
        ("Sets up first", pub.get("sets_up_first")),
        ("Moves first", pub.get("moves_first")),
    ):
        if who:
            facts.append((label, words.SIDE_WORDS.get(who, who), "1.6231"))
    if pub.get("weather"):
        ec = pub.get("ec")
        facts.append(("Weather / EC", f"{pub['weather']}{' / ' + ec if ec else ''}", "1.618"))
    if pub.get("special_half_day"):
        facts.append(
            ("Allied special half-day", words.SPECIAL_WORDS.get(pub["special_half_day"]), "CG13")
        )
    if pub.get("elr", {}).get("allied") is not None:
        facts.append(
            (
                "ELR / SAN announced",
                "; ".join(
                    f"{words.SIDE_WORDS[s]} ELR {elr.words(pub['elr'][s])}, SAN {pub['san'][s]}"
                    for s in SIDES
                ),
                "1.625",
            )
        )
    if pub.get("bridges_destroyed"):
        facts.append(("Bridges destroyed", ", ".join(pub["bridges_destroyed"]), "CG15"))
    return {
        "facts": facts,
        "phase": {"refit": "Refit Phase", "play": "being played", "finished": "finished"}.get(
            pub["phase"], ""
        ),
        "roster": [_roster_line(line) for line in pub["roster"]],
        "record": "; ".join(
            f"{words.SIDE_WORDS[s]} {r['won']}:{r['lost']}"
            + (f" ({r['drawn']} drawn)" if r.get("drawn") else "")
            for s, r in pub["record"].items()
        ),
        "public_rolls": [words.roll_sentence(r) for r in reversed(pub.get("rolls", []))],
        "sides": [
            _side(side, private, pub["half_day"] if pub["phase"] == "refit" else None)
            for side, private in game.get("sides", {}).items()
        ],
    }


def _roster_line(line: Mapping[str, Any]) -> dict:
    winner = line.get("winner")
    return {
        "half_day": line["half_day"],
        "hist": line["hist"],
        "op": line["op"],
        "played": line.get("played"),
        "cvp": line["cvp"],
        "type": words.TYPE_WORDS.get(line.get("type"), "") if line.get("type") else "",
        "winner": "draw"
        if winner == "draw"
        else words.SIDE_WORDS.get(winner, "")
        if winner
        else "",
        "why": (line.get("victory") or {}).get("text", ""),
    }


def _side(side: str, private: Mapping[str, Any], half_day: str | None) -> dict:
    """`half_day`: the half-day whose Refit Phase is under way (None in play)."""
    purchases = private.get("purchases", [])
    units = private.get("retained", [])
    names = words.Names(private)
    groups = []
    for purchase in purchases:
        mine = [u for u in units if u.get("rg") == purchase["id"]]
        groups.append(
            {
                "title": names.rg(purchase["id"]),
                "what": _purchase_line(purchase),
                "units": [names.unit(u, with_rg=False) + words.flags(u) for u in mine],
            }
        )
    loose = [u for u in units if u.get("rg") not in {p["id"] for p in purchases}]
    if loose:
        groups.append(
            {"title": "Other units", "what": "", "units": [names.label(u) for u in loose]}
        )
    rolls = [
        dict(text=words.roll_sentence(r, names), half_day=r.get("half_day"))
        for r in reversed(private.get("rolls", []))
    ]
    return {
        "slug": side,
        "name": words.SIDE_WORDS.get(side, side),
        "points": [
            ("CPP", private.get("cpp")),
            ("FPP", private.get("fpp")),
            ("ELR", elr.words(private.get("elr"))),
            ("SAN", private.get("san")),
        ],
        "attack_chit": private.get("attack_chit"),
        "groups": groups,
        "fortifications": [fortification_words(f) for f in private.get("fortifications", [])],
        "bought_now": _bought_now(private, groups, half_day),
        "eliminated": len(private.get("eliminated", [])),
        "unit_count": len(units),
        "rg_count": len([p for p in purchases if not p.get("given")]),
        "rolls": rolls[:ROLLS_SHOWN],
        "more_rolls": max(0, len(rolls) - ROLLS_SHOWN),
        "pending": bool(private.get("pending")),
    }


def _bought_now(private: Mapping[str, Any], groups: list, half_day: str | None) -> list[str]:
    """What this Refit Phase bought (RGs, then fortifications), shown on the campaign page itself;
    everything else is on the records page."""
    if half_day is None:
        return []
    rgs = [
        " · ".join(filter(None, (g["title"], g["what"])))
        for g, p in zip(groups, private.get("purchases", []))
        if p.get("half_day") == half_day and not p.get("given")
    ]
    return rgs + [
        fortification_words(f)
        for f in private.get("fortifications", [])
        if f.get("half_day") == half_day and "cost" in f
    ]


def _purchase_line(p: dict) -> str:
    parts = [p["half_day"], "given" if p.get("given") else f"{p.get('cost')} CPP"]
    options = [
        name
        for key, name in (
            ("on_map", "on map"),
            ("reserve", "reserve"),
            ("pre_registered", "pre-registered hex"),
        )
        if (p.get("options") or {}).get(key)
    ]
    if options:
        parts.append(", ".join(options))
    if p.get("strength"):
        parts.append(words.STRENGTH_WORDS.get(p["strength"], p["strength"]))
    if p.get("ammo"):
        parts.append(f"{words.plain(p['ammo'])} ammunition")
    if p.get("retained_oba"):
        parts.append("retained: no Fire Mission yet (CG4)")
    if p.get("attached"):
        parts.append(f"attached {p['attached']}")
    return " · ".join(parts)
