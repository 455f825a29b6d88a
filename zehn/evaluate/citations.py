"""A gold question's citations, found again by their quotes in the graph being scored.

A gold question names each sentence a correct answer cites by file, verbatim quote and the
sentence id it had when it was labelled. The id holds the sentence's character offsets in
its document, which move whenever a loader changes what it keeps of a file (exported HTML's
style blocks dropped, markup residue removed): an answer citing that very sentence would then
miss the gold by id. So the ids are resolved again, as the relations' gold is, by quote: the
stored sentences of the quote's file that hold the quote (or lie inside it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from zehn.evaluate.gold import GoldQuestion
from zehn.evaluate.matching import DocumentIndex, fold
from zehn.store.client import GraphClient

_SENTENCES = "MATCH (s:Sentence) WHERE s.doc_id IN $docs RETURN s.id, s.doc_id, s.text"


def resolved_citations(
    client: GraphClient, graph: str, questions: Sequence[GoldQuestion], root: Path | None
) -> tuple[GoldQuestion, ...]:
    """``questions`` with each citation's id replaced by the stored sentences its quote is
    in; a question whose gold gives no quotes (the sample's format) keeps its ids."""
    files = sorted({file for q in questions for file, _ in q.quotes})
    if root is None or not files:
        return tuple(questions)
    index = DocumentIndex.load(root, files)
    docs = sorted({d for file in files for d in index.files.get(file, ())})
    by_doc: dict[str, list[tuple[str, str]]] = {}
    for sentence_id, doc_id, text in client.read(graph, _SENTENCES, {"docs": docs}).rows:
        by_doc.setdefault(str(doc_id), []).append((str(sentence_id), fold(str(text))))
    out = []
    for question in questions:
        if not question.quotes:
            out.append(question)
            continue
        found: dict[str, None] = {}
        for file, quote in question.quotes:
            folded = fold(quote)
            for doc_id in index.files.get(file, ()):
                found.update(
                    (sid, None)
                    for sid, text in by_doc.get(doc_id, ())
                    if folded in text or (len(text) > 1 and text in folded)
                )
        out.append(dataclasses.replace(question, citations=tuple(found) or question.citations))
    return tuple(out)
