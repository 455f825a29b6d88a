"""A graph's content as one comparable value: counts plus a checksum of every node and edge.

Node and edge identities inside FalkorDB are storage details (an interrupted
ingest that is run again may number them differently), so the checksum is
over content: each node's labels and properties, each edge's type,
properties and endpoints (named by label and ``id`` property), and the
graph's indexes. Properties that are fresh on every write by design (a build
revision, a timestamp) can be left out by name.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from zehn.store.client import GraphClient

# Fresh on every build or ingest by design: a random revision id and the build time.
VOLATILE = frozenset({"revision", "built_at"})


@dataclass(frozen=True)
class GraphPrint:
    nodes: int
    edges: int
    checksum: str
    indexes: tuple[str, ...] = ()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _endpoint(labels: list[str], props: dict[str, Any]) -> str:
    if "id" in props:
        return _canonical([sorted(labels), props["id"]])
    return _canonical([sorted(labels), props])


def graph_print(client: GraphClient, graph: str, *, ignore: Iterable[str] = VOLATILE) -> GraphPrint:
    """Counts, a content checksum and the index list of ``graph``."""
    skip = frozenset(ignore)

    def kept(props: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in props.items() if k not in skip}

    nodes = client.read(graph, "MATCH (n) RETURN labels(n), properties(n)").rows
    edges = client.read(
        graph,
        "MATCH (a)-[r]->(b) RETURN type(r), properties(r), labels(a), properties(a), "
        "labels(b), properties(b)",
    ).rows
    node_lines = sorted(_canonical([sorted(labels), kept(props)]) for labels, props in nodes)
    edge_lines = sorted(
        _canonical([kind, kept(props), _endpoint(la, pa), _endpoint(lb, pb)])
        for kind, props, la, pa, lb, pb in edges
    )
    digest = hashlib.sha256()
    for line in (*node_lines, "--", *edge_lines):
        digest.update(line.encode("utf-8"))
        digest.update(b"\n")
    indexes = client.read(
        graph, "CALL db.indexes() YIELD label, properties RETURN label, properties"
    ).rows
    listed = tuple(sorted(f"{label}.{prop}" for label, props in indexes for prop in props or []))
    return GraphPrint(len(nodes), len(edges), digest.hexdigest(), listed)


def counts(client: GraphClient, graph: str) -> tuple[int, int]:
    """Node and edge counts: the cheap check to run after every hostile call."""
    row = client.read(
        graph, "MATCH (n) WITH count(n) AS nodes OPTIONAL MATCH ()-[r]->() RETURN nodes, count(r)"
    ).rows[0]
    return int(row[0]), int(row[1])
