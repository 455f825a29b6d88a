"""The grader hop by hop, its agreement with gold, and the code that decides what is shown."""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import cache

import pytest

from zehn.corpus.loaders import iter_source_files, load_file
from zehn.corpus.model import Sentence
from zehn.corpus.sample import SAMPLE_CATALOG, SAMPLE_GOLD, SAMPLE_SOURCES
from zehn.engine.gate import decide, evidence_summary
from zehn.engine.verify import verify_citations
from zehn.evaluate.gold import entity_ids, load_relations
from zehn.evidence.grade import (
    INFERRED,
    INSUFFICIENT,
    SUPPORTED,
    Evidence,
    GradedHop,
    GradedPath,
    Grader,
    Negation,
    supersede,
)
from zehn.reading.names.catalog import Catalog
from zehn.reading.split import split_sentences

CATALOG = Catalog.load(SAMPLE_CATALOG)
GRADER = Grader(CATALOG.entities)


def evidence(source: str, rel: str, target: str, text: str, **extra: object) -> Evidence:
    values: dict[str, object] = {"start": 0, "document": "doc/x", "date": "2024-02-01"} | extra
    return Evidence("k", source, rel, target, "doc/x#0-1", text, **values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hop", "text", "label", "reason"),
    [
        (("service:indexer", "FEEDS", "service:search-api"), "The indexer feeds search-api.", SUPPORTED, "states"),
        (("service:billing", "DEPENDS_ON", "datastore:ledger-v1"), "billing no longer depends on ledger-v1.", INSUFFICIENT, "negates"),
        (("service:query-planner", "CALLS", "service:indexer"), "Does query-planner call indexer directly?", INSUFFICIENT, "question"),
        (("service:billing", "READS_FROM", "datastore:ledger-v2"), "After the migration, billing will read only from ledger-v2.", INSUFFICIENT, "plan"),
        (("service:indexer", "FEEDS", "service:search-api"), "The indexer and search-api dashboards were reviewed together.", INFERRED, "does not state"),
        (("service:indexer", "FEEDS", "service:web-frontend"), "The indexer feeds search-api.", INSUFFICIENT, "does not mention web-frontend"),
        (("service:redwood-inference", "DEPENDS_ON", "service:search-api"), "Redwood Inference depends on search-api staying fast.", INSUFFICIENT, "could be any of"),
        (("service:redwood-inference", "USES", "service:search-api"), "Redwood Inference Ltd. uses search-api through the public API.", INSUFFICIENT, "names the customer"),
    ],
)  # fmt: skip
def test_each_hop_is_graded_against_its_own_sentence(
    hop: tuple[str, str, str], text: str, label: str, reason: str
) -> None:
    grade = GRADER.grade(evidence(*hop, text))
    assert grade.label == label
    assert reason in grade.reason


def test_a_later_negation_supersedes_earlier_support() -> None:
    early = GRADER.grade(
        evidence(
            "service:billing",
            "DEPENDS_ON",
            "datastore:ledger-v1",
            "Billing depends on ledger-v1 today.",
        )
    )
    assert early.label == SUPPORTED
    later = Negation(
        "service:billing", "DEPENDS_ON", "datastore:ledger-v1", "email/x#0-9",
        "billing no longer depends on ledger-v1.", "2024-09-12", "email/x", 0,
    )  # fmt: skip
    superseded = supersede(early, [later])
    assert superseded.label == INSUFFICIENT and "superseded" in superseded.reason
    older = dataclasses.replace(later, date="2023-01-01", document="email/y")
    assert supersede(early, [older]).label == SUPPORTED


@cache
def _sentences() -> dict[str, Sentence]:
    return {
        s.id: s
        for path in iter_source_files(SAMPLE_SOURCES)
        for doc in load_file(path, SAMPLE_SOURCES)
        for s in split_sentences(doc.id, doc.text)
    }


def test_grades_agree_with_gold_on_at_least_90_percent_of_hops() -> None:
    confusion: Counter[tuple[str, str]] = Counter()
    for relation in load_relations(SAMPLE_GOLD / "relations.yaml"):
        sentence = _sentences()[relation.sentence]
        source = sorted(entity_ids(CATALOG, relation.subject, relation.subject_kind))[0]
        target = sorted(entity_ids(CATALOG, relation.object, relation.object_kind))[0]
        grade = GRADER.grade(
            Evidence(
                "k",
                source,
                relation.predicate,
                target,
                sentence.id,
                sentence.text,
                sentence.start,
                sentence.doc_id,
            )
        )
        confusion[(relation.grade, grade.label)] += 1
    agreement = sum(n for (gold, got), n in confusion.items() if gold == got) / sum(
        confusion.values()
    )
    assert agreement >= 0.9, confusion


def test_verification_rejects_fabricated_ids_even_beside_real_ones() -> None:
    assert verify_citations(["a"], ["a", "b"]).ok
    none = verify_citations([], ["a"])
    assert not none.ok and "cited no sentence" in (none.reason or "")
    mixed = verify_citations(["a", "fake#1-2"], ["a"])
    assert not mixed.ok and mixed.fabricated == ("fake#1-2",)
    assert "whole answer is rejected" in (mixed.reason or "")


def _path(*labels: str) -> GradedPath:
    hops = tuple(
        GradedHop("a", "DEPENDS_ON", "b", GRADER.grade(evidence("service:indexer", "FEEDS", "service:search-api", "The indexer feeds search-api.")))
        if label == SUPPORTED
        else GradedHop("a", "DEPENDS_ON", "b", GRADER.grade(evidence("service:indexer", "FEEDS", "service:search-api", "The indexer and search-api were reviewed.")))
        for label in labels
    )  # fmt: skip
    return GradedPath(("a", "b"), hops)


def test_the_gate_needs_a_cited_sentence_of_a_supported_hop() -> None:
    supported, inferred = _path(SUPPORTED), _path(INFERRED)
    assert decide(["doc/x#0-1"], [supported], set()).open
    closed = decide([], [inferred] * 11 + [supported], set())
    assert not closed.open
    assert closed.reason == "12 paths found, 1 supported, 11 inferred: no source states it"
    assert not decide(["doc/x#0-1"], [inferred], set()).open
    assert decide(["doc/y#0-5"], [], {"doc/y#0-5"}).open  # "what is X": a mention of X
    assert evidence_summary([]) == "no path found"
