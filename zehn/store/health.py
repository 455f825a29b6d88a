"""Graph health: is the server reachable, which version, what each graph holds.

A health check never raises for an unreachable server: "down" is a fact to
report, with its reason, distinct from "up with zero graphs".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

from dataclasses import dataclass, field
from typing import Any

from zehn.config import Settings, redact_url
from zehn.errors import GraphUnavailable, ZehnError
from zehn.store.client import GraphClient
from zehn.store.schema import RELATES


@dataclass(frozen=True)
class GraphStats:
    """Node counts per label and edge counts per type (RELATES split by rel_type)."""

    name: str
    nodes: dict[str, int]
    edges: dict[str, int]
    predicates: dict[str, int] = field(default_factory=dict)
    documents_by_type: dict[str, int] = field(default_factory=dict)
    corpus: str | None = None
    strategy: str | None = None
    complete: bool | None = None  # None: not built by the extraction pipeline

    @property
    def node_count(self) -> int:
        return sum(self.nodes.values())

    @property
    def edge_count(self) -> int:
        return sum(self.edges.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "node_count": self.node_count,
            "edge_count": self.edge_count,
            "nodes": self.nodes,
            "edges": self.edges,
            "predicates": self.predicates,
            "documents_by_type": self.documents_by_type,
            "corpus": self.corpus,
            "strategy": self.strategy,
            "complete": self.complete,
        }


@dataclass(frozen=True)
class Health:
    """One health reading of the graph store."""

    reachable: bool
    location: str
    versions: dict[str, str] = field(default_factory=dict)
    graphs: tuple[GraphStats, ...] = ()
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "reachable": self.reachable,
            "location": self.location,
            "versions": self.versions,
            "graphs": [g.to_dict() for g in self.graphs],
            "error": self.error,
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per graph: documents, sentences, entities, edges."""
        import pandas as pd  # imported here: it costs half a second at start-up

        rows = [
            {
                "graph": g.name,
                "corpus": g.corpus or "",
                "strategy": g.strategy or "",
                "complete": {True: "yes", False: "NO", None: ""}[g.complete],
                "documents": g.nodes.get("Document", 0),
                "sentences": g.nodes.get("Sentence", 0),
                "entities": g.nodes.get("Entity", 0),
                "relates_edges": g.edges.get(RELATES, 0),
                "nodes": g.node_count,
                "edges": g.edge_count,
            }
            for g in self.graphs
        ]
        columns = [
            "graph",
            "corpus",
            "strategy",
            "complete",
            "documents",
            "sentences",
            "entities",
            "relates_edges",
            "nodes",
            "edges",
        ]
        return pd.DataFrame(rows, columns=columns)


def graph_stats(client: GraphClient, graph: str) -> GraphStats:
    """Counts for one graph, label by label (FalkorDB answers label counts from its index)."""
    labels = [str(row[0]) for row in client.read(graph, "CALL db.labels()").rows]
    types = [str(row[0]) for row in client.read(graph, "CALL db.relationshipTypes()").rows]
    nodes = {
        label: int(client.read(graph, f"MATCH (n:`{label}`) RETURN count(n)").scalar() or 0)
        for label in labels
    }
    edges = {
        rel: int(client.read(graph, f"MATCH ()-[r:`{rel}`]->() RETURN count(r)").scalar() or 0)
        for rel in types
    }
    predicates: dict[str, int] = {}
    if RELATES in types:
        rows = client.read(
            graph, "MATCH ()-[r:RELATES]->() RETURN r.rel_type, count(r) ORDER BY r.rel_type"
        ).rows
        predicates = {str(p): int(n) for p, n in rows}
    by_type: dict[str, int] = {}
    if "Document" in labels:
        rows = client.read(
            graph, "MATCH (d:Document) RETURN d.source_type, count(d) ORDER BY d.source_type"
        ).rows
        by_type = {str(t): int(n) for t, n in rows}
    corpus = strategy = None
    complete: bool | None = None
    if "Meta" in labels:
        meta = client.read(graph, "MATCH (m:Meta) RETURN m.corpus, m.strategy, m.complete").rows
        if meta:
            corpus, strategy, complete = str(meta[0][0]), str(meta[0][1]), bool(meta[0][2])
    if graph.endswith("__staging"):
        complete = False  # a build in progress, or one that died: never a usable graph
    return GraphStats(graph, nodes, edges, predicates, by_type, corpus, strategy, complete)


def check_health(settings: Settings, client: GraphClient | None = None) -> Health:
    """Read the store's health; an unreachable server is reported, not raised."""
    location = (
        redact_url(settings.falkordb_url)
        if settings.falkordb_url
        else f"managed server under {settings.home}"
    )
    owned: GraphClient | None = None
    try:
        if client is None:
            client = owned = GraphClient.connect(settings)
        location = client.location
        versions = client.server_versions()
        graphs = tuple(graph_stats(client, name) for name in client.list_graphs())
    except GraphUnavailable as e:
        return Health(reachable=False, location=location, error=f"{type(e).__name__}: {e}")
    except ZehnError as e:  # reachable, but a graph could not be counted (timeout, …)
        return Health(reachable=True, location=location, error=f"{type(e).__name__}: {e}")
    finally:
        if owned is not None:  # a client made here is closed here
            owned.close()
    return Health(reachable=True, location=location, versions=versions, graphs=graphs)
