"""A bounded memory of this process: least recently used out first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _one(value: object) -> int:
    return 1


class Recent(Generic[K, V]):
    """Keys K to values V: up to `limit` in all, each entry weighing `weigh(value)` (1 by
    default); an entry heavier than `largest` (an eighth of the limit by default) is not kept."""

    def __init__(
        self,
        limit: int,
        weigh: Callable[[V], int] = _one,
        largest: int | None = None,
    ) -> None:
        self.limit, self.weigh, self.size = limit, weigh, 0
        self.largest = largest if largest is not None else max(1, limit // 8)
        self.entries: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self.lock:
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        weight = self.weigh(value)
        if weight > self.largest:
            return
        with self.lock:
            if key in self.entries:
                self.size -= self.weigh(self.entries.pop(key))
            self.entries[key] = value
            self.size += weight
            while self.size > self.limit:
                _, dropped = self.entries.popitem(last=False)
                self.size -= self.weigh(dropped)

    def drop(self, key: K) -> None:
        with self.lock:
            if key in self.entries:
                self.size -= self.weigh(self.entries.pop(key))

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.size = 0
