"""The observatory: two health facts, each failing on its own.

``api_health`` asks the model endpoint whether it answers; ``graph_health``
asks FalkorDB what it holds and how much of the chosen graph's edges a
source sentence backs. One down never hides the other: a dead server does not
make the API look broken, and "offline model in use" is a fact, not a fault.

The graph counts are a maintenance read, not the question path: they run
read-only Cypher here (``GRAPH.RO_QUERY``) instead of widening the named-query
whitelist the model sees.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Any

from zehn.config import Settings
from zehn.errors import GraphUnavailable, ZehnError
from zehn.evidence.grade import SUPPORTED, Evidence, Grader, Negation, supersede
from zehn.queries.named import QUERIES
from zehn.reading.model import Entity
from zehn.store.client import GraphClient
from zehn.store.health import Health, check_health
from zehn.store.schema import RELATES

OFFLINE_NOTE = "offline model in use (answers do not call the API)"
_MAX_BODY = 1_000_000

_EDGES_WITHOUT_SENTENCE = (
    "MATCH ()-[r:RELATES]->() OPTIONAL MATCH (s:Sentence {id: r.sentence_id}) "
    "WITH r, count(s) AS found WHERE found = 0 RETURN count(r)"
)
_EDGE_EVIDENCE = (
    "MATCH (a:Entity)-[r:RELATES]->(b:Entity) MATCH (s:Sentence {id: r.sentence_id}) "
    "OPTIONAL MATCH (d:Document {id: s.doc_id}) "
    "RETURN r.key AS key, a.id AS source, r.rel_type AS rel_type, b.id AS target, "
    "r.negated AS negated, r.hedged AS hedged, r.fact AS fact, "
    "s.id AS sentence_id, s.text AS text, s.start AS start, "
    "coalesce(d.id, s.doc_id) AS document, d.title AS title, d.source_type AS source_type, "
    "coalesce(d.updated_at, d.created_at) AS date"
)


@dataclass(frozen=True)
class ApiHealth:
    """The model endpoint: configured?, reachable?, how fast; and which model answers."""

    model_in_use: str
    configured: bool
    base_url: str | None = None
    model: str | None = None
    missing: tuple[str, ...] = ()
    reachable: bool | None = None  # None: not checked (nothing configured)
    status: int | None = None
    latency_ms: float | None = None
    models: tuple[str, ...] = ()
    error: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """No failure to show: the endpoint answers 2xx, or it is not needed and not set."""
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "model_in_use": self.model_in_use,
            "configured": self.configured,
            "base_url": self.base_url,
            "model": self.model,
            "missing": list(self.missing),
            "reachable": self.reachable,
            "status": self.status,
            "latency_ms": None if self.latency_ms is None else round(self.latency_ms, 1),
            "models": list(self.models),
            "error": self.error,
            "notes": list(self.notes),
            "ok": self.ok,
        }


@dataclass(frozen=True)
class GraphHealth(Health):
    """The store's ``Health`` (``error``: the server as a whole) and the chosen graph's
    evidence quality."""

    graph: str | None = None
    relates_edges: int | None = None
    edges_without_sentence: int | None = None
    graded_edges: int | None = None
    supported_edges: int | None = None
    labels: dict[str, int] = field(default_factory=dict)
    graph_error: str | None = None  # the chosen graph only (missing, timed out, …)

    @property
    def supported_share(self) -> float | None:
        """Share of graded edges (those with a sentence) the grader calls source-supported."""
        if not self.graded_edges or self.supported_edges is None:
            return None
        return self.supported_edges / self.graded_edges

    @property
    def ok(self) -> bool:
        return self.reachable and self.error is None and self.graph_error is None

    def to_dict(self) -> dict[str, Any]:
        share = self.supported_share
        return {
            **super().to_dict(),
            "graph": self.graph,
            "relates_edges": self.relates_edges,
            "edges_without_sentence": self.edges_without_sentence,
            "graded_edges": self.graded_edges,
            "supported_edges": self.supported_edges,
            "supported_share": None if share is None else round(share, 4),
            "labels": self.labels,
            "graph_error": self.graph_error,
            "ok": self.ok,
        }


def api_health(settings: Settings, timeout_s: float = 5) -> ApiHealth:
    """GET ``{base_url}/models`` once; every failure becomes ``error`` text, never an exception."""
    needed = {
        "OPENAI_BASE_URL": settings.openai_base_url,
        "ZEHN_OPENAI_MODEL": settings.openai_model,
    }
    missing = tuple(name for name, value in needed.items() if not value)
    health = ApiHealth(
        model_in_use=settings.model,
        configured=not missing,
        base_url=settings.openai_base_url,
        model=settings.openai_model,
        missing=missing,
        notes=(OFFLINE_NOTE,) if settings.model == "offline" else (),
    )
    if missing:
        if settings.model == "offline":
            return health  # not needed, not set: a fact, not a failure
        return replace(
            health, error=f"the {settings.model} model is selected but {', '.join(missing)} unset"
        )
    url = str(settings.openai_base_url).rstrip("/") + "/models"
    if not url.startswith(("http://", "https://")):
        return replace(
            health,
            reachable=False,
            error=f"OPENAI_BASE_URL must be an http(s) URL, not {settings.openai_base_url!r}",
        )
    return _probe(health, url, settings, timeout_s)


def _probe(health: ApiHealth, url: str, settings: Settings, timeout_s: float) -> ApiHealth:
    """Status, latency and listed models of one GET; a failure is a fact with its reason."""
    headers = {"Accept": "application/json"}
    if settings.openai_api_key:  # sent, never shown
        headers["Authorization"] = f"Bearer {settings.openai_api_key}"
    request = urllib.request.Request(url, headers=headers, method="GET")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            status, body = int(response.status), response.read(_MAX_BODY)
    except urllib.error.HTTPError as e:
        return replace(
            health,
            reachable=True,
            status=e.code,
            latency_ms=(time.perf_counter() - started) * 1000,
            error=f"GET {url} answered HTTP {e.code}: {e.reason}",
        )
    except (urllib.error.URLError, TimeoutError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        return replace(health, reachable=False, error=f"GET {url} failed: {reason}")
    latency = (time.perf_counter() - started) * 1000
    models = _model_ids(body)
    error = None
    if models and settings.openai_model not in models:
        error = (
            f"the endpoint does not list model {settings.openai_model!r} "
            f"(it lists: {', '.join(models[:10])})"
        )
    return replace(
        health, reachable=True, status=status, latency_ms=latency, models=models, error=error
    )


def _model_ids(body: bytes) -> tuple[str, ...]:
    """Model ids of an OpenAI ``/models`` body; anything else lists none."""
    try:
        data = json.loads(body).get("data")
    except (ValueError, AttributeError):
        return ()
    if not isinstance(data, list):
        return ()
    return tuple(str(m["id"]) for m in data if isinstance(m, dict) and "id" in m)


def graph_health(
    settings: Settings, graph: str | None, client: GraphClient | None = None
) -> GraphHealth:
    """The store's health, and for ``graph``: edges without a sentence and the supported share."""
    health = check_health(settings, client)
    base = GraphHealth(**{f.name: getattr(health, f.name) for f in fields(health)}, graph=graph)
    if graph is None or not health.reachable or health.error is not None:
        return base
    if graph not in {g.name for g in health.graphs}:
        return replace(base, graph_error=f"graph {graph!r} does not exist")
    try:
        if client is not None:
            return replace(base, **evidence_quality(client, graph))
        with GraphClient.connect(settings) as own:  # a client made here is closed here
            return replace(base, **evidence_quality(own, graph))
    except GraphUnavailable as e:
        return replace(base, reachable=False, error=f"{type(e).__name__}: {e}")
    except ZehnError as e:
        return replace(base, graph_error=f"{type(e).__name__}: {e}")


def evidence_quality(client: GraphClient, graph: str) -> dict[str, Any]:
    """Grade every edge of ``graph`` against its own sentence, as the engine grades a hop.

    A later negation supersedes earlier support here too, so the share matches
    what an investigation would label.
    """
    total = int(client.read(graph, f"MATCH ()-[r:{RELATES}]->() RETURN count(r)").scalar() or 0)
    orphans = int(client.read(graph, _EDGES_WITHOUT_SENTENCE).scalar() or 0)
    rows = client.read(graph, _EDGE_EVIDENCE).records()
    entities = graph_entities(client, graph)
    evidence = [Evidence.from_row(r) for r in rows]
    negations = [Negation.from_evidence(e) for e in evidence if e.negated]
    grader = Grader(entities)
    labels = Counter(supersede(grader.grade(e), negations).label for e in evidence)
    return {
        "relates_edges": total,
        "edges_without_sentence": orphans,
        "graded_edges": len(evidence),
        "supported_edges": labels.get(SUPPORTED, 0),
        "labels": dict(sorted(labels.items())),
    }


def graph_entities(client: GraphClient, graph: str) -> list[Entity]:
    """Every entity of a graph, as the grader needs them (names, kinds, aliases, origin)."""
    rows = client.read(graph, QUERIES["all_entities"].cypher).records()
    return [Entity.from_row(row) for row in rows]
