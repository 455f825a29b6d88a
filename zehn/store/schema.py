"""Graph schema: labels, edge types and the indexes every corpus graph gets.

See docs/architecture.md. Semantic edges are all physically ``RELATES`` with the
predicate in ``rel_type`` (as graphrag-sdk stores them).
"""

from __future__ import annotations

from zehn.errors import QueryError
from zehn.store.client import GraphClient

DOCUMENT = "Document"
CHUNK = "Chunk"
SENTENCE = "Sentence"
ENTITY = "Entity"
RELATES = "RELATES"

NODE_INDEXES: tuple[tuple[str, str], ...] = (
    (DOCUMENT, "id"),
    (CHUNK, "id"),
    (CHUNK, "doc_id"),
    (SENTENCE, "id"),
    (SENTENCE, "doc_id"),
    (ENTITY, "id"),
    (ENTITY, "name"),
    # the name index (zehn.reading.names.name_keys): arrays are indexed by their elements
    (ENTITY, "name_keys"),
    (ENTITY, "loose_keys"),
    (ENTITY, "lname"),
    (ENTITY, "head"),
    (ENTITY, "code_lengths"),
    (ENTITY, "namesake"),
)


EDGE_INDEXES: tuple[tuple[str, str], ...] = (
    (RELATES, "key"),  # evidence lookups by edge key: without it every lookup scans all edges
    (RELATES, "sentence_id"),
)


# Full-text index on sentence text for ``search_sentences``. FalkorDB's ``chinese`` language
# segments Chinese words ("注册" finds "… 注册索引信息") and still matches English words
# (without stemming: the query expands inflections itself, zehn.queries.terms).
FULLTEXT = (SENTENCE, "text")
_CREATE_FULLTEXT = (
    "CALL db.idx.fulltext.createNodeIndex({label: 'Sentence', language: 'chinese'}, 'text')"
)


def ensure_schema(client: GraphClient, graph: str) -> None:
    """Create the range and full-text indexes lookups rely on; existing ones are left alone."""
    existing = _existing_indexes(client, graph)
    if FULLTEXT not in existing:
        client.write(graph, _CREATE_FULLTEXT)
    wanted = [(rel, prop, f"()-[x:{rel}]-()") for rel, prop in EDGE_INDEXES] + [
        (label, prop, f"(x:{label})") for label, prop in NODE_INDEXES
    ]
    for name, prop, pattern in wanted:
        if (name, prop) in existing:
            continue
        try:
            client.write(graph, f"CREATE INDEX FOR {pattern} ON (x.{prop})")
        except QueryError as e:
            if "already indexed" not in str(e):
                raise


def _existing_indexes(client: GraphClient, graph: str) -> set[tuple[str, str]]:
    if not client.graph_exists(graph):
        return set()
    result = client.read(
        graph, "CALL db.indexes() YIELD label, properties RETURN label, properties"
    )
    return {(str(label), str(prop)) for label, props in result.rows for prop in props or []}
