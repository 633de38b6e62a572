"""What a journal version promises: a digest of the kinds, their fields and the step sequence.

A game's journal version must change whenever what its journals mean changes: an event kind
added, removed or reshaped, a field's bounds, the sides, the calendars, the step sequence, the
rule tables and constants its fold reads. ``signature(system)`` gathers those (never words: labels,
help texts and notes may change freely); the game's ``journal_versions.json`` keeps the digest of
each version, and tests/versions/test_journal_signatures.py fails the build when today's signature is
not the one kept for today's version (docs/journal.md, "Bumping a version").
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaigns import versions

if TYPE_CHECKING:
    from campaigns.schema.fields import EventKind, Field
    from campaigns.systems.base import GameSystem

# A signature, or a part of it: JSON-like values, digested as such.
Signature = dict[str, Any]

CORE_FILE = Path(__file__).parent / "journal_versions.json"


def _field(field: Field) -> Signature:
    out: Signature = {
        "name": field.name,
        "type": field.type,
        "required": field.required,
        "default": field.default,
    }
    for key in ("choices", "min", "max", "max_length"):
        value = getattr(field, key)
        if value not in (None, ()):
            out[key] = value
    if field.item is not None:
        out["item"] = _field(field.item)
    if field.fields:
        out["fields"] = [_field(f) for f in field.fields]
    return out


def _kind(kind: EventKind) -> Signature:
    return {
        "fields": [_field(f) for f in kind.fields],
        "audience": kind.audience,
        "actor": kind.actor,
    }


def _tables(system: GameSystem) -> Signature:
    """The values the fold reads from the rule tables (rows, cells, dice), not their words."""
    out: Signature = {}
    for table_id, table in sorted(system.tables.tables.items()):
        out[table_id] = {
            "dice": table.dice,
            "columns": sorted(table.columns),
            "rows": [[row.label, row.cells] for row in table.rows],
        }
    return out


def system_signature(system: GameSystem) -> Signature:
    return {
        "kinds": {k.name: _kind(k) for k in system.event_kinds},
        "result": [_field(f) for f in system.result_fields],
        "options": [_field(f) for f in system.option_fields],
        "sides": [s.slug for s in system.sides],
        "variants": {v.slug: list(v.calendar) for v in system.variants},
        "sequence": list(system.journal_sequence()),
        "tables": _tables(system),
        "constants": {key: entry.get("value") for key, entry in sorted(system.constants().items())},
        "late_house_rules": system.late_house_rules,
    }


def core_signature() -> Signature:
    from campaigns.journal.core_events import AMENDABLE, KINDS, UNDOABLE

    return {
        "kinds": {name: _kind(kind) for name, kind in KINDS.items()},
        "amendable": sorted(AMENDABLE),
        "undoable": sorted(UNDOABLE),
    }


def digest(value: object) -> str:
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), default=repr, ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def summary(signature: Signature) -> Signature:
    """What a version's entry keeps: the whole digest, one per kind, the step list, one per other
    part (so a failing check can say what changed)."""
    return {
        "digest": digest(signature),
        "kinds": {name: digest(kind)[:12] for name, kind in sorted(signature["kinds"].items())},
        "sequence": signature.get("sequence", []),
        "parts": {
            key: digest(value)[:12]
            for key, value in sorted(signature.items())
            if key not in ("kinds", "sequence")
        },
    }


def changes(kept: Signature, now: Signature) -> list[str]:
    """What differs between a kept summary and today's, in short sentences."""
    found = []
    for name in sorted(set(kept.get("kinds", {})) | set(now["kinds"])):
        before, after = kept.get("kinds", {}).get(name), now["kinds"].get(name)
        if before is None:
            found.append(f"kind {name} added")
        elif after is None:
            found.append(f"kind {name} removed")
        elif before != after:
            found.append(f"kind {name} changed (fields, bounds, audience or actor)")
    old_steps, new_steps = kept.get("sequence", []), now["sequence"]
    if old_steps != new_steps:
        added = [s for s in new_steps if s not in old_steps]
        removed = [s for s in old_steps if s not in new_steps]
        found.append(
            "sequence changed"
            + (f": added {', '.join(added)}" if added else "")
            + (f"; removed {', '.join(removed)}" if removed else "")
            + ("" if added or removed else ": steps reordered")
        )
    for part in sorted(set(kept.get("parts", {})) | set(now["parts"])):
        if kept.get("parts", {}).get(part) != now["parts"].get(part):
            found.append(f"{part} changed")
    return found


# --- the files ---------------------------------------------------------------------------------------


def file_of(system: GameSystem) -> Path:
    """journal_versions.json in the game's own folder."""
    return Path(inspect.getfile(type(system))).parent / "journal_versions.json"


def journals() -> Iterator[tuple[str, int, Signature, Path]]:
    """(journal name, version today, signature today, its file) for the core and every game."""
    from campaigns.systems import all_systems

    yield versions.CORE, versions.CORE_VERSION, core_signature(), CORE_FILE
    for slug, system in sorted(all_systems().items()):
        yield slug, system.journal_version, system_signature(system), file_of(system)


def read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"versions": {}}
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def write(path: Path, document: dict[str, Any]) -> None:
    path.write_text(
        json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def problem(journal: str, version: int, signature: Signature, path: Path) -> str | None:
    """Why today's signature is not the one kept for today's version (None: it is)."""
    kept = read(path)["versions"]
    now = summary(signature)
    entry = kept.get(str(version))
    if entry is not None and entry["digest"] == now["digest"]:
        return None
    newest = max((int(v) for v in kept), default=None)
    if entry is None:
        if newest is not None and version > newest:
            return (
                f"{journal}: journal version {version} has no recorded signature yet (the newest kept is "
                f"v{newest}). Check that an upgrade step from v{version - 1} is registered, then record it: "
                f"python manage.py journal_versions --record"
            )
        return (
            f"{journal}: no signature kept for journal version {version} in {path}. Record it: "
            f"python manage.py journal_versions --record"
        )
    what = "; ".join(changes(entry, now)) or "a detail of the signature changed"
    return (
        f"{journal}: its journal changed without a version bump ({what}). Journals written under "
        f"v{version} would no longer mean what they meant: bump its journal version to v{version + 1}, "
        f"register an upgrade step from v{version} (docs/journal.md, \"Bumping a version\"), then "
        f"python manage.py journal_versions --record"
    )


def record(journal: str, version: int, signature: Signature, path: Path) -> str:
    """Keep today's signature for today's version; a version's kept signature never changes."""
    document = read(path)
    now = summary(signature)
    entry = document["versions"].get(str(version))
    if entry is not None:
        if entry["digest"] == now["digest"]:
            return f"{journal} v{version}: recorded already"
        raise ValueError(problem(journal, version, signature, path))
    document["journal"] = journal
    document["versions"][str(version)] = {**now, "release": versions.release()}
    write(path, document)
    return f"{journal} v{version}: signature recorded in {path}"
