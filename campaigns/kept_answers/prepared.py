"""Lookups run by almost every request: prepared once per database connection (PostgreSQL),
read without the ORM's per-query machinery.

Django sends a query as text with its values inline, so PostgreSQL plans it every time. The
campaign lookup (``visibility.campaign_and_viewer``: five tables) takes 0.5 ms to plan and
0.06 ms to run; prepared, it is planned once per connection. A raw queryset then spends about
0.15 ms more in Python finding its columns, converters and model; ``one`` knows them. Only
the fixed lookups written for it use this; the ORM's queries stay as Django sends them. The
cursor they run on is made once per connection and kept (a new psycopg cursor, with its map of
adapters, and Django's pure-Python reading of timestamps cost 0.06 ms of a kept API answer's
0.45 ms in process).
``DB_PREPARED_LOOKUPS=0`` turns preparing off (a connection pooler that keeps no prepared
statements: PgBouncer before 1.21 in transaction mode).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any, Self

from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model
from django.db.models.sql import Query

_CURSOR: list[type] = []
_KEPT_CURSOR = "_muster_prepared_cursor"  # a psycopg connection's (time zone, prepared cursor)


def one(model: type[Model], sql: str, params: Sequence[Any], extra: tuple[str, ...]) -> Any:
    """The first row of `sql` as an instance of `model`, from its leading columns (the model's
    concrete fields, in order), with the columns after them set as the attributes `extra`;
    None when there is no row. The instance carries those attributes beside its fields: Any."""
    using = model._default_manager.db
    connection = connections[using]
    with _reading(connection) as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(model._meta.concrete_fields)
    instance = build(model, row[:width])
    for name, value in zip(extra, row[width:], strict=True):
        setattr(instance, name, value)
    return instance


def build(model: type[Model], values: Iterable[object]) -> Any:
    """An instance of `model` from the values of its concrete fields, in order, as a query returned
    them (converted as the ORM converts them)."""
    using = model._default_manager.db
    connection = connections[using]
    row: list[Any] = list(values)
    compiler, converters = _converters(connection, model)
    if converters:
        row = next(iter(compiler.apply_converters([row], converters)))
    return model.from_db(using, [f.attname for f in model._meta.concrete_fields], row)


def rows(
    sql: str, params: Sequence[Any], fields: dict[int, Field[Any, Any]]
) -> list[tuple[Any, ...]]:
    """Every row of `sql`, the columns at the positions of `fields` (position -> model field)
    converted as the ORM converts that field."""
    connection = connections["default"]
    with _reading(connection) as cursor:
        cursor.execute(sql, params)
        found: list[tuple[Any, ...]] = cursor.fetchall()
    if not found:
        return found
    columns: list[Any] = [None] * len(found[0])  # the converted columns' expressions, else None
    for position, field in fields.items():
        columns[position] = field.get_col(field.model._meta.db_table)
    compiler = connection.ops.compiler("SQLCompiler")(Query(None), connection, connection.alias)
    converters = compiler.get_converters(columns)
    if connection.vendor == "sqlite":
        return _sqlite_dates_kept(connection, found, converters, compiler)
    return (
        [tuple(row) for row in compiler.apply_converters(found, converters)]
        if converters
        else found
    )


_SQLITE_DATES: dict[tuple[object, ...], Any] = {}  # (zone, USE_TZ, value as read) -> datetime


def _sqlite_dates_kept(
    connection: BaseDatabaseWrapper,
    found: list[tuple[Any, ...]],
    converters: dict[int, tuple[list[Any], Any]],
    compiler: Any,
) -> list[tuple[Any, ...]]:
    """SQLite's rows converted as the ORM converts them, each DateTimeField value (Django's
    converter, pure Python: about 3.5 µs a value, most of a list row's reading) converted once per
    value and connection time zone, as `_keep_timestamps` does on PostgreSQL: a list's dates
    repeat from one request to the next."""
    operations: Any = connection.ops  # SQLite's: its converter is not on the base class
    dated = operations.convert_datetimefield_value
    kept = {pos: column for pos, (convs, column) in converters.items() if convs == [dated]}
    others = {pos: both for pos, both in converters.items() if pos not in kept}
    rows = compiler.apply_converters(found, others) if others else map(list, found)
    zone = connection.timezone_name, settings.USE_TZ
    out = []
    for row in rows:
        for pos, column in kept.items():
            value = row[pos]
            if value is not None:
                key = (*zone, value)
                converted = _SQLITE_DATES.get(key)
                if converted is None:
                    if len(_SQLITE_DATES) >= _TIMESTAMPS_KEPT:
                        _SQLITE_DATES.clear()
                    converted = _SQLITE_DATES[key] = dated(value, column, connection)
                row[pos] = converted
        out.append(tuple(row))
    return out


def _converters(connection: BaseDatabaseWrapper, model: type[Model]) -> tuple[Any, Any]:
    """The compiler and the converters of the model's columns on this connection, found once."""
    known = connection.__dict__.setdefault("_prepared_converters", {})
    if model not in known:
        compiler = connection.ops.compiler("SQLCompiler")(
            Query(model), connection, connection.alias
        )
        known[model] = (
            compiler,
            compiler.get_converters(
                [f.get_col(model._meta.db_table) for f in model._meta.concrete_fields]
            ),
        )
    found: tuple[Any, Any] = known[model]  # (compiler, converters)
    return found


@contextmanager
def _reading(connection: BaseDatabaseWrapper) -> Iterator[CursorWrapper]:
    """Django's cursor (health check, query log, error wrapping) around the connection's own
    prepared cursor where the database is PostgreSQL (kept open: one per connection), else
    around a cursor of its own, closed after (on PostgreSQL with preparing off, its timestamps
    still read once, `_kept`)."""
    if connection.vendor != "postgresql" or not getattr(settings, "DB_PREPARED_LOOKUPS", True):
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                _keep_timestamps(cursor.cursor)
            yield cursor
        return
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        cursor = _prepared_cursor(connection)
    yield connection._prepare_cursor(cursor)  # type: ignore[attr-defined]  # Django's wrapping


def _prepared_cursor(connection: BaseDatabaseWrapper) -> Any:
    """The connection's cursor that binds values on the server and prepares each statement, made
    once per connection and time zone (making one, with its map of adapters, cost as much as the
    lookup's own Python), its timestamps read in the connection's time zone as Django's own
    cursors read them, each text once (`_kept`)."""
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    raw_connection = connection.connection
    zone = connection.timezone
    kept = raw_connection.__dict__.get(_KEPT_CURSOR)
    if kept is not None and kept[0] == zone and not kept[1].closed:
        return kept[1]
    if raw_connection.prepare_threshold is None:
        # Django turns psycopg's preparing off (None), which refuses even a statement that asks;
        # a threshold no query reaches prepares only the ones that ask.
        raw_connection.prepare_threshold = 2**31 - 1
    cursor = _prepared_cursor_class()(raw_connection)
    oid = cursor.adapters.types["timestamptz"].oid
    if zone != raw_connection.adapters.get_loader(oid, Format.TEXT).timezone:
        register_tzloader(zone, cursor)  # as Django's create_cursor does
    _keep_timestamps(cursor)
    raw_connection.__dict__[_KEPT_CURSOR] = (zone, cursor)
    return cursor


def _keep_timestamps(cursor: Any) -> None:
    """The cursor's timestamps (timestamptz, as text) read by the connection's own loader (Django's:
    pure Python, about 4 µs a value, most of a list row's reading), each text once per process and
    connection settings: a list's dates repeat from one request to the next."""
    from psycopg.pq import Format

    oid = cursor.adapters.types["timestamptz"].oid
    loader = cursor.adapters.get_loader(oid, Format.TEXT)
    if loader is not None and not issubclass(loader, _Kept):
        cursor.adapters.register_loader(oid, _kept(loader))


class _Kept:
    """Marks a loader made by `_kept`."""


_TIMESTAMPS: dict[tuple[Any, ...], Any] = {}  # (loader, its settings, text) -> value
_TIMESTAMPS_KEPT = 8192


@cache
def _kept(loader: type) -> type:
    """`loader` (a timestamptz text loader) answering each text from `_TIMESTAMPS` once read: the
    same value, for the value depends on the text and the connection's time zone and date style
    alone, which are part of the key."""

    class Kept(loader, _Kept):  # type: ignore[misc]  # a loader class found at run time
        def __init__(self, oid: int, context: Any = None):
            super().__init__(oid, context)
            info = self.connection.info if self.connection is not None else None
            self.settings = (
                loader,
                info.parameter_status("TimeZone") if info else None,
                info.parameter_status("DateStyle") if info else None,
            )

        def load(self, data: Any) -> Any:
            key = (self.settings, bytes(data))
            found = _TIMESTAMPS.get(key)
            if found is None:
                if len(_TIMESTAMPS) >= _TIMESTAMPS_KEPT:
                    _TIMESTAMPS.clear()
                found = _TIMESTAMPS[key] = super().load(data)
            return found

    return Kept


class _Text:
    __slots__ = ("query",)

    def __init__(self, query: bytes):
        self.query = query


def _prepared_cursor_class() -> type:
    if not _CURSOR:
        import psycopg

        class Prepared(psycopg.Cursor):
            def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Self:
                super().execute(query, params, prepare=True)
                # Django's query log reads the text from here (psycopg sets it only for a
                # client-side binding cursor).
                self._query = _Text(query.encode())  # type: ignore[assignment]  # read as .query only
                return self

        _CURSOR.append(Prepared)
    return _CURSOR[0]
