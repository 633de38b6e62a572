"""Copying a state (JSON-like data) for a trial: the fold tries an event on a copy, the seat rules
a change; a module of its own so both use it without importing each other."""

from __future__ import annotations

from typing import Any, TypeVar, cast

import orjson

T = TypeVar("T")


def copy_json(value: T) -> T:
    """A deep copy of data read as JSON (a stored snapshot): encoded and decoded again, several
    times faster than ``copy_state`` on a large state. What JSON would not give back as it was
    (a key that is not text, an integer past 64 bits, nesting past orjson's limit) is copied by
    ``copy_state``; a tuple comes back a list, as the stored snapshot holds it."""
    try:
        return cast(T, orjson.loads(orjson.dumps(value)))
    except (orjson.JSONEncodeError, TypeError):
        return copy_state(value)


def copy_state(value: T) -> T:
    """A deep copy of JSON-like data without recursion (copy.deepcopy recurses, and a
    deep enough value would make every later write to the campaign fail)."""
    if not isinstance(value, (dict, list)):
        return value
    root: dict[Any, Any] | list[Any] = {} if isinstance(value, dict) else []
    stack: list[tuple[dict[Any, Any] | list[Any], dict[Any, Any] | list[Any]]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            inner: Any
            if isinstance(item, (dict, list)):
                inner = {} if isinstance(item, dict) else []
                stack.append((item, inner))
            elif isinstance(item, tuple):  # rare and shallow: systems keep JSON-like data
                inner = tuple(copy_state(x) for x in item)
            else:
                inner = item
            if isinstance(target, dict):
                target[key] = inner
            else:
                target.append(inner)
    return cast(T, root)  # a copy of `value`: the same shape, built anew
