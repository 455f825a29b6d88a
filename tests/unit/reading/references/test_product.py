"""A project's documentation says "we" for the product it documents: the name used on most of
its pages. A sentence-opening "we" that states a relation with another named product is that
product's (invented corpora)."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.reading.model import Edge, Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.references.product import corpus_product
from zehn.reading.references.reader import read_corpus, with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

ENTITIES = (
    Entity("Orvane", "service", origin="discovered"),
    Entity("Zorbex", "component", origin="discovered"),
    Entity("Pluvia", "datastore", origin="discovered"),
    Entity("event queue", "topic", origin="discovered"),
    Entity("Heron", "component", origin="discovered"),
)
CATALOG = Catalog(ENTITIES)
# pages that all name Orvane, and only some the others
PAGES = (
    "Orvane keeps its settings in one file.",
    "Operators upgrade Orvane twice a year.",
    "Orvane writes logs to Pluvia.",
)


def _document(n: int, text: str) -> SourceText:
    doc_id = f"doc/page-{n}-md"
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, f"Page {n}", text, tuple(chunks), tuple(sentences))


def _corpus(last: str, pages: tuple[str, ...] = PAGES) -> list[SourceText]:
    return [_document(n, text) for n, text in enumerate((*pages, last))]


def _edges(last: str, pages: tuple[str, ...] = PAGES) -> list[Edge]:
    documents = _corpus(last, pages)
    _, read = read_corpus(documents, CATALOG)
    final = documents[-1].doc_id
    return [
        edge
        for sentence, mentions in read
        if sentence.doc_id == final
        for edge in with_references(sentence_edges(sentence, mentions, "rules")[0], mentions)
    ]


def _triples(edges: list[Edge]) -> set[tuple[str, str, str]]:
    return {(e.subject, str(e.rel_type), e.object) for e in edges}


def test_the_product_is_the_proper_name_used_on_most_pages() -> None:
    product = corpus_product(_corpus("Zorbex queues the jobs."), Binder(ENTITIES))
    assert product is not None and product.entity.name == "Orvane"
    assert "3 of 4 pages" in product.why


def test_no_name_on_two_thirds_of_the_pages_means_no_product() -> None:
    pages = ("Orvane keeps its settings.", "Zorbex queues the jobs.", "Pluvia stores rows.")
    assert corpus_product(_corpus("Nothing is named here.", pages), Binder(ENTITIES)) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We use Zorbex for queuing expensive work.",
            ("service:orvane", "USES", "component:zorbex"),
        ),
        (
            "However, we rely on Pluvia for durable storage.",
            ("service:orvane", "DEPENDS_ON", "datastore:pluvia"),
        ),
        ("我们基于 Zorbex 实现了任务队列。", ("service:orvane", "DEPENDS_ON", "component:zorbex")),
        (  # an ordinary word written as a name
            "We\nalso make use of [Heron](https://heron.example) for the push system.",
            ("service:orvane", "USES", "component:heron"),
        ),
    ],
    ids=["we use", "adverbial opening", "chinese", "capitalised word"],
)
def test_a_sentence_opening_we_is_the_product(text: str, expected: tuple[str, str, str]) -> None:
    edges = _edges(text)
    assert expected in _triples(edges)
    edge = next(e for e in edges if (e.subject, str(e.rel_type), e.object) == expected)
    assert "the product these pages document" in edge.subject_reference


def test_we_with_only_common_nouns_and_we_without_a_product_stay_unread() -> None:
    assert _edges("We use event queues for the kinds of tasks that run later.") == []
    pages = ("Orvane keeps its settings.", "Zorbex queues the jobs.", "Pluvia stores rows.")
    assert _edges("We use Zorbex for queuing expensive work.", pages) == []


def test_the_grader_accepts_the_recorded_we() -> None:
    text = "We use Zorbex for queuing expensive work."
    edge = next(e for e in _edges(text) if e.object == "component:zorbex")
    sentence = _corpus(text)[-1].sentences[0]
    evidence = Evidence(
        "k", edge.subject, str(edge.rel_type), edge.object, sentence.id, sentence.text,
        sentence.start, sentence.doc_id, subject_ref=edge.subject_reference,
        subject_span=edge.subject_span,
    )  # fmt: skip
    assert Grader(ENTITIES).grade(evidence).label == SUPPORTED
