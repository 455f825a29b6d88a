"""Sentences found by full-text search, re-read at query time by the reading layer.

A relation the build missed can still be stated in a stored sentence. ``search_sentences``
finds sentences that mention the question's entities and words; each is read here with the
same binder and cue rules as extraction (``zehn.reading``), and every relation read is graded
against its own sentence exactly like a graph edge. The gate and verification treat these
hops like any other; the citation says it was found by search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from zehn.corpus.model import Sentence
from zehn.engine.snapshot import GraphSnapshot
from zehn.evidence.grade import Evidence, GradedPath, graded_hop
from zehn.reading.relations.reader import sentence_edges

SEARCH = "search"  # the strategy name of edges read at query time (never stored)


def reread(rows: Iterable[Mapping[str, Any]], snapshot: GraphSnapshot) -> list[GradedPath]:
    """One-hop paths for every relation the search rows' sentences state between entities."""
    rows = list(rows)
    binder = snapshot.binder_for([str(row["text"]) for row in rows])
    read: list[Evidence] = []
    for row in rows:
        sentence = Sentence(
            str(row["document"]), str(row["text"]), int(row["start"]), int(row["end"])
        )
        edges, _ = sentence_edges(sentence, binder.bind(sentence), SEARCH)
        for edge in edges:
            evidence = Evidence(
                key=f"{SEARCH}:{edge.key}",
                source=edge.subject,
                rel_type=edge.rel_type,
                target=edge.object,
                sentence_id=str(row["sentence_id"]),
                text=sentence.text,
                start=sentence.start,
                document=sentence.doc_id,
                title=str(row.get("title") or ""),
                source_type=str(row.get("source_type") or ""),
                date=row.get("date"),
                negated=edge.negated,
                hedged=edge.hedged,
                fact=edge.fact,
            )
            read.append(evidence)
    grades = snapshot.grade_all(read)  # graded together: one grader for every sentence
    paths: dict[tuple[str, str, str, str], GradedPath] = {}
    for e in read:
        hop = graded_hop([grades[e.key]])
        key = (e.source, e.rel_type, e.target, e.sentence_id)
        paths.setdefault(key, GradedPath((e.source, e.target), (hop,), snapshot.names))
    return list(paths.values())
