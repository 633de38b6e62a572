"""Night-turn replacements (25.2): how many each side received, and which units may take them.

- 25.2.1: one replacement goes only to an Infantry Type unit (2.4); of two, one to an Infantry Type
  unit and the other to a Tank, Recon or Flak unit or another Infantry Type unit. Three or more
  (A44-11): taken as pairs of 25.2.1's two, an odd one as a single one: at most one Tank, Recon or
  Flak unit per two received, the rest Infantry Type units.
- 25.2.5: never German Tank Units of TQ 5 or more or with a black-box attack strength, von der
  Heydte, the 150th Panzer Brigade, Allied airborne units, Artillery Units, British units.

Each replacement restores a reduced unit or brings one back from the dead pile (25.2.2): the
ledger's "back to full strength" and "rebuilt". The unit's type and flags come from the set-up
(A44-11); supply, Good Order and markers (25.2.5's first sentences) are the players' to check at
the table.
"""

from __future__ import annotations

from campaigns.game_interface import DomainError

TYPED = 2  # the journal version from which these checks apply (A44-11)
USES = ("restored", "rebuilt")
TYPES = (
    ("", "Not entered"),
    ("infantry", "Infantry Type"),
    ("tank", "Tank unit"),
    ("recon", "Recon"),
    ("flak", "Flak"),
    ("artillery", "Artillery or Nebelwerfer"),
    ("other", "Another type"),
)
TYPE_WORDS = dict(TYPES)
MECHANIZED = ("tank", "recon", "flak")  # 25.2.1's "Tank, Recon, or Flak Unit"


def never_reason(unit: dict) -> str | None:
    """Why 25.2.5 (or 25.2.1) never gives `unit` a replacement, in words, or None."""
    kind, german = unit.get("type") or "", unit["side"] == "german"
    if kind == "artillery":
        return "Artillery Units never receive replacements (25.2.5)"
    if german and kind == "tank" and (unit.get("tq") or 0) >= 5:
        return f"German Tank Units with a TQ of 5 or more (this one {unit['tq']}) never receive replacements (25.2.5)"
    if german and kind == "tank" and unit.get("black_box"):
        return (
            "German Tank Units with a black-box attack strength never receive replacements (25.2.5)"
        )
    if unit.get("never"):
        return "25.2.5 names it among the units that never receive replacements"
    if not german and unit.get("airborne"):
        return "Allied airborne units never receive replacements (25.2.5)"
    if not german and unit.get("british"):
        return "British units never receive replacements (25.2.5)"
    if kind == "other":
        return "only Infantry Type, Tank, Recon and Flak units receive replacements (25.2.1)"
    return None


def check_unit(unit: dict, change: str, path: str) -> None:
    if not unit.get("type"):
        raise DomainError(
            f"{path}.unit",
            f"{unit['name']}: its type is not in the set-up, and 25.2.1 gives "
            f"replacements by type. Propose a correction of the set-up giving "
            f"its type (Infantry Type, Tank, Recon, Flak …) first.",
        )
    reason = never_reason(unit)
    if reason:
        done = "back to full strength" if change == "restored" else "rebuilt"
        raise DomainError(f"{path}.change", f"{unit['name']} cannot be {done}: {reason}.")


def check_counts(system, side: str, received: int, used: list[dict], field: str) -> None:
    """25.2.1 (A44-11 for three or more): which units a side's replacements went to."""
    mechanized = [u for u in used if u.get("type") in MECHANIZED]
    most = received // 2
    if len(mechanized) <= most:
        return
    who = system.book.side_name(side)
    names = " and ".join(f"{u['name']} ({TYPE_WORDS[u['type']]})" for u in mechanized)
    if received == 1:
        text = (
            f"The {who} received 1 replacement: it may only go to an Infantry Type unit (25.2.1), not to "
            f"{names}."
        )
    elif received == 2:
        text = (
            f"The {who} received 2 replacements: one may go to a Tank, Recon or Flak unit, the other only to "
            f"an Infantry Type unit (25.2.1); here they go to {names}."
        )
    else:
        text = (
            f"The {who} received {received} replacements: at most {most} may go to Tank, Recon or Flak units, "
            f"one for every two received, the rest to Infantry Type units (25.2.1, A44-11); here they go "
            f"to {names}."
        )
    raise DomainError(field, text)
