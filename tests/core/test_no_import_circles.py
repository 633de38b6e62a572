"""No import circles in Muster's code (campaigns, rosters, api, muster): read by grimp (what
import-linter reads), imports inside functions included (circles too, only hidden from the
interpreter), and imports for type checkers only (under ``if TYPE_CHECKING:``) included as well: a
circle the interpreter never walks still ties the modules together for whoever reads, types or moves
them. A module in a circle cannot be understood, tested or moved without the others.

KNOWN holds the circles left while they are being broken, each with whose work it is; the test
fails on any other circle, and on a KNOWN one that is gone (take it out: the list only shrinks).
The goal is an empty KNOWN."""

from __future__ import annotations

import grimp
import pytest

PACKAGES = ("campaigns", "rosters", "api", "muster")

KNOWN: dict[frozenset[str], str] = {}


def _code(module: str) -> bool:
    parts = module.split(".")
    return "tests" not in parts and "migrations" not in parts


def import_graph() -> dict[str, set[str]]:
    """module -> the modules of PACKAGES it imports (type checkers' imports too), tests and
    migrations left out."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=False)
    modules = {m for m in graph.modules if _code(m)}
    return {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(frozenset(group))
    return found


def test_circles_finds_a_planted_circle_and_nothing_in_a_line():
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]


@pytest.fixture(scope="module")
def found() -> list[frozenset[str]]:
    return circles(import_graph())


def test_no_import_circle_but_the_known_ones(found):
    unknown = [sorted(c) for c in found if not any(c <= known for known in KNOWN)]
    assert not unknown, f"import circles: {unknown}"


def test_every_known_circle_is_still_there(found):
    gone = [why for known, why in KNOWN.items() if not any(c & known for c in found)]
    assert not gone, f"these circles are broken: take them out of KNOWN: {gone}"
