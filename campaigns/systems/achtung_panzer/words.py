"""Achtung! Panzer! in words for people: units, RGs, steps and rolls as sentences.

Pages never show a dice key, a step's internal id, an option value or a table's raw result
("retained_unwounded"): everything a person reads goes through here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from . import elr
from .book import group_type
from .shapes import APState, Side

# The word maps looked up with a value read from the state or an event are keyed `str | None`:
# a missing value (None) gets the lookup's default.
KIND_WORDS: dict[str | None, str] = {
    "squad": "squad",
    "half_squad": "half-squad",
    "leader": "leader",
    "armor_leader": "armor leader",
    "hero": "hero",
    "afv": "AFV",
    "gun": "Gun",
    "sw": "SW",
    "vehicle": "vehicle",
    "crew": "crew",
    "fortification": "fortification",
    "other": "unit",
}
NATIONALITY_WORDS = {"german": "German", "french": "French", "british": "British"}
SIDE_WORDS: dict[str | None, str] = {"allied": "Allied", "german": "German", "draw": "draw"}
TYPE_WORDS: dict[str | None, str] = {
    "allied_assault": "Allied assault",
    "german_assault": "German assault",
    "dual": "Dual Attack",
    "dual_attack": "Dual Attack",
}
SPECIAL_WORDS: dict[str | None, str] = {
    "none": "a normal half-day",
    "armor": "an Armor half-day",
    "british": "a British half-day",
}
STRENGTH_WORDS = {"attached": "attached", "full": "full strength", "depleted": "depleted"}
EFFECT_WORDS = {
    "retained_unwounded": "retained, unwounded",
    "retained_wounded": "retained, still wounded",
    "eliminated": "eliminated",
    "mobile": "becomes mobile",
    "no_change": "no change",
    "repaired": "repaired",
    "retained": "retained",
    "withdrawn": "withdrawn",
    "no_effect": "no effect",
    "disabled": "disabled",
}
STATUS_WORDS: dict[str | None, str] = {
    "ok": "ok",
    "wounded": "wounded",
    "heroic": "heroic",
    "broken": "broken",
    "malfunctioned": "malfunctioned",
    "disabled": "disabled",
    "immobilized": "immobilized",
    "abandoned": "abandoned",
    "shocked": "shocked/UK",
    "recalled": "under recall",
    "bogged": "bogged",
}
DISTANCE_WORDS = {
    "adjacent": "adjacent to a friendly non-isolated hex (−2)",
    "within_two": "within 2 hexes of one (−1)",
    "farther": "farther away",
}
POSITION_WORDS = {
    "front_line": "in / along a front line Location",
    "adjacent": "adjacent to a front line Location",
    "other": "elsewhere",
}


def plain(value) -> str:
    """Any remaining key in words: "armor_leader" -> "armor leader"."""
    return str(value).replace("_", " ")


def _id_number(ident) -> int:
    """ "u12" -> 12: ids are numbered in order of creation (one counter per side)."""
    digits = "".join(ch for ch in str(ident or "") if ch.isdigit())
    return int(digits) if digits else 10**9


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def what_unit(unit: dict) -> str:
    """ "467 squad", "8-1 leader", "37* Inf Gun" (a type that already says its kind says it once)."""
    kind = KIND_WORDS.get(unit.get("kind"), plain(unit.get("kind") or "unit"))
    kind_type = (unit.get("type") or "").strip()
    if kind_type and kind.lower() in kind_type.lower().split():
        return kind_type
    return f"{kind_type} {kind}".strip()


def flags(unit: dict) -> str:
    found = (
        [STATUS_WORDS.get(unit.get("status"), plain(unit.get("status")))]
        if unit.get("status") not in (None, "ok")
        else []
    )
    found += (
        ["isolated" + (f" in pocket {unit['pocket']}" if unit.get("pocket") else "")]
        if unit.get("isolated")
        else []
    )
    found += ["captured"] if unit.get("captured") else []
    found += ["fanatic"] if unit.get("fanatic") else []
    return f" ({', '.join(found)})" if found else ""


class Names:
    """How the players name a side's RGs and units, from that side's records only: an RG by its
    table id and type, "RG I2 (1st Line Coy)", with its ordinal when the side has several of one
    ("2nd RG I2 (1st Line Coy)", in the order bought); a unit by type and kind with its ordinal
    among those of its RG, "2nd 467 squad of RG I2 (1st Line Coy)" (eliminated ones keep their
    place, so a name does not move when another unit is lost). Ids stay inside forms."""

    def __init__(self, private: Mapping[str, Any] | None):
        private = private or {}
        self.purchases = {p["id"]: p for p in private.get("purchases", []) if p.get("id")}
        self._rg: dict[str, str] = {}
        seen: dict[tuple, list] = {}
        for p in sorted(self.purchases.values(), key=lambda p: _id_number(p["id"])):
            seen.setdefault((p.get("nationality"), p.get("rg") or p.get("note") or ""), []).append(
                p["id"]
            )
        for ids in seen.values():
            for n, ident in enumerate(ids, 1):
                base = self._rg_base(self.purchases[ident])
                self._rg[ident] = f"{ordinal(n)} {base}" if len(ids) > 1 else base
        self._unit: dict[str | None, tuple[int, int]] = {}
        groups: dict[tuple, list] = {}
        placed: set = set()
        for unit in [*private.get("retained", []), *private.get("eliminated", [])]:
            key = (unit.get("rg"), unit.get("kind"), (unit.get("type") or "").strip())
            if unit.get("id") and unit["id"] not in placed:
                placed.add(unit["id"])
                groups.setdefault(key, []).append(unit["id"])
        self.units = {
            u["id"]: u
            for u in [*private.get("eliminated", []), *private.get("retained", [])]
            if u.get("id")
        }
        for ids in groups.values():
            ids.sort(key=_id_number)
            for n, ident in enumerate(ids, 1):
                self._unit[ident] = (n, len(ids))

    @staticmethod
    def _rg_base(p: dict) -> str:
        what = group_type(p)
        if p.get("nationality") == "british":
            what = f"British {what}".strip()
        if p.get("rg"):
            return f"RG {p['rg']}" + (f" ({what})" if what else "")
        return f"RG {what}" if what else "an RG"

    def rg(self, purchase_id) -> str:
        if purchase_id in self._rg:
            return self._rg[purchase_id]
        return "no RG" if not purchase_id else "an RG no longer on the list"

    def unit(self, unit: dict, with_rg: bool = True) -> str:
        """ "2nd 467 squad of RG I2 (1st Line Coy)"; without its RG inside a list headed by it."""
        n, of = self._unit.get(unit.get("id"), (1, 1))
        text = (f"{ordinal(n)} " if of > 1 else "") + what_unit(unit)
        if with_rg and unit.get("rg"):
            text += f" of {self.rg(unit['rg'])}"
        return text

    def label(self, unit: dict) -> str:
        """A unit as a choice: its name and its state."""
        return self.unit(unit) + flags(unit)


_AN_ID = re.compile(r"\b([upf]\d+)\b")


def name_ids(text: str, names: Names) -> str:
    """A sentence written with the side's unit and RG ids ("u12's MA …", "p7 was not bought …")
    with each named as the side names it; an id it does not know stays."""

    def one(match):
        ident = match.group(1)
        if ident in names.units:
            opening = match.start() == 0 or text[: match.start()].rstrip().endswith((".", ":"))
            return ("The " if opening else "the ") + names.unit(names.units[ident])
        if ident in names.purchases:
            return names.rg(ident)
        return ident

    return _AN_ID.sub(one, text)


def names_for(state: APState | None, side: str | None) -> Names:
    game = state.get("game") if state else None
    sides: Mapping[str, Side] = (game.get("sides") if game else None) or {}
    return Names(sides.get(side) if side is not None else None)


def names_kept(state: APState | None, side: str) -> Callable[[], Names]:
    """The side's names as they stand now, made only when asked: what an event's apply keeps in case
    its error must name a unit (rarely). Each list and record is copied one level deep, which costs
    a fraction of naming them, so an apply that changed them before refusing does not rename them."""
    game = state.get("game") if state else None
    sides: Mapping[str, Side] = (game.get("sides") if game else None) or {}
    private: Mapping[str, Any] = sides.get(side) or {}
    kept = {
        part: [dict(item) for item in private.get(part) or ()]
        for part in ("purchases", "retained", "eliminated")
    }
    return lambda: Names(kept)


def unit_words(unit: dict, names: Names | None = None) -> str:
    """ "2nd 467 squad of RG I2 (1st Line Coy) (wounded)"."""
    return (names or Names(None)).unit(unit) + flags(unit)


KINDS_PLURAL = {
    "squad": "squads",
    "half_squad": "half-squads",
    "leader": "leaders",
    "armor_leader": "armor leaders",
    "hero": "heroes",
    "afv": "AFVs",
    "gun": "Guns",
    "sw": "SW",
    "vehicle": "vehicles",
    "crew": "crews",
    "fortification": "fortifications",
    "other": "other units",
}


def join_words(parts) -> str:
    """ "a", "a and b", "a, b and c"."""
    parts = list(parts)
    return (
        parts[0]
        if len(parts) == 1
        else ", ".join(parts[:-1]) + " and " + parts[-1]
        if parts
        else ""
    )


def kinds_words(units, kinds) -> str:
    """Unit kinds with the types of `units` that have them: "squads (467, 468) and AFVs (PzIIA)"."""
    out = []
    for kind in kinds:
        types = sorted(
            {u.get("type") for u in units if (u.get("kind") or "other") == kind and u.get("type")}
        )
        shown = ", ".join(types[:4]) + (" …" if len(types) > 4 else "")
        out.append(KINDS_PLURAL.get(kind, plain(kind)) + (f" ({shown})" if shown else ""))
    return join_words(out)


def unit_label(unit: dict, names: Names | None = None) -> str:
    """A unit as a choice or in a sentence: its name and its state."""
    return (names or Names(None)).label(unit)


def purchase_words(purchase: dict, names: Names | None = None) -> str:
    """ "RG I2 (1st Line Coy)", "2nd RG A1 (…)" (names: the side's own, for the ordinal)."""
    if names is not None and purchase.get("id") in names.purchases:
        return names.rg(purchase["id"])
    return Names._rg_base(purchase)


# --- rolls ---------------------------------------------------------------------------------


def _dice_name(expr: str | None) -> str:
    return "DR" if (expr or "").startswith("2") else "dr"


def _modifiers(report: dict) -> str:
    mods = report.get("modifiers") or []
    if not mods:
        return ""
    parts = " ".join(f"{m['value']:+d} ({m['label']})" for m in mods if m.get("value"))
    return f" {parts} = {report['final']}" if parts else ""


def roll_result(report: dict) -> str:
    """What a roll gave, in words."""
    effect = report.get("effect") or {}
    result = report.get("result") or {}
    step = report.get("step") or ""
    if step == "1.616":
        return f"{result.get('cpp')} CPP (now {effect.get('cpp_after')})"
    if step == "1.617":
        change = int(result.get("elr_change") or 0)
        said = {1: "ELR +1", -1: "ELR −1"}.get(change, "ELR unchanged")
        after = effect.get("elr_after")
        if isinstance(after, dict):
            return f"{said} (now {elr.words(after)})"
        return said
    if step == "1.6122":
        return f"SAN {effect.get('san_before')} → {effect.get('san_after')}"
    if step == "1.618":
        return str(result.get("weather"))
    if step == "1.6112":
        return f"{effect.get('mmc', result.get('mmc'))} MMC may battle harden"
    if step.startswith("1.6113"):
        leader = effect.get("leader") or result.get("leader")
        return (
            f"{leader} battle hardens"
            if leader and leader != "None"
            else "no leader battle hardens"
        )
    if step == "1.622":
        return f"{effect.get('locations', report.get('final'))} Locations"
    if "received" in result:
        return "received" if result["received"] else "not received"
    if "strength" in result:
        return STRENGTH_WORDS.get(result["strength"], plain(result["strength"]))
    if "ammo" in result:
        return f"{plain(result['ammo'])} ammunition"
    if "leaders" in result:
        leaders = result["leaders"] or []
        return ", ".join(leaders) if leaders else "no leader"
    if "side" in result:
        return f"{SIDE_WORDS.get(result['side'], result['side'])}"
    if "effect" in result:
        return EFFECT_WORDS.get(result["effect"], plain(result["effect"]))
    if step == "1.6063" and effect:
        return str(effect.get("result")) + (
            " (Heat of Battle)" if effect.get("heat_of_battle") else ""
        )
    if result:
        return ", ".join(
            EFFECT_WORDS.get(str(v), plain(v))
            for v in result.values()
            if not isinstance(v, (list, dict))
        )
    if report.get("row"):
        return f"{report['row']}"
    return ""


def roll_sentence(report: dict, names: Names | None = None) -> str:
    """ "RG strength: I2 — DR 5 + 2 = 7 −1 (Historical DRM) = 6 → full strength"."""
    dice = report.get("dice") or []
    shown = " + ".join(map(str, dice))
    if len(dice) > 1:
        shown += f" = {report.get('original')}"
    outcome = roll_result(report)
    label = subject_words(report.get("label") or "", names)
    return f"{label}: {_dice_name(report.get('expr'))} {shown}{_modifiers(report)}" + (
        f" → {outcome}" if outcome else ""
    )


_SUBJECT = re.compile(r" ?\(([upg]\d+(?:\+[upg]\d+)*)\)")
_RG_ID = re.compile(r"\bRG (p\d+)\b")


def subject_words(label: str, names: Names | None = None) -> str:
    """A roll's label as recorded (units named by id, "Escape (u12+u13)") with the units and RGs
    named as the players name them."""

    def one(ident):
        if names is not None and ident in names.units:
            return names.unit(names.units[ident])
        if names is not None and ident in names.purchases:
            return names.rg(ident)
        return ident

    label = _SUBJECT.sub(lambda m: ": " + ", ".join(one(i) for i in m.group(1).split("+")), label)
    if names is not None:
        label = _RG_ID.sub(
            lambda m: names.rg(m.group(1)) if m.group(1) in names.purchases else m.group(0), label
        )
    return label


def find_report(view: APState, key: str) -> dict | None:
    game = (view or {}).get("game") or {}
    pools = [game.get("public", {}).get("rolls", [])]
    pools += [private.get("rolls", []) for private in (game.get("sides") or {}).values()]
    for pool in pools:
        for report in reversed(pool):
            if report.get("key") == key:
                return report
    return None


# --- roll keys ------------------------------------------------------------------------------

_STEP_NAMES = {
    "1.6063": "escape",
    "1.610": "wounded leader",
    "1.6112": "MMC battle hardening",
    "1.6113": "leader battle hardening",
    "1.6122": "SAN adjustment",
    "1.6131": "immobilization removal",
    "1.6132": "weapon repair",
    "1.6135": "captured weapon",
    "1.6142": "AFV platoon withdrawal",
    "1.615": "fortification removal",
    "1.616": "CPP replenishment",
    "1.617": "ELR loss/gain",
    "1.618": "weather",
    "1.6201": "RG strength",
    "1.6202": "support weapon",
    "1.6204": "gun battery / OBA strength",
    "1.6205": "infantry leaders",
    "1.6206": "armor leader",
    "1.622": "recon",
    "1.6231": "Dual Attack: sets up first",
    "1.625": "Dual Attack: moves first",
}
_SAID_BY_STEP = (
    "sets_up_first",
    "moves_first",
)  # the step's name already says what the roll decides
_TAILS = {
    "type": "type of unit",
    "attached": "attached weapon",
    "hw_lost": "the weapon not received",
}


def key_words(key: str, view: APState | None = None) -> str:
    """A roll key ("5/29A/1.6201/allied/p1/attached") in words: "5/29A, RG strength of RG p1:
    attached weapon (1.6201)"."""
    parts = key.split("/")
    if len(parts) < 4:
        return plain(key)
    half_day = "/".join(parts[:2])
    step, side, rest = parts[2], parts[3], parts[4:]
    what = _STEP_NAMES.get(step, "roll")
    subject = ""
    if rest and rest[0] not in _SAID_BY_STEP:
        head, tail = rest[0], rest[1:]
        subject = _subject(head, view, side)
        if tail:
            subject += ": " + _TAILS.get(
                tail[0],
                "carrier's half-squad"
                if tail[0].startswith("carrier")
                else "Gun not received"
                if tail[0].startswith("gun_lost")
                else f"{plain(tail[1]).upper()} {tail[2] if len(tail) > 2 else ''}".strip()
                if tail[0] == "sw" and len(tail) > 1
                else plain(tail[0]),
            )
    return f"{half_day} {what}" + (f" of {subject}" if subject else "") + f" ({step})"


def _subject(head: str, view: APState | None, side: str) -> str:
    names = names_for(view, side)
    if head in names.purchases:
        return names.rg(head)
    parts = head.split("+")
    if all(p in names.units for p in parts):
        return ", ".join(names.unit(names.units[p]) for p in parts)
    return head.replace("+", ", ")
