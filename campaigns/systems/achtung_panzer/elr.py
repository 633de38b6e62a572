"""Experience Level Rating by nationality (CG14, 1.617, 1.625; docs/rules-notes.md R-A25).

CG14: "Unless noted otherwise or changed during the course of the CG, all German units have an ELR
of 3, all French units have an ELR of 3 and all British units have an ELR of 4. German pioneers have
an ELR of 5 and are replaced by two broken 238 half-squads." Each side keeps one ELR per group it
may field (``private["elr"]``: {group: value}); the CG's initial OB and 1.31's balance provision
("noted otherwise") set the side's main nationality, French or German.

Journals written before version 5 kept one ELR per side: they fold with every group at that value,
moved together by 1.617 within 0-4, as Muster read the rules then.
"""

from __future__ import annotations

from .book import group_type

GROUPS = {"allied": ("french", "british"), "german": ("german", "german_pioneers")}
MAIN = {"allied": "french", "german": "german"}
WORDS = {
    "french": "French",
    "british": "British",
    "german": "German",
    "german_pioneers": "German pioneers",
}
BY_NATIONALITY_SINCE = 5  # the A!P! journal version from which each group keeps its own ELR
EVERY = "every nationality"  # elr.roll_moves: the book's reading (R-A25)


def _by_nationality(ctx) -> bool:
    return ctx.journal_version >= BY_NATIONALITY_SINCE


def initial(ctx, side: str, main_value: int) -> dict:
    """The side's ELR per group at the start: `main_value` (the CG's OB or 1.31) for its main
    nationality, CG14's value for the others."""
    if not _by_nationality(ctx):
        return {group: main_value for group in GROUPS[side]}
    values = {group: int(ctx.value(f"elr.start.{group}")) for group in GROUPS[side]}
    values[MAIN[side]] = main_value
    return values


def bounds(ctx, group: str) -> tuple[int, int]:
    """1.617's 0-4; German pioneers start above 4 (CG14), so their own start is their maximum."""
    low, high = int(ctx.value("elr.min")), int(ctx.value("elr.max"))
    if group == "german_pioneers" and _by_nationality(ctx):
        high = max(high, int(ctx.value("elr.start.german_pioneers")))
    return low, high


def moved_groups(ctx, side: str) -> tuple[str, ...]:
    """The groups a 1.617 roll changes: every one (the book's reading) or the main nationality's
    only (house rule elr.roll_moves)."""
    if not _by_nationality(ctx) or ctx.value("elr.roll_moves") == EVERY:
        return GROUPS[side]
    return (MAIN[side],)


def after_roll(ctx, side: str, values: dict, change: int) -> dict:
    """The side's ELR per group after a 1.617 change, each within its bounds."""
    values = groups(values, side)
    after = dict(values)
    for group in moved_groups(ctx, side):
        low, high = bounds(ctx, group)
        after[group] = min(
            high, max(low, values[group] + change)
        )  # the ELR is bounded, not the roll
    return after


def groups(values, side: str) -> dict:
    """{group: ELR}. A side's ELR was one number before v5: a state of that shape (a hand-made state in
    the step tests, a snapshot kept from before an upgrade) reads as every group at that number."""
    if isinstance(values, int):
        return {group: values for group in GROUPS[side]}
    return dict(values or {})


def is_pioneer(purchase: dict | None) -> bool:
    if not purchase:
        return False
    return purchase.get("nationality") == "german" and group_type(purchase) == "Pioneer"


def group_of(side: str, nationality: str | None, purchase: dict | None = None) -> str:
    """The group whose ELR a unit or RG of `nationality` (bought as `purchase`) plays at."""
    if is_pioneer(purchase):
        return "german_pioneers"
    return nationality if nationality in GROUPS[side] else MAIN[side]


def unit_elr(values: dict | None, side: str, unit: dict, purchases: dict):
    """A retained unit's ELR; `purchases`: {id: purchase}. ELR is a Multi-Man Counter's (ASL A19.1),
    so other units have none."""
    if unit.get("kind") not in ("squad", "half_squad", "crew") or values is None:
        return None
    return groups(values, side).get(
        group_of(side, unit.get("nationality"), purchases.get(unit.get("rg")))
    )


def words(values: dict | None) -> str:
    """ "French 3, British 4" (the side's groups in their order); one number where every group has
    the same (always so in a journal before v5)."""
    if values is None or values == {}:
        return ""
    if isinstance(values, int):
        return str(values)
    if len(set(values.values())) == 1:
        return str(next(iter(values.values())))
    return ", ".join(f"{WORDS.get(group, group)} {value}" for group, value in values.items())
