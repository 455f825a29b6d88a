"""One root exception, ``ZehnError``, with families that carry structured data.

Third-party errors (redis, openai, parsers) are translated into these at the
boundary where they happen, re-raised ``from`` the original, so callers only
ever catch ``ZehnError`` and its families.
"""

from __future__ import annotations

from pathlib import Path


class ZehnError(Exception):
    """Root of every error the workbench raises on purpose."""


class ConfigError(ZehnError):
    """A setting (environment variable or argument) has an invalid value."""

    def __init__(self, setting: str, reason: str) -> None:
        self.setting = setting
        self.reason = reason
        super().__init__(f"{setting}: {reason}")


# --- storage -----------------------------------------------------------------


class StoreError(ZehnError):
    """Anything that went wrong talking to FalkorDB."""


class ServerStartError(StoreError):
    """The managed FalkorDB server could not be started."""


class GraphUnavailable(StoreError):
    """The FalkorDB server cannot be reached (down, refused, connection lost)."""


class QueryTimeout(StoreError):
    """A query ran past its time limit; the result is unknown, not empty."""

    def __init__(self, message: str, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        super().__init__(message)


class QueryError(StoreError):
    """FalkorDB rejected a query (syntax, type, write through a read-only call)."""


class AccessDenied(QueryError):
    """The server's ACL refuses this user the command (e.g. a write as a read-only user)."""


class GraphNotFound(StoreError):
    """A named graph does not exist."""

    def __init__(self, graph: str) -> None:
        self.graph = graph
        super().__init__(f"graph {graph!r} does not exist")


class GraphExists(StoreError):
    """A named graph already exists where a new one was asked for."""

    def __init__(self, graph: str) -> None:
        self.graph = graph
        super().__init__(f"graph {graph!r} already exists")


class InvalidGraphName(StoreError):
    """A graph name that is empty, too long or has characters we do not allow."""

    def __init__(self, graph: str, reason: str) -> None:
        self.graph = graph
        super().__init__(f"invalid graph name {graph!r}: {reason}")


class BuildInProgress(StoreError):
    """Another build holds this graph's build lock: one build per graph at a time.

    Names the running build (graph, since when, pid and host) so the person who
    started the second one knows whom they are waiting for.
    """

    def __init__(self, graph: str, pid: int, host: str, since: str) -> None:
        self.graph = graph
        self.pid = pid
        self.host = host
        self.since = since
        super().__init__(
            f"graph {graph!r} is being built by another build (pid {pid} on {host}, "
            f"since {since}); wait for it to finish (zehn ingest waits by default) and "
            "build again"
        )


# --- corpus ------------------------------------------------------------------


class CorpusError(ZehnError):
    """A source could not be turned into documents."""


class SourceError(CorpusError):
    """One source file is unreadable, malformed, empty or of an unknown type.

    Carries the path and the reason so a report can name the input.
    """

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class UnsupportedSource(SourceError):
    """No loader accepts this file."""


class MalformedSource(SourceError):
    """A loader recognised the format but the content is broken."""


class EmptySource(SourceError):
    """The file holds no text to ingest."""


class EncodingError(SourceError):
    """The file is not valid UTF-8 (or the charset it declares)."""


# --- extraction --------------------------------------------------------------


class ExtractionError(ZehnError):
    """An extraction strategy could not run or produced unusable output."""


class CatalogError(ExtractionError):
    """The entity catalog is malformed or has duplicate entries."""

    def __init__(self, source: str, reason: str) -> None:
        self.source = source
        self.reason = reason
        super().__init__(f"catalog {source}: {reason}")


class UnknownStrategy(ExtractionError):
    """A strategy name that is not registered."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name = name
        super().__init__(f"unknown strategy {name!r}; choose one of {', '.join(known)}")


# --- models, retrieval, policy -------------------------------------------------


class ModelError(ZehnError):
    """A model (offline or remote) could not produce a usable next step."""


class ModelEndpointError(ExtractionError, ModelError):
    """The LLM endpoint is not configured, unreachable, too slow, or answered nonsense."""


class ModelOutputError(ModelError):
    """The model answered, but not in a shape we accept (malformed tool-call JSON, …)."""


class PolicyError(ZehnError):
    """A traversal policy file is missing or malformed."""


class RetrievalError(ZehnError):
    """A named-query call was refused before reaching the database."""


class UnknownQuery(RetrievalError):
    """A query name that is not on the whitelist."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name = name
        super().__init__(f"query {name!r} is not on the whitelist ({', '.join(known)})")


class InvalidParameters(RetrievalError):
    """Parameters that do not match a named query's specification."""


class UnknownPredicate(RetrievalError):
    """A predicate the graph does not contain: never an empty result."""

    def __init__(self, predicate: str, graph: str, known: tuple[str, ...]) -> None:
        self.predicate = predicate
        super().__init__(
            f"graph {graph!r} has no {predicate!r} edges (it has: {', '.join(known) or 'none'})"
        )
