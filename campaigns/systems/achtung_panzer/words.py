"""Achtung! Panzer! in words for people: units, RGs, steps and rolls as sentences.

Pages never show a dice key, a step's internal id, an option value or a table's raw result
("retained_unwounded"): everything a person reads goes through here.
"""

from __future__ import annotations

import re

KIND_WORDS = {
    "squad": "squad", "half_squad": "half-squad", "leader": "leader", "armor_leader": "armor leader",
    "hero": "hero", "afv": "AFV", "gun": "Gun", "sw": "SW", "vehicle": "vehicle", "crew": "crew",
    "fortification": "fortification", "other": "unit",
}
NATIONALITY_WORDS = {"german": "German", "french": "French", "british": "British"}
SIDE_WORDS = {"allied": "Allied", "german": "German", "draw": "draw"}
TYPE_WORDS = {"allied_assault": "Allied assault", "german_assault": "German assault", "dual": "Dual Attack",
              "dual_attack": "Dual Attack"}
SPECIAL_WORDS = {"none": "a normal half-day", "armor": "an Armor half-day", "british": "a British half-day"}
STRENGTH_WORDS = {"attached": "attached", "full": "full strength", "depleted": "depleted"}
EFFECT_WORDS = {
    "retained_unwounded": "retained, unwounded", "retained_wounded": "retained, still wounded",
    "eliminated": "eliminated", "mobile": "becomes mobile", "no_change": "no change", "repaired": "repaired",
    "retained": "retained", "withdrawn": "withdrawn", "no_effect": "no effect", "disabled": "disabled",
}
STATUS_WORDS = {
    "ok": "ok", "wounded": "wounded", "heroic": "heroic", "broken": "broken", "malfunctioned": "malfunctioned",
    "disabled": "disabled", "immobilized": "immobilized", "abandoned": "abandoned", "shocked": "shocked/UK",
    "recalled": "under recall", "bogged": "bogged",
}
DISTANCE_WORDS = {"adjacent": "adjacent to a friendly non-isolated hex (−2)",
                  "within_two": "within 2 hexes of one (−1)", "farther": "farther away"}
POSITION_WORDS = {"front_line": "in / along a front line Location", "adjacent": "adjacent to a front line Location",
                  "other": "elsewhere"}


def plain(value) -> str:
    """Any remaining key in words: "armor_leader" -> "armor leader"."""
    return str(value).replace("_", " ")


def unit_words(unit: dict) -> str:
    """"467 squad, RG p3" / "8-1 leader (wounded)"."""
    kind = KIND_WORDS.get(unit.get("kind"), plain(unit.get("kind") or "unit"))
    text = f"{unit.get('type') or ''} {kind}".strip()
    if unit.get("rg"):
        text += f", RG {unit['rg']}"
    flags = [STATUS_WORDS.get(unit.get("status"), plain(unit.get("status")))] if unit.get("status") not in (None, "ok") else []
    flags += ["isolated" + (f" in pocket {unit['pocket']}" if unit.get("pocket") else "")] if unit.get("isolated") else []
    flags += ["captured"] if unit.get("captured") else []
    flags += ["fanatic"] if unit.get("fanatic") else []
    return text + (f" ({', '.join(flags)})" if flags else "")


KINDS_PLURAL = {
    "squad": "squads", "half_squad": "half-squads", "leader": "leaders", "armor_leader": "armor leaders",
    "hero": "heroes", "afv": "AFVs", "gun": "Guns", "sw": "SW", "vehicle": "vehicles", "crew": "crews",
    "fortification": "fortifications", "other": "other units",
}


def join_words(parts) -> str:
    """"a", "a and b", "a, b and c"."""
    parts = list(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else ""


def kinds_words(units, kinds) -> str:
    """Unit kinds with the types of `units` that have them: "squads (467, 468) and AFVs (PzIIA)"."""
    out = []
    for kind in kinds:
        types = sorted({u.get("type") for u in units if (u.get("kind") or "other") == kind and u.get("type")})
        shown = ", ".join(types[:4]) + (" …" if len(types) > 4 else "")
        out.append(KINDS_PLURAL.get(kind, plain(kind)) + (f" ({shown})" if shown else ""))
    return join_words(out)


def unit_label(unit: dict) -> str:
    """A unit as a choice: its id (to tell identical counters apart) and what it is."""
    return f"{unit['id']}: {unit_words(unit)}"


def purchase_words(purchase: dict) -> str:
    """"RG p3, French I2 1st Line Coy"."""
    what = " ".join(x for x in (NATIONALITY_WORDS.get(purchase.get("nationality"), ""), purchase.get("rg") or "",
                                purchase.get("group_type") or purchase.get("note") or "") if x)
    return f"RG {purchase['id']}, {what}" if what else f"RG {purchase['id']}"


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
        return {1: "ELR +1", -1: "ELR −1"}.get(change, "ELR unchanged")
    if step == "1.6122":
        return f"SAN {effect.get('san_before')} → {effect.get('san_after')}"
    if step == "1.618":
        return str(result.get("weather"))
    if step == "1.6112":
        return f"{effect.get('mmc', result.get('mmc'))} MMC may battle harden"
    if step.startswith("1.6113"):
        leader = effect.get("leader") or result.get("leader")
        return f"{leader} battle hardens" if leader and leader != "None" else "no leader battle hardens"
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
        return str(effect.get("result")) + (" (Heat of Battle)" if effect.get("heat_of_battle") else "")
    if result:
        return ", ".join(EFFECT_WORDS.get(str(v), plain(v)) for v in result.values() if not isinstance(v, (list, dict)))
    if report.get("row"):
        return f"{report['row']}"
    return ""


def roll_sentence(report: dict) -> str:
    """"RG strength: I2 — DR 5 + 2 = 7 −1 (Historical DRM) = 6 → full strength"."""
    dice = report.get("dice") or []
    shown = " + ".join(map(str, dice))
    if len(dice) > 1:
        shown += f" = {report.get('original')}"
    outcome = roll_result(report)
    label = subject_words(report.get("label") or "")
    return f"{label}: {_dice_name(report.get('expr'))} {shown}{_modifiers(report)}" + (f" → {outcome}" if outcome else "")


_SUBJECT = re.compile(r"\(([ug]\d+(?:\+[ug]\d+)*)\)")


def subject_words(label: str) -> str:
    return _SUBJECT.sub(lambda m: "(" + m.group(1).replace("+", ", ") + ")", label)


def find_report(view: dict, key: str) -> dict | None:
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
    "1.6063": "escape", "1.610": "wounded leader", "1.6112": "MMC battle hardening",
    "1.6113": "leader battle hardening", "1.6122": "SAN adjustment", "1.6131": "immobilization removal",
    "1.6132": "weapon repair", "1.6135": "captured weapon", "1.6142": "AFV platoon withdrawal",
    "1.615": "fortification removal", "1.616": "CPP replenishment", "1.617": "ELR loss/gain", "1.618": "weather",
    "1.6201": "RG strength", "1.6202": "support weapon", "1.6204": "gun battery / OBA strength",
    "1.6205": "infantry leaders", "1.6206": "armor leader", "1.622": "recon", "1.6231": "Dual Attack: sets up first",
    "1.625": "Dual Attack: moves first",
}
_SAID_BY_STEP = ("sets_up_first", "moves_first")  # the step's name already says what the roll decides
_TAILS = {"type": "type of unit", "attached": "attached weapon", "hw_lost": "the weapon not received"}


def key_words(key: str, view: dict | None = None) -> str:
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
            subject += ": " + _TAILS.get(tail[0], "carrier's half-squad" if tail[0].startswith("carrier")
                                         else "Gun not received" if tail[0].startswith("gun_lost")
                                         else f"{plain(tail[1]).upper()} {tail[2] if len(tail) > 2 else ''}".strip()
                                         if tail[0] == "sw" and len(tail) > 1 else plain(tail[0]))
    return f"{half_day} {what}" + (f" of {subject}" if subject else "") + f" ({step})"


def _subject(head: str, view: dict | None, side: str) -> str:
    private = (((view or {}).get("game") or {}).get("sides") or {}).get(side) or {}
    for purchase in private.get("purchases", []):
        if purchase.get("id") == head:
            return purchase_words(purchase)
    for unit in private.get("retained", []) + private.get("eliminated", []):
        if unit.get("id") == head:
            return unit_label(unit)
    return head.replace("+", ", ")
