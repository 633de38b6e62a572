"""What the equipment steps (1.6131-1.6142) share: which retained units are AFVs and which are
weapons, a check that an item is listed once, the weapon an item names on an AFV, and the CVP of
units they eliminate after 1.6067.

Vehicular-mounted weapons are not units: an item names the AFV and the weapon ("MA", "CMG"…);
their state is kept in the AFV's ``weapons`` map ({"MA": "ok"|"malfunctioned"|"disabled"}).
"""

from __future__ import annotations

from campaigns.game_interface import DomainError

from ..shapes import APState

AFV_KINDS = ("afv", "vehicle")
WEAPON_KINDS = ("sw", "gun")


def check_items(items, path: str, key=lambda e: e["unit"]):
    seen = set()
    for i, entry in enumerate(items):
        k = key(entry)
        if k in seen:
            raise DomainError(
                f"{path}[{i}]", f"{k if isinstance(k, str) else ' '.join(k)} is listed twice."
            )
        seen.add(k)


def vehicular_item(unit: dict, entry: dict, path: str, want: str) -> str:
    weapon = (entry.get("weapon") or "").strip()
    if not weapon:
        raise DomainError(f"{path}.weapon", f"Name the weapon of {unit['id']} (MA, CMG, BMG…).")
    known = unit.get("weapons")
    if known is None:
        return weapon
    if want == "malfunctioned" and unit.get("status") == "malfunctioned":
        # Marked malfunctioned at the end of this scenario: any weapon not disabled may be the one,
        # even one repaired in an earlier Refit Phase.
        if known.get(weapon) == "disabled":
            raise DomainError(
                f"{path}.weapon",
                f"{unit['id']}'s {weapon} is disabled; it cannot malfunction again.",
            )
        return weapon
    if known.get(weapon) != want:
        raise DomainError(f"{path}.weapon", f"{unit['id']}'s {weapon} is not {want}.")
    return weapon


def count_after_victory(ctx, state: APState, side, units) -> None:
    """Eliminated after 1.6067: their CVP count for 1.616 only, privately (R-A18), when the club's
    CVP list covers them."""
    from .. import aftermath, halfday

    cvp = aftermath.cvp_of(ctx, units) if units else None
    if cvp:
        halfday.add_cvp(state, side, cvp)
