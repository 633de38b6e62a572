"""How a worker process (web or Celery) collects its garbage, once it has loaded what it needs.

What it holds from then on (modules, URL patterns, game systems, rule tables) lives as long as
the process: frozen out of the collector's passes, which had walked it all and paused a request
for up to 85 ms every few seconds under load (benchmarks/README.md, "The write tail was the
garbage collector"). And the youngest generation is collected after YOUNGEST new objects rather
than Python's 700: reading a long campaign's state makes about a hundred thousand objects, each
700 of them had started a pass, and every tenth of those passes a deeper one over everything
the request held (about a fifth of an append in a 13-half-day A!P! campaign)."""

from __future__ import annotations

import gc

YOUNGEST = 20_000


def settle() -> None:
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNGEST, middle, oldest)
    gc.freeze()
