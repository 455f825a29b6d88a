"""The one executor every FalkorDB call goes through.

It sets a timeout on every query, uses ``GRAPH.RO_QUERY`` for reads, refuses
parameter values the client's Cypher-header encoding cannot carry, and turns
``redis`` errors into ``ZehnError`` families. That is what keeps "server
down", "timed out" and "nothing found" three different outcomes.

A client of the managed server follows it across restarts: when the server it
talked to is gone and ``server.json`` names a live one (restarted on another
port, or by another process), the client re-attaches and retries once: a read
always, a write only when its connection was refused before anything was sent
(otherwise it is reported, so the caller decides).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import redis
from falkordb import FalkorDB
from falkordb.edge import Edge
from falkordb.helpers import stringify_param_value
from falkordb.node import Node

from zehn.config import Settings, redact_url
from zehn.errors import (
    AccessDenied,
    GraphExists,
    GraphNotFound,
    GraphUnavailable,
    InvalidGraphName,
    QueryError,
    QueryTimeout,
    StoreError,
)
from zehn.store import forks
from zehn.store.header import INT64_MAX, INT64_MIN, NotFast, fast_header
from zehn.store.server import ManagedServer, ServerInfo

GRAPH_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
WRITE_TIMEOUT_MS = 120_000
SOCKET_TIMEOUT_S = 300.0
_TIMEOUT_MARKERS = ("timed out", "timeout")
_EMPTY_KEY = "empty key"


@dataclass(frozen=True)
class Prepared:
    """A write with its parameters already checked and written into its CYPHER header
    (``prepare``): a caller can do that work while an earlier write is on the server."""

    text: str


def prepare(cypher: str, params: Mapping[str, Any] | None = None) -> Prepared:
    """``cypher`` with ``params`` checked and encoded (``QueryError`` before anything is sent)."""
    return Prepared(params_header(params or {}) + cypher)


@dataclass(frozen=True)
class QueryResult:
    """Rows of plain Python values plus what the query cost and changed."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    elapsed_ms: float
    stats: Mapping[str, float] = field(default_factory=dict)

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def scalar(self) -> Any:
        """The single value of a one-row, one-column result (None when empty)."""
        return self.rows[0][0] if self.rows else None


def validate_graph_name(name: str) -> str:
    if not GRAPH_NAME.match(name or ""):
        raise InvalidGraphName(name, "use letters, digits, '_', '.', '-' (at most 128)")
    return name


class GraphClient:
    """A connection to one FalkorDB server: managed under ``ZEHN_HOME`` or ``FALKORDB_URL``."""

    def __init__(self, db: FalkorDB, *, settings: Settings, server: ServerInfo | None) -> None:
        self._db = db
        self.settings = settings
        self.server = server

    @classmethod
    def connect(cls, settings: Settings) -> GraphClient:
        """Connect to ``FALKORDB_URL``, or start/reuse the managed local server."""
        server: ServerInfo | None = None
        with _translated("connect"):
            if settings.falkordb_url:
                db = FalkorDB.from_url(settings.falkordb_url, socket_timeout=SOCKET_TIMEOUT_S)
            else:
                server = ManagedServer(settings.home, port=settings.server_port).ensure()
                db = _managed_db(server)
            db.connection.ping()
        return cls(db, settings=settings, server=server)

    @property
    def location(self) -> str:
        """Where the data lives, for health reports (password never shown)."""
        if self.server is not None:
            return f"{self.server.url} (managed, data in {self.server.data_dir})"
        return redact_url(self.settings.falkordb_url or "")

    # --- queries ------------------------------------------------------------

    def read(
        self,
        graph: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_ms: int | None = None,
    ) -> QueryResult:
        """Run a read-only query (``GRAPH.RO_QUERY``); the server refuses a write in it."""
        return self._execute(graph, cypher, params, timeout_ms, read_only=True)

    def write(
        self,
        graph: str,
        cypher: str | Prepared,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_ms: int | None = WRITE_TIMEOUT_MS,
    ) -> QueryResult:
        """Run a write query (or one ``prepare`` made); each call is atomic on the server."""
        return self._execute(graph, cypher, params, timeout_ms, read_only=False)

    def _execute(
        self,
        graph: str,
        cypher: str | Prepared,
        params: Mapping[str, Any] | None,
        timeout_ms: int | None,
        *,
        read_only: bool,
    ) -> QueryResult:
        validate_graph_name(graph)
        if isinstance(cypher, Prepared):
            if params:
                raise QueryError("a prepared query carries its parameters: pass none")
            query = cypher.text
        else:
            query = params_header(params or {}) + cypher
        timeout = timeout_ms if timeout_ms is not None else self.settings.query_timeout_ms
        started = time.perf_counter()
        try:
            raw = self._send(graph, query, timeout, read_only=read_only)
        except GraphUnavailable as e:
            if not self._reattach() or not (read_only or _never_sent(e)):
                raise
            raw = self._send(graph, query, timeout, read_only=read_only)
        elapsed = (time.perf_counter() - started) * 1000
        columns = tuple(str(h[1]) if isinstance(h, list | tuple) else str(h) for h in raw.header)
        rows = tuple(tuple(_plain(v) for v in row) for row in raw.result_set)
        return QueryResult(columns, rows, elapsed, _stats(raw))

    def _send(self, graph: str, query: str, timeout: int, *, read_only: bool) -> Any:
        """``query`` already carries its parameters (``params_header``)."""
        handle = self._db.select_graph(graph)
        with _translated(f"query on graph {graph!r}", graph=graph, timeout_ms=timeout):
            if read_only:
                return handle.ro_query(query, None, timeout=timeout)
            return handle.query(query, None, timeout=timeout)

    def _reattach(self) -> bool:
        """Follow the managed server to where it now runs; True if it moved and answers.

        Only a managed server is followed (a ``FALKORDB_URL`` names one place).
        Nothing is started here: a server that is down stays down until someone
        starts it (``zehn server start``, or any new connection).
        """
        if self.server is None:
            return False
        current = ManagedServer(self.settings.home).status()
        if current is None or (current.pid, current.port) == (self.server.pid, self.server.port):
            return False
        with _translated("re-attach to the restarted server"):
            db = _managed_db(current)
            db.connection.ping()
        old, self._db, self.server = self._db, db, current
        with contextlib.suppress(Exception):
            old.connection.close()
        return True

    # --- named graphs -----------------------------------------------------------

    def list_graphs(self) -> list[str]:
        try:
            return self._list_graphs()
        except GraphUnavailable:
            if not self._reattach():
                raise
            return self._list_graphs()

    def _list_graphs(self) -> list[str]:
        with _translated("list graphs"):
            return sorted(str(name) for name in self._db.list_graphs())

    def graph_exists(self, graph: str) -> bool:
        return validate_graph_name(graph) in self.list_graphs()

    def create_graph(self, graph: str) -> None:
        """Create an empty named graph (FalkorDB creates a graph on its first write)."""
        if self.graph_exists(graph):
            raise GraphExists(graph)
        self.write(graph, "RETURN 1")

    def copy_graph(self, source: str, target: str) -> None:
        if not self.graph_exists(source):
            raise GraphNotFound(source)
        if self.graph_exists(validate_graph_name(target)):
            raise GraphExists(target)
        with (
            _translated(f"copy graph {source!r}", graph=source),
            forks.no_fork_beside(self._db.connection),  # FalkorDB 4.16.3 hangs beside a fork
        ):
            self._db.select_graph(source).copy(target)

    def replace_graph(self, source: str, target: str) -> None:
        """Atomically make ``source`` the new ``target`` (RENAME), dropping the old target.

        Readers see either the old graph or the new one, never a half-built
        one. A cluster refuses RENAME across slots; then copy and delete.
        """
        validate_graph_name(target)
        if not self.graph_exists(source):
            raise GraphNotFound(source)
        try:
            with _translated(f"replace graph {target!r}", graph=source):
                self._db.connection.execute_command("RENAME", source, target)
        except QueryError as e:
            if "CROSSSLOT" not in str(e).upper():
                raise
            if self.graph_exists(target):
                self.delete_graph(target)
            self.copy_graph(source, target)
            self.delete_graph(source)

    def delete_graph(self, graph: str) -> None:
        if not self.graph_exists(graph):
            raise GraphNotFound(graph)
        with _translated(f"delete graph {graph!r}", graph=graph):
            self._db.select_graph(graph).delete()

    # --- server -------------------------------------------------------------

    def server_versions(self) -> dict[str, str]:
        """Redis and FalkorDB module versions as the server reports them."""
        with _translated("read server info"):
            info = self._db.connection.info("server")
            modules = self._db.connection.execute_command("MODULE", "LIST")
        versions = {"redis": str(info.get("redis_version", "?"))}
        for module in modules:
            entry = (
                module
                if isinstance(module, dict)
                else dict(zip(module[::2], module[1::2], strict=True))
            )
            if entry.get("name") == "graph":
                versions["falkordb"] = _module_version(int(entry.get("ver", 0)))
        return versions

    def server_command(self, *args: str) -> Any:
        """One administrative command (``ACL SETUSER`` …), errors translated like queries."""
        with _translated(f"run {' '.join(args[:2])}"):
            return self._db.connection.execute_command(*args)

    def address(self) -> tuple[str, int]:
        """Host and port of the server this client talks to."""
        kwargs = self._db.connection.connection_pool.connection_kwargs
        return str(kwargs.get("host", "127.0.0.1")), int(kwargs.get("port", 6379))

    def close(self) -> None:
        """Release the client's connections (its pool is emptied; a later call reconnects)."""
        self._db.connection.close()

    def __enter__(self) -> GraphClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _module_version(encoded: int) -> str:
    """FalkorDB reports 4.16.3 as 41603."""
    return f"{encoded // 10000}.{encoded // 100 % 100}.{encoded % 100}"


def _never_sent(error: GraphUnavailable) -> bool:
    """The connection was refused before the command left: repeating a write is safe."""
    cause = error.__cause__
    return isinstance(cause, redis.ConnectionError) and "connecting to" in str(cause)


def _managed_db(server: ServerInfo) -> FalkorDB:
    return FalkorDB(host=server.host, port=server.port, socket_timeout=SOCKET_TIMEOUT_S)


def checked_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters the CYPHER header can carry exactly, or ``QueryError`` before anything is sent.

    The header is text: names go between backticks and strings between double
    quotes with ``\\`` and ``"`` escaped. What that cannot carry is refused:
    NUL, unpaired surrogates (not UTF-8), empty names or names with a backtick,
    integers outside 64 bits (the server would clamp them), NaN and infinities,
    and types with no Cypher literal.
    """
    if not isinstance(params, Mapping):
        raise QueryError(f"parameters must be a mapping, not {type(params).__name__}")
    return {_key(key, "parameter"): _checked(value, str(key)) for key, value in params.items()}


def params_header(params: Mapping[str, Any]) -> str:
    """The CYPHER header falkordb's client writes for ``checked_params(params)`` ("" for
    none), or ``QueryError`` before anything is sent. Ordinary values are checked and
    written in one pass (``zehn.store.header``); anything else is checked value by value,
    so the error names the parameter, and written by falkordb's own encoder."""
    if isinstance(params, Mapping):
        if not params:
            return ""
        with contextlib.suppress(NotFast):
            return fast_header(params)
    safe = checked_params(params)
    if not safe:
        return ""
    return "CYPHER " + "".join(f"`{k}`={stringify_param_value(v)} " for k, v in safe.items())


def _key(key: object, what: str | tuple[object, ...]) -> str:
    if not isinstance(key, str) or not key or "`" in key or not _sendable(key):
        where = what if isinstance(what, str) else f"parameter {_path(what)!r}"
        raise QueryError(f"{where} has an unusable name {key!r}")
    return key


def _sendable(text: str) -> bool:
    """No NUL, and encodable as UTF-8 (no unpaired surrogates)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _checked(value: Any, path: str) -> Any:
    """Refuse values the CYPHER params header cannot carry (see :func:`checked_params`)."""
    return _check(value, (path,))


def _path(where: tuple[object, ...]) -> str:
    """``rows[3].text`` from ("rows", 3, "text"): built only for an error message."""
    out = str(where[0])
    for part in where[1:]:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _check(value: Any, where: tuple[object, ...]) -> Any:
    # the path is a tuple, formatted only when a value is refused: building a string per
    # element cost a third of the time of writing an extraction batch
    if isinstance(value, str):
        if "\x00" in value:
            raise QueryError(
                f"parameter {_path(where)!r} contains a NUL character, which cannot be sent"
            )
        if not _sendable(value):
            raise QueryError(
                f"parameter {_path(where)!r} is not valid Unicode (unpaired surrogate)"
            )
        return value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if not INT64_MIN <= value <= INT64_MAX:
            raise QueryError(f"parameter {_path(where)!r} does not fit in a 64-bit integer")
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise QueryError(f"parameter {_path(where)!r} is not a finite number")
        return value
    if isinstance(value, Mapping):
        return {_key(key, where): _check(item, (*where, key)) for key, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return [_check(item, (*where, i)) for i, item in enumerate(value)]
    raise QueryError(f"parameter {_path(where)!r} has unsupported type {type(value).__name__}")


def _plain(value: Any) -> Any:
    """Nodes and edges become dicts of their properties; lists recurse."""
    if isinstance(value, Node):
        return {**value.properties, "_labels": list(value.labels or [])}
    if isinstance(value, Edge):
        return {**value.properties, "_type": value.relation}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _stats(raw: Any) -> dict[str, float]:
    names = ("nodes_created", "nodes_deleted", "relationships_created", "relationships_deleted")
    return {name: float(getattr(raw, name, 0) or 0) for name in names}


@dataclass(frozen=True)
class _Call:
    """What the client was doing when redis failed: the translated message names it."""

    action: str
    graph: str | None = None
    timeout_ms: int | None = None


class _Rule(NamedTuple):
    """One row of the redis boundary: errors of ``types`` for which ``when`` holds (given the
    lower-cased message and the call; always, when None) become what ``make`` builds."""

    types: type[Exception] | tuple[type[Exception], ...]
    make: Callable[[Exception, _Call], StoreError]
    when: Callable[[str, _Call], bool] | None = None


def _timed_out(message: str, call: _Call) -> bool:
    return any(marker in message for marker in _TIMEOUT_MARKERS)


def _no_such_graph(message: str, call: _Call) -> bool:
    return call.graph is not None and _EMPTY_KEY in message


# The redis boundary, in order (subclasses before their bases): the first row that matches
# translates the error; an error no row matches passes through untouched.
REDIS_ERRORS: tuple[_Rule, ...] = (
    _Rule(
        redis.AuthenticationError,
        lambda e, c: GraphUnavailable(f"FalkorDB refused the credentials: {e}"),
    ),
    _Rule(
        redis.BusyLoadingError,
        lambda e, c: GraphUnavailable("FalkorDB is still loading its data; try again shortly"),
    ),
    _Rule(
        redis.TimeoutError,
        lambda e, c: QueryTimeout(
            f"{c.action}: no answer from FalkorDB in time", c.timeout_ms or 0
        ),
    ),
    _Rule(
        (redis.ConnectionError, ConnectionError, OSError),
        lambda e, c: GraphUnavailable(f"cannot reach FalkorDB for {c.action}: {e}"),
    ),
    _Rule(
        redis.exceptions.NoPermissionError,
        lambda e, c: AccessDenied(f"{c.action}: the server's ACL refuses this user: {e}"),
    ),
    _Rule(
        redis.ResponseError,
        lambda e, c: QueryTimeout(
            f"{c.action} timed out after {c.timeout_ms} ms", c.timeout_ms or 0
        ),
        _timed_out,
    ),
    _Rule(redis.ResponseError, lambda e, c: GraphNotFound(str(c.graph)), _no_such_graph),
    _Rule(redis.ResponseError, lambda e, c: QueryError(f"{c.action} failed: {e}")),
    _Rule(redis.RedisError, lambda e, c: StoreError(f"{c.action} failed: {e}")),
)


def store_error(error: Exception, call: _Call) -> StoreError | None:
    """The ``StoreError`` the first matching row of ``REDIS_ERRORS`` makes of ``error``, or
    None when no row matches (the error is not the store's to translate)."""
    message = str(error).lower()
    for rule in REDIS_ERRORS:
        if isinstance(error, rule.types) and (rule.when is None or rule.when(message, call)):
            return rule.make(error, call)
    return None


@contextmanager
def _translated(
    action: str, *, graph: str | None = None, timeout_ms: int | None = None
) -> Iterator[None]:
    """The boundary where redis errors become ZehnError families (``REDIS_ERRORS``)."""
    try:
        yield
    except StoreError:
        raise
    except Exception as e:
        translated = store_error(e, _Call(action, graph, timeout_ms))
        if translated is None:
            raise
        raise translated from e
