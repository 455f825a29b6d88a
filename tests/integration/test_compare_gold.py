"""Scoring a corpus against a real-corpus gold folder (``zehn compare --gold``).

The corpus and gold in tests/fixtures/real_gold are invented. Edges come from a
scripted strategy (one edge per sentence holding a given phrase), so the figures
are exact whatever the reader does; the matcher must not care how the splitter
cuts sentences, which the hand-made edges at the end check directly.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from zehn.cli import main
from zehn.config import Settings
from zehn.corpus.model import Progress, SourceText
from zehn.evaluate.compare import GoldScorer, compare_strategies
from zehn.evaluate.gold import GoldError, load_gold, load_relations, normalise_name
from zehn.evaluate.matching import DocumentIndex, DocumentMatcher, StoredEdge, fold
from zehn.extract.base import Extraction
from zehn.extract.pipeline import STRATEGIES
from zehn.reading.model import Edge, Entity
from zehn.reading.names.catalog import Catalog
from zehn.store.client import GraphClient

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "real_gold"
GOLD = FIXTURE / "gold"
CORPUS = FIXTURE / "corpus"
SAMPLE = REPO / "data" / "sample"

LEDGER = Entity("Ledger Service", "service")  # gold: ledger, alias "Ledger Service"
POSTGRES = Entity("postgres", "component")  # gold: PostgreSQL (datastore), alias "Postgres"
BILLING = Entity("billing_api", "service")  # gold: billing-api (separators differ)
REPLICA = Entity("Ledger Replica", "datastore")
REPORTING = Entity("reporting job", "pipeline")
NOTIFIER = Entity("notifier", "service")
BUS = Entity("bus", "topic", aliases=("events bus",))  # matched through its stored alias
EXPORTER = Entity("exporter", "service")
MAILER = Entity("mailer", "service")

# (phrase of the sentence, subject, predicate, object, hedged)
SCRIPT: tuple[tuple[str, Entity, str, Entity, bool], ...] = (
    ("persists invoices", LEDGER, "WRITES_TO", POSTGRES, False),  # match; kinds differ
    ("calls the ledger", BILLING, "DEPENDS_ON", LEDGER, False),  # match by an alternative
    ("reads from", REPLICA, "READS_FROM", REPORTING, False),  # reversed: no match
    ("consumes invoice events", NOTIFIER, "CONSUMES_FROM", BUS, False),  # match (list item)
    ("might publish", EXPORTER, "PUBLISHES_TO", BUS, True),  # match, hedged like the gold
    ("owns the invoice schema", MAILER, "CALLS", LEDGER, False),  # no gold in this sentence
    ("audit rows", NOTIFIER, "WRITES_TO", POSTGRES, False),  # out of scope: not judged
)


class ScriptedStrategy:
    """Edges for the sentences holding a phrase of ``SCRIPT``: exact, reader-independent."""

    name = "scripted"
    version = "1"

    def extract(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        progress: Progress | None = None,
    ) -> Extraction:
        edges = [
            Edge.stated_by(s, a.id, p, b.id, fact=s.text, strategy=self.name, hedged=h)
            for doc in documents
            for s in doc.sentences
            for phrase, a, p, b, h in SCRIPT
            if phrase in " ".join(s.text.split())
        ]
        entities = {e.id: e for _, a, _, b, _ in SCRIPT for e in (a, b)}
        return Extraction.collect(self.name, entities.values(), (), edges)


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(STRATEGIES, "scripted", ScriptedStrategy)


EXPECTED = {
    "edges": 7,
    "edges_in_scope": 6,
    "precision": 4 / 6,
    "recall": 4 / 7,
    "f1": 2 * (4 / 6) * (4 / 7) / (4 / 6 + 4 / 7),
    "binding_error_rate": 1 / 5,  # the reversed edge, among the 5 with a gold predicate
    "flag_agreement": 1.0,
    "kind_agreement": 3 / 4,  # postgres is a component here, a datastore in the gold
    "gold_stated": 7,
    "gold_quotes_missing": 0,
    "en_precision": 4 / 6,
    "en_recall": 4 / 7,
    "recall_WRITES_TO": 1.0,
    "recall_CALLS": 1 / 2,
    "recall_READS_FROM": 0.0,
    "recall_DEPENDS_ON": 0.0,
    "recall_CONSUMES_FROM": 1.0,
    "recall_PUBLISHES_TO": 1.0,
}


# --- loading -------------------------------------------------------------------------------


def test_a_corpus_gold_loads_with_its_scope_entities_and_corpus() -> None:
    gold = load_gold(GOLD)
    assert (gold.format, gold.name, gold.corpus_root) == ("corpus", "real_gold", CORPUS)
    assert gold.scope == ("architecture.md", "services/ledger.md", "services/billing.md")
    assert len(gold.relations) == len(gold.stated) == 7
    calls = gold.relations[2]
    assert (calls.file, calls.alternatives) == ("architecture.md", ("DEPENDS_ON",))
    assert calls.predicates == {"CALLS", "DEPENDS_ON"}
    assert gold.forms("ledger", "service") == {"ledger", "ledgerservice"}
    assert gold.forms("nobody", None) == {"nobody"}


def test_the_sample_gold_loads_as_before() -> None:
    gold = load_gold(SAMPLE / "gold")
    assert (gold.format, gold.name, gold.scope, gold.entities) == ("sample", "sample", (), ())
    assert gold.corpus_root == SAMPLE
    assert gold.relations == load_relations(SAMPLE / "gold" / "relations.yaml")


@pytest.mark.parametrize("corpus", ["otel-demo", "airflow-docs", "dubbo-docs-zh"])
def test_the_real_gold_folders_load(corpus: str) -> None:
    gold = load_gold(REPO / "data" / "gold" / corpus)
    assert gold.format == "corpus" and gold.name == corpus and gold.stated
    assert gold.corpus_root == (REPO.parent / "shared" / "corpora" / corpus / "docs").resolve()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("file: services/billing.md", "file: notes/changelog.md"), "is not in scope"),
        (("alternatives: [DEPENDS_ON]", "alternatives: [RUNS]"), "unknown predicate RUNS"),
        (("object: mailer\n", "object: postman\n"), "'postman' (service) is not among"),
        (("kind: topic, aliases", "kind: queue, aliases"), "has kind 'queue'"),
    ],
)
def test_a_corpus_gold_that_contradicts_itself_is_refused(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = (GOLD / "relations.yaml").read_text(encoding="utf-8")
    assert change[0] in text
    (tmp_path / "relations.yaml").write_text(text.replace(*change, 1), encoding="utf-8")
    with pytest.raises(GoldError, match=re.escape(message)):
        load_gold(tmp_path, project_root=REPO)


def test_names_are_compared_case_folded_without_separators() -> None:
    forms = {"Checkout Service", "checkout-service", "checkout_service", "CHECKOUT.service"}
    assert {normalise_name(f) for f in forms} == {"checkoutservice"}
    assert normalise_name("注册中心") == "注册中心"
    assert normalise_name("Redwood") != normalise_name("Redwood Inference")


# --- scoring a built graph -----------------------------------------------------------------


def test_compare_scores_edges_by_document_quote_and_names(
    client: GraphClient, graph_name: str, scripted: None
) -> None:
    frame = compare_strategies(client, None, ["scripted"], gold=GOLD, corpus=graph_name)
    (row,) = frame.to_dict("records")
    assert row["status"] == "ok" and row["graph"] == f"{graph_name}__scripted"
    for key, value in EXPECTED.items():
        assert row[key] == pytest.approx(value), key
    assert math.isnan(row["zh_precision"]) and math.isnan(row["zh_recall"])


def test_the_report_says_what_did_not_match_and_why(
    client: GraphClient, graph_name: str, scripted: None
) -> None:
    frame = compare_strategies(
        client, CORPUS, ["scripted"], gold=GOLD, corpus=graph_name, details=True
    )
    details = cast(list[dict[str, Any]], frame.loc[0, "details"])
    unmatched = {
        (d["subject"], d["object"]): d for d in details if d["outcome"] == "unmatched edge"
    }
    missed = {(d["subject"], d["object"]): d for d in details if d["outcome"] == "missed gold"}
    assert set(unmatched) == {("Ledger Replica", "reporting job"), ("mailer", "Ledger Service")}
    reversed_edge = unmatched[("Ledger Replica", "reporting job")]
    assert reversed_edge["why"] == (
        "closest gold reporting-job READS_FROM ledger-replica: direction reversed"
    )
    assert unmatched[("mailer", "Ledger Service")]["why"] == "no gold relation in this sentence"
    assert set(missed) == {
        ("ledger", "clock"),
        ("reporting-job", "ledger-replica"),
        ("billing-api", "mailer"),
    }
    near = missed[("reporting-job", "ledger-replica")]
    assert near["document"] == "architecture.md"
    assert near["why"] == "edges here: Ledger Replica READS_FROM reporting job; " + (
        "billing_api DEPENDS_ON Ledger Service"
    )
    assert missed[("ledger", "clock")]["why"] == "no edge from this sentence"
    assert missed[("ledger", "clock")]["predicate"] == "DEPENDS_ON"
    assert missed[("billing-api", "mailer")]["predicate"] == "CALLS"


def test_cli_compare_with_only_gold_uses_its_corpus_and_names_the_graph_after_it(
    client: GraphClient, scripted: None, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        assert main(["compare", "--gold", str(GOLD), "--strategies", "scripted", "--json"]) == 0
        (row,) = json.loads(capsys.readouterr().out)
        assert row["graph"] == "real_gold__scripted"
        assert (row["precision"], row["recall"]) == pytest.approx((4 / 6, 4 / 7))
        assert "details" not in row
        argv = ["compare", "--gold", str(GOLD), "--strategies", "scripted", "--details"]
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "recall per gold predicate:" in out
        assert "scripted: 2 unmatched edges in scope" in out
        assert "scripted: 3 missed gold relations" in out
        assert "closest gold reporting-job READS_FROM ledger-replica: direction reversed" in out
    finally:
        for name in client.list_graphs():
            if name.startswith("real_gold__"):
                client.delete_graph(name)


def test_cli_compare_json_errors_are_one_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", "--gold", str(tmp_path / "nope"), "--json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert (payload["status"], payload["command"], payload["error"]) == (
        "error",
        "compare",
        "GoldError",
    )
    text = (GOLD / "relations.yaml").read_text(encoding="utf-8")
    (tmp_path / "relations.yaml").write_text(
        text.replace("corpus: tests/fixtures/real_gold/corpus", "corpus: no/such/corpus"),
        encoding="utf-8",
    )
    assert main(["compare", "--gold", str(tmp_path), "--json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["error"] == "GoldError" and "is not there" in payload["reason"]


def test_the_rules_strategy_runs_on_the_fixture(client: GraphClient, graph_name: str) -> None:
    """Whatever the reader finds, the gold's quotes are in the loaded text and the figures are
    well formed (the exact figures are the scripted strategy's to pin)."""
    (row,) = compare_strategies(client, None, ["rules"], gold=GOLD, corpus=graph_name).to_dict(
        "records"
    )
    assert row["status"] == "ok" and row["gold_stated"] == 7 and row["gold_quotes_missing"] == 0
    assert 0 <= row["edges_in_scope"] <= row["edges"]
    assert math.isnan(row["precision"]) or 0.0 <= row["precision"] <= 1.0


# --- matching does not depend on how sentences are cut -------------------------------------


def _edge(doc_id: str, text: str, subject: Entity, predicate: str, obj: Entity) -> StoredEdge:
    return StoredEdge(
        subject.id, predicate, obj.id, f"{doc_id}#0-{len(text)}", text, text, False,
        doc_id=doc_id, subject_name=subject.name, subject_kind=subject.kind,
        subject_aliases=subject.aliases, object_name=obj.name, object_kind=obj.kind,
        object_aliases=obj.aliases,
    )  # fmt: skip


@pytest.fixture(scope="module")
def matcher() -> DocumentMatcher:
    gold = load_gold(GOLD)
    return DocumentMatcher(gold.stated, gold, DocumentIndex.load(CORPUS, gold.scope))


@pytest.mark.parametrize(
    "text",
    [
        "The billing-api calls the ledger service over gRPC,",  # cut at the comma
        "The billing-api calls the ledger service",  # cut finer than the quote
        "The billing-api calls the ledger service over gRPC, and the reporting job reads from\n"
        "the ledger replica every night.",  # the whole sentence, wrapped
        "Overview. The billing-api calls the ledger service over gRPC, and more.",  # merged
    ],
)
def test_an_edge_matches_however_its_sentence_was_cut(matcher: DocumentMatcher, text: str) -> None:
    edge = _edge("doc/architecture-md", text, BILLING, "CALLS", LEDGER)
    assert matcher.in_scope(edge)
    assert [matcher.stated[i].object for i in matcher.candidates(edge)][:1] == ["ledger"]
    assert any(matcher.compare(edge, i).match for i in matcher.candidates(edge))


def test_the_same_text_in_another_document_or_an_empty_sentence_matches_nothing(
    matcher: DocumentMatcher,
) -> None:
    text = "The billing-api calls the ledger service over gRPC,"
    elsewhere = _edge("doc/notes/changelog-md", text, BILLING, "CALLS", LEDGER)
    assert not matcher.in_scope(elsewhere) and matcher.candidates(elsewhere) == []
    assert matcher.candidates(_edge("doc/architecture-md", " \n", BILLING, "CALLS", LEDGER)) == []


def test_scoring_needs_no_sentence_id_of_the_gold(matcher: DocumentMatcher) -> None:
    gold = load_gold(GOLD)
    scorer = GoldScorer(gold, index=matcher.index)
    text = fold("The ledger service persists invoices to Postgres. The ledger service depends")
    edges = [
        _edge("doc/services/ledger-md", text, LEDGER, "WRITES_TO", POSTGRES),
        _edge("doc/services/ledger-md", text, POSTGRES, "WRITES_TO", LEDGER),
    ]
    figures = scorer.metrics(edges)
    assert (figures["edges_in_scope"], figures["precision"], figures["recall"]) == (2, 0.5, 1 / 7)
