"""Results as sentences: "Casualty roll for Pvt. Weber (C): dr 2 − 1 (mission lost) = 1 → dead"."""

from __future__ import annotations


def number(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def dice_text(report: dict) -> str:
    """The dice as read at the table: "dr 4" for one d6 (glossary: dr), "1d3 (die 5) 3"."""
    expr, faces = report["expr"], report["dice"]
    if expr == "1d6":
        return f"dr {faces[0]}"
    if expr == "1d3":
        return f"die {faces[0]}, halved rounding up (1.2) = {report['original']}"
    return f"{expr} {' + '.join(map(str, faces))} = {report['original']}"


def modifiers_text(report: dict) -> str:
    return "".join(
        f" {'+' if m['value'] >= 0 else '−'} {abs(m['value'])} ({m['label']})"
        for m in report["modifiers"]
    )


def roll_sentence(report: dict, outcome: str) -> str:
    """`label: dice ± modifiers = final → outcome`, the house rule named when one decided it."""
    mods = modifiers_text(report)
    final = f" = {number(report['final'])}" if mods else ""
    text = f"{report['label']}: {dice_text(report)}{mods}{final} → {outcome}"
    if report.get("book"):
        books = ", ".join(str(v) for v in report["book"].values())
        text += f" (house rule; Muster's default: {books})"
    return text


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def join(items) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
