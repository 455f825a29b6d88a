"""The sample corpus and its gold labels are consistent with what the loaders produce."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest
import yaml

from zehn.corpus.loaders import iter_source_files, load_file
from zehn.corpus.model import Document, Sentence, SourceType
from zehn.corpus.sample import SAMPLE_CATALOG, SAMPLE_GOLD, SAMPLE_SOURCES
from zehn.reading.split import split_sentences
from zehn.reading.vocabulary import GradeLabel, Predicate

PREDICATES = set(Predicate)
GRADES = set(GradeLabel)


@cache
def documents() -> dict[str, Document]:
    docs: dict[str, Document] = {}
    for path in iter_source_files(SAMPLE_SOURCES):
        for doc in load_file(path, SAMPLE_SOURCES):
            assert doc.id not in docs, f"duplicate id {doc.id}"
            docs[doc.id] = doc
    return docs


@cache
def sentences_by_id() -> dict[str, Sentence]:
    return {s.id: s for doc in documents().values() for s in split_sentences(doc.id, doc.text)}


def gold(name: str) -> list[dict[str, Any]]:
    data = yaml.safe_load((SAMPLE_GOLD / f"{name}.yaml").read_text(encoding="utf-8"))
    return list(data[name])


def catalog() -> list[dict[str, Any]]:
    return list(yaml.safe_load(SAMPLE_CATALOG.read_text(encoding="utf-8"))["entities"])


def _assert_cites(entry: dict[str, Any]) -> None:
    sentence = sentences_by_id().get(entry["sentence"])
    assert sentence is not None, f"unknown sentence id {entry['sentence']}"
    assert sentence.text == entry["quote"]
    assert documents()[sentence.doc_id].attrs["path"] == entry["file"]


def test_at_least_40_documents_across_all_five_source_types() -> None:
    counts = Counter(doc.source_type for doc in documents().values())
    assert sum(counts.values()) >= 40
    for source_type in SourceType:
        if source_type is not SourceType.TEXT:
            assert counts[source_type] >= 5, source_type


def test_every_document_is_dated_and_authored() -> None:
    for doc in documents().values():
        assert doc.date is not None, doc.id  # HTML exports give only the last-modified date
        assert doc.author, doc.id


def test_redwood_inference_is_a_team_a_service_and_a_customer() -> None:
    kinds = {e["kind"] for e in catalog() if e["name"] == "Redwood Inference"}
    assert kinds == {"team", "service", "customer"}


def test_gold_relations_cite_real_sentences_between_catalog_entities() -> None:
    names = {e["name"] for e in catalog()}
    relations = gold("relations")
    assert len(relations) >= 60
    for relation in relations:
        assert relation["predicate"] in PREDICATES
        assert relation["grade"] in GRADES
        assert relation["subject"] in names and relation["object"] in names, relation
        _assert_cites(relation)
    grades = Counter(r["grade"] for r in relations)
    assert all(grades[g] > 0 for g in GRADES)


def test_gold_questions_have_a_third_unanswerable_and_real_citations() -> None:
    questions = gold("questions")
    statuses = Counter(q["status"] for q in questions)
    assert len(questions) >= 40
    assert statuses["abstained"] * 3 >= len(questions)
    assert statuses["ambiguous"] >= 4
    assert len({q["id"] for q in questions}) == len(questions)
    for question in questions:
        citations = question.get("citations") or []
        if question["status"] == "answered":
            assert citations, question["id"]
        if question["status"] == "abstained":
            assert not citations, question["id"]
        for citation in citations:
            _assert_cites(citation)


@pytest.mark.parametrize(
    ("subject", "predicate", "obj", "grade"),
    [
        ("billing", "DEPENDS_ON", "ledger-v1", "source-supported"),
        ("billing", "DEPENDS_ON", "ledger-v1", "insufficient-evidence"),
        ("origin-mapper", "AFFECTS", "indexer", "source-supported"),
        ("indexer", "FEEDS", "search-api", "source-supported"),
    ],
)
def test_the_corpus_holds_the_cases_later_capabilities_need(
    subject: str, predicate: str, obj: str, grade: str
) -> None:
    """Chains, a superseded dependency (supported early, negated later)."""
    assert any(
        (r["subject"], r["predicate"], r["object"], r["grade"]) == (subject, predicate, obj, grade)
        for r in gold("relations")
    )
