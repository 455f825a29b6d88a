from __future__ import annotations

from zehn.config import Settings
from zehn.corpus.model import SourceText
from zehn.corpus.sample import SAMPLE_CATALOG
from zehn.extract.cooccurrence import CooccurrenceStrategy
from zehn.extract.rules import RulesStrategy
from zehn.reading.names.catalog import Catalog
from zehn.reading.names.discover import discover_entities
from zehn.reading.split import chunk_sentences, split_sentences


def source(doc_id: str, text: str) -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, doc_id, text, tuple(chunks), tuple(sentences))


DOCS = [
    source(
        "doc/a",
        "The Checkout Service calls payment-gateway. The payment-gateway depends on fraud-check. "
        "It is a built-in feature with an on-call rotation and a follow-up.",
    ),
    source("doc/b", "fraud-check feeds payment-gateway. The Payments team owns fraud-check."),
]


def test_discovery_finds_code_like_names_used_twice_and_named_services_and_teams() -> None:
    found = {(e.name, e.kind) for e in discover_entities(DOCS)}
    assert {
        ("payment-gateway", "service"),
        ("fraud-check", "service"),
        ("Checkout", "service"),
        ("Payments", "team"),
    } <= found
    assert not {name for name, _ in found} & {"built-in", "on-call", "follow-up"}
    assert all(e.origin == "discovered" for e in discover_entities(DOCS))


def test_rules_without_a_catalog_extract_over_discovered_entities() -> None:
    extraction = RulesStrategy().extract(DOCS, None, Settings())
    triples = {(e.subject, e.rel_type, e.object) for e in extraction.edges}
    assert ("service:checkout", "CALLS", "service:payment-gateway") in triples
    assert ("service:payment-gateway", "DEPENDS_ON", "service:fraud-check") in triples
    assert ("team:payments", "OWNS", "service:fraud-check") in triples


def test_cooccurrence_links_every_bound_pair_with_a_paraphrased_fact() -> None:
    doc = source(
        "doc/c",
        "The indexer and search-api dashboards were reviewed with feature-store owners.",
    )
    extraction = CooccurrenceStrategy().extract([doc], Catalog.load(SAMPLE_CATALOG), Settings())
    assert len(extraction.edges) == 3
    sentence = doc.sentences[0].text
    assert all(e.fact not in sentence for e in extraction.edges)
    assert {e.rel_type for e in extraction.edges} == {"DEPENDS_ON"}
