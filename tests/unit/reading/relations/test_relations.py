"""The rules strategy, sentence by sentence: voice, lists, negation, hedging, ambiguity."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence
from zehn.corpus.sample import SAMPLE_CATALOG
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.relations.reader import sentence_edges

BINDER = Binder(Catalog.load(SAMPLE_CATALOG).entities)
Triple = tuple[str, str, str, str]  # subject, predicate, object, flags


def extract(text: str) -> set[Triple]:
    sentence = Sentence("doc/x", text, 10, 10 + len(text))
    edges, _ = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    for edge in edges:
        assert edge.fact == text and (edge.start, edge.end) == (10, 10 + len(text))
    return {
        (
            e.subject.split(":")[1],
            e.rel_type,
            e.object.split(":")[1],
            ("negated " if e.negated else "") + ("hedged" if e.hedged else ""),
        )
        for e in edges
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The indexer feeds search-api.", {("indexer", "FEEDS", "search-api", "")}),
        (
            "The auth-gateway is called by search-api to validate tokens.",
            {("search-api", "CALLS", "auth-gateway", "")},
        ),
        (
            "The customer-facing path is search-api, which is fed by the indexer.",
            {("indexer", "FEEDS", "search-api", "")},
        ),
        (
            "The Search team owns indexer, search-api and query-planner.",
            {
                ("search-team", "OWNS", "indexer", ""),
                ("search-team", "OWNS", "search-api", ""),
                ("search-team", "OWNS", "query-planner", ""),
            },
        ),
        (
            "The web-frontend, search-api and notification-service depend on auth-gateway.",
            {
                ("web-frontend", "DEPENDS_ON", "auth-gateway", ""),
                ("search-api", "DEPENDS_ON", "auth-gateway", ""),
                ("notification-service", "DEPENDS_ON", "auth-gateway", ""),
            },
        ),
        (
            "After this PR, billing reads from ledger-v2 and writes to ledger-v2 only.",
            {
                ("billing", "READS_FROM", "ledger-v2", ""),
                ("billing", "WRITES_TO", "ledger-v2", ""),
            },
        ),
        (
            "Billing publishes an invoice.created event to billing-events for every invoice.",
            {("billing", "PUBLISHES_TO", "billing-events", "")},
        ),
        (
            "Kestrel Labs depends on the monthly invoice export from billing.",
            {("kestrel-labs", "DEPENDS_ON", "billing", "")},
        ),
        (
            "Billing reads and writes invoices in ledger-v1, which runs on Postgres 11.",
            {
                ("billing", "READS_FROM", "ledger-v1", ""),
                ("billing", "WRITES_TO", "ledger-v1", ""),
            },
        ),
    ],
)
def test_asserted_relations(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "billing no longer depends on ledger-v1; it was migrated to ledger-v2.",
            {("billing", "DEPENDS_ON", "ledger-v1", "negated ")},
        ),
        (
            "Billing does not call auth-gateway; it uses mutual TLS.",
            {("billing", "CALLS", "auth-gateway", "negated ")},
        ),
        (
            "The indexer now consumes from event-bus instead of polling the origin-mapper replica.",
            {
                ("indexer", "CONSUMES_FROM", "event-bus", ""),
                ("indexer", "READS_FROM", "origin-mapper", "negated "),
            },
        ),
        (
            "After the migration, billing will read only from ledger-v2.",
            {("billing", "READS_FROM", "ledger-v2", "hedged")},
        ),
        (
            "Does query-planner call indexer directly?",
            {("query-planner", "CALLS", "indexer", "hedged")},
        ),
        (
            "If notification-service calls search-api for every saved search, use the batch API.",
            {("notification-service", "CALLS", "search-api", "hedged")},
        ),
        (
            "I think query-planner calls indexer for shard stats.",
            {("query-planner", "CALLS", "indexer", "hedged")},
        ),
        (
            "Someone on the Search team told me that query-planner calls redwood-inference.",
            {("query-planner", "CALLS", "redwood-inference", "hedged")},
        ),
    ],
)
def test_negation_and_hedging_are_recorded_not_dropped(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The indexer and search-api dashboards were reviewed together.",
        "Invoices for Redwood Inference Ltd. are produced by billing on the first day.",
        "ledger-v2 is in shadow mode, but nothing reads from it yet.",
        "The feature-store and event-bus upgrades were scheduled together.",
    ],
)
def test_co_mentions_without_a_stated_relation_make_no_edge(text: str) -> None:
    assert extract(text) == set()


def test_an_ambiguous_endpoint_is_never_guessed() -> None:
    text = "Redwood Inference depends on search-api staying within its latency budget."
    sentence = Sentence("doc/x", text, 0, len(text))
    edges, skipped = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    assert edges == [] and skipped == 1


def test_edges_keep_the_spans_of_both_mentions() -> None:
    text = "The web-frontend calls notification-service for push."
    sentence = Sentence("doc/x", text, 5, 5 + len(text))
    (edge,) = sentence_edges(sentence, BINDER.bind(sentence), "rules")[0]
    assert edge.subject_span is not None and edge.object_span is not None
    assert text[edge.subject_span[0] - 5 : edge.subject_span[1] - 5] == "web-frontend"
    assert text[edge.object_span[0] - 5 : edge.object_span[1] - 5] == "notification-service"
    assert edge.cue == "calls"


def test_latin_text_is_read_without_the_chinese_cues_and_nothing_changes() -> None:
    """The shortcut (Chinese cues only for text with a Chinese character) finds exactly
    what the whole lexicon finds, on every sentence of the sample corpus."""
    from zehn.corpus.loaders import iter_source_files, load_file
    from zehn.corpus.sample import SAMPLE_SOURCES
    from zehn.reading.relations.cues import CUES
    from zehn.reading.relations.reader import _cue_hits
    from zehn.reading.split import split_sentences

    checked = 0
    for file in iter_source_files(SAMPLE_SOURCES):
        for doc in load_file(file, SAMPLE_SOURCES):
            for sentence in split_sentences(doc.id, doc.text):
                assert _cue_hits(sentence.text, []) == _cue_hits(sentence.text, [], CUES)
                checked += 1
    assert checked > 700  # the sample: 57 documents
