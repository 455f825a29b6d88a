"""Write what a strategy found into a build's staging graph: entities (merged by id), then
MENTIONED_IN edges, then RELATES edges, in batched UNWIND writes.

``write_extraction`` writes a whole ``Extraction``; ``write_stream`` writes a sentence
strategy's runs as they are read (``zehn.extract.stream``): the entities first, then each
run's mentions and edges, so the server writes one run while the next is read. Either way
the rows of each kind reach the graph in document order, and a batch is made and encoded
while the one before it is on the server (``OrderedWriter``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from zehn.extract.base import Extraction
from zehn.extract.name_index import finish_name_index
from zehn.extract.stream import ExtractionStream, Run
from zehn.extract.writer import OrderedWriter
from zehn.reading.model import Edge, Entity, Mention
from zehn.reading.names.name_keys import name_fields
from zehn.store.client import GraphClient, Prepared, params_header, prepare
from zehn.store.revision import bump_revision

_BATCH = 5_000  # rows per UNWIND write of entities, mentions and edges
_ENTITIES = "UNWIND $rows AS r MERGE (e:Entity {id: r.id}) SET e += r"
_MENTIONS = (
    "UNWIND $rows AS r MATCH (s:Sentence {id: r.sentence_id}) "
    "UNWIND r.candidates AS cid MATCH (e:Entity {id: cid}) "
    "CREATE (e)-[:MENTIONED_IN {start: r.start, end: r.end, surface: r.surface, "
    "reason: r.reason, ambiguous: r.ambiguous}]->(s)"
)
_EDGES = (
    "UNWIND $rows AS r MATCH (a:Entity {id: r.subject}), (b:Entity {id: r.object}) "
    "CREATE (a)-[x:RELATES]->(b) SET x += r.props"
)


def write_extraction(client: GraphClient, graph: str, extraction: Extraction) -> None:
    """Entities (merged by id), MENTIONED_IN edges, and RELATES edges, in batches."""
    bump_revision(client, graph)
    with OrderedWriter(client, graph) as writer:  # the next batch is made while one is sent
        _write(writer, _ENTITIES, entity_rows(extraction.entities))
        _write(writer, _MENTIONS, mention_rows(extraction.mentions))
        _write(writer, _EDGES, edge_rows(extraction.edges))
    finish_name_index(client, graph)
    bump_revision(client, graph)


def write_stream(
    client: GraphClient,
    graph: str,
    stream: ExtractionStream,
    entities: Sequence[str] | None = None,
) -> int:
    """The stream's entities (``entities``: their batches already encoded, by
    ``entity_batches``), then each run's mentions and edges as the run is read; returns how
    many documents were read (``stream.skipped_ambiguous`` is complete afterwards)."""
    documents = 0
    try:
        bump_revision(client, graph)
        with OrderedWriter(client, graph) as writer:
            for header in entity_batches(stream.entities) if entities is None else entities:
                writer.send(Prepared(header + _ENTITIES))
            for run in stream:
                if not run.writes:  # a stream made without ``encoded``
                    run = encoded(run)
                for prepared in run.writes:
                    writer.send(prepared)
                documents += run.documents
    finally:
        stream.close()  # read to the end, or stopped where a write failed
    finish_name_index(client, graph)
    bump_revision(client, graph)
    return documents


def entity_batches(entities: Iterable[Entity]) -> tuple[str, ...]:
    """The entity batches' parameters, checked and encoded (``params_header``): made aside
    with a large catalog (``zehn.extract.catalog_aside``), or here."""
    return tuple(params_header({"rows": b}) for b in _batches(entity_rows(entities)))


def encoded(run: Run) -> Run:
    """The run's mention and edge writes, checked and encoded (``prepare``), in place of its
    mentions and edges: a stream's ``finish``, so a forked reader sends them ready."""
    writes = [prepare(_MENTIONS, {"rows": b}) for b in _batches(mention_rows(run.mentions))]
    writes += [prepare(_EDGES, {"rows": b}) for b in _batches(edge_rows(run.edges))]
    return dataclasses.replace(run, mentions=(), edges=(), writes=tuple(writes))


def _write(writer: OrderedWriter, cypher: str, rows: Iterable[dict[str, Any]]) -> None:
    for batch in _batches(rows):
        writer.write(cypher, {"rows": batch})


def entity_rows(entities: Iterable[Entity]) -> Iterator[dict[str, Any]]:
    """Entity node properties, with the name index a build writes (``name_fields``)."""
    return (
        {
            "id": e.id,
            "name": e.name,
            "kind": e.kind,
            "aliases": list(e.aliases),
            "owner": e.owner,
            "description": e.description,
            "origin": e.origin,
            **name_fields(e),
        }
        for e in entities
    )


def mention_rows(mentions: Iterable[Mention]) -> Iterator[dict[str, Any]]:
    """MENTIONED_IN rows, made batch by batch as they are written."""
    return (
        {
            "sentence_id": m.sentence_id,
            "candidates": list(m.candidates),
            "start": m.start,
            "end": m.end,
            "surface": m.surface,
            "reason": m.reason,
            "ambiguous": m.ambiguous,
        }
        for m in mentions
    )


def edge_rows(edges: Iterable[Edge]) -> Iterator[dict[str, Any]]:
    """RELATES rows (the end entities and the edge's properties), made batch by batch."""
    return (
        {
            "subject": e.subject,
            "object": e.object,
            "props": {
                "key": e.key,
                "rel_type": e.rel_type,
                "sentence_id": e.sentence_id,
                "doc_id": e.doc_id,
                "start": e.start,
                "end": e.end,
                "fact": e.fact,
                "strategy": e.strategy,
                "negated": e.negated,
                "hedged": e.hedged,
                "cue": e.cue,
                "subject_start": e.subject_span[0] if e.subject_span else None,
                "subject_end": e.subject_span[1] if e.subject_span else None,
                "object_start": e.object_span[0] if e.object_span else None,
                "object_end": e.object_span[1] if e.object_span else None,
                "subject_ref": e.subject_reference or None,
                "object_ref": e.object_reference or None,
            },
        }
        for e in edges
    )


def _batches(rows: Iterable[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
