"""A name its page marks as a component binds in the page's other sentences too (one sense
per discourse), and an edge resting on such a mention is graded as it was read (invented pages)."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.marks import PAGE_MARKED
from zehn.reading.references.reader import read_document, with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

ENTITIES = (
    Entity("ledger", "service", origin="discovered"),
    Entity("Quillomat", "datastore", origin="discovered"),
)
PLAIN = "Every night, the ledger writes its totals to Quillomat.\n"
EDGE = ("service:ledger", "WRITES_TO", "datastore:quillomat")


def _document(text: str) -> SourceText:
    doc_id = "doc/overview-md"
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, "Overview", text, tuple(chunks), tuple(sentences))


def _edges(text: str) -> list:
    document = _document(text)
    return [
        edge
        for sentence, mentions in read_document(document, ENTITIES, Binder(ENTITIES))
        for edge in with_references(sentence_edges(sentence, mentions, "rules")[0], mentions)
    ]


@pytest.mark.parametrize(
    "marking",
    [
        "Totals are kept by the `ledger` process.\n\n",  # markup
        "Operators restart the Ledger after an upgrade.\n\n",  # a capital mid-sentence
        "## Ledger\n\nTotals arrive all day.\n\n",  # a line of its own
    ],
    ids=["markup", "capital mid-sentence", "heading"],
)
def test_a_name_marked_elsewhere_on_the_page_binds_after_a_definite_word(marking: str) -> None:
    edges = _edges(marking + PLAIN)
    found = [e for e in edges if (e.subject, str(e.rel_type), e.object) == EDGE]
    assert found, edges
    assert PAGE_MARKED in found[0].subject_reference


def test_a_page_that_never_marks_the_name_keeps_it_a_word() -> None:
    assert _edges("Totals arrive all day.\n\n" + PLAIN) == []


def test_after_an_indefinite_word_it_stays_a_word_even_when_marked() -> None:
    text = "Totals are kept by the `ledger` process.\n\nA ledger writes its totals to Quillomat.\n"
    assert not [e for e in _edges(text) if e.subject == "service:ledger"]


def test_the_grader_accepts_the_recorded_page_reading() -> None:
    text = "Operators restart the Ledger after an upgrade.\n\n" + PLAIN
    edge = next(e for e in _edges(text) if (e.subject, str(e.rel_type), e.object) == EDGE)
    sentence = next(s for s in _document(text).sentences if "totals to" in s.text)
    evidence = Evidence(
        "k", edge.subject, str(edge.rel_type), edge.object, sentence.id, sentence.text,
        sentence.start, sentence.doc_id, subject_ref=edge.subject_reference,
        subject_span=edge.subject_span,
    )  # fmt: skip
    assert Grader(ENTITIES).grade(evidence).label == SUPPORTED
    alone = Evidence(
        "k", edge.subject, str(edge.rel_type), edge.object, sentence.id, sentence.text,
        sentence.start, sentence.doc_id,
    )  # fmt: skip
    assert Grader(ENTITIES).grade(alone).label != SUPPORTED  # the sentence alone does not bind
