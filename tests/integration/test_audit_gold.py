"""Reviewers' labels as gold (issue 29, item 2): ``zehn audit export-gold`` then ``zehn compare
--gold`` scores every strategy against what reviewers decided. The invented corpus below is
written for this test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zehn.cli import EXIT_OK, main
from zehn.evaluate.gold import load_gold
from zehn.extract.pipeline import build_graph
from zehn.review.audit import AuditStore, read_items
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

PAGES = {
    "orders.md": (
        "# orders-api\n\n"
        "The orders-api service calls the billing-core service.\n\n"
        "The orders-api service reads from the basket-db database.\n\n"
        "The orders-api service writes to the audit-log database.\n\n"
        "The orders-api service publishes to the order-events topic.\n"
    ),
}


def test_reviewed_edges_become_gold_that_compare_scores_every_strategy_against(
    client: GraphClient,
    graph_name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in PAGES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    graph = build_graph(client, graph_name, corpus, "rules").graph
    edges = sorted(read_items(client, graph), key=lambda i: i.rel_type)
    assert [e.rel_type for e in edges] == ["CALLS", "PUBLISHES_TO", "READS_FROM", "WRITES_TO"]
    store = AuditStore(client)
    verdicts = {"CALLS": "correct", "PUBLISHES_TO": "wrong_target", "READS_FROM": "correct"}
    for edge in edges:
        if edge.rel_type in verdicts:  # WRITES_TO stays unreviewed
            store.label(edge, label=verdicts[edge.rel_type], reviewer="rev")
    out = tmp_path / "reviewed"
    assert main(["audit", "export-gold", "--graph", graph, "--out", str(out), "--json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert (written["correct"], written["rejected"], written["left_out"]) == (2, 1, 0)
    gold = load_gold(out)
    assert gold.format == "reviewed" and gold.corpus_root == corpus.resolve()
    assert sorted(r.predicate for r in gold.stated) == ["CALLS", "READS_FROM"]
    argv = ["compare", "--gold", str(out), "--strategies", "rules,cooccurrence", "--json"]
    assert main(argv) == EXIT_OK
    rows = {r["strategy"]: r for r in json.loads(capsys.readouterr().out)}
    rules = rows["rules"]
    # judged: the three reviewed edges, the rejected one a false positive; WRITES_TO unjudged
    assert rules["edges_in_scope"] == 3
    assert rules["precision"] == pytest.approx(2 / 3) and rules["recall"] == 1.0
    assert rows["cooccurrence"]["status"] == "ok"  # scored against the same verdicts
    for graph_built in (r["graph"] for r in rows.values()):
        client.delete_graph(graph_built)


def test_a_graph_without_reviewed_edges_exports_nothing(
    client: GraphClient, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "orders.md").write_text(PAGES["orders.md"], encoding="utf-8")
    graph = build_graph(client, graph_name, corpus, "rules").graph
    out = tmp_path / "reviewed"
    assert main(["audit", "export-gold", "--graph", graph, "--out", str(out)]) != EXIT_OK
    assert "no reviewed edge to export" in capsys.readouterr().err
    assert not (out / "relations.yaml").exists()
