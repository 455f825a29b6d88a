"""The reading suite (``zehn compare --suite``): where each missed gold relation was lost, on a
graph written by hand, and the whole suite through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zehn.cli import main
from zehn.evaluate.compare import GoldScorer
from zehn.evaluate.gold import load_gold
from zehn.evaluate.suite import STAGES, _stages
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

RELATIONS = """\
corpus: corpus
scope: [a.md, b.md]
entities:
  - {name: ledger, kind: service, aliases: [Ledger Service]}
  - {name: vault, kind: datastore, aliases: []}
  - {name: fraud, kind: service, aliases: []}
relations:
  - {subject: ledger, subject_kind: service, predicate: WRITES_TO, object: fraud,
     object_kind: service, file: a.md, quote: "The ledger service notifies fraud.",
     sentence: x, grade: source-supported}
  - {subject: ledger, subject_kind: service, predicate: WRITES_TO, object: vault,
     object_kind: datastore, file: b.md, quote: "The ledger service writes to the vault.",
     sentence: y, grade: source-supported}
  - {subject: ledger, subject_kind: service, predicate: READS_FROM, object: vault,
     object_kind: datastore, file: a.md, quote: "The ledger service polls the vault.",
     sentence: w, grade: source-supported}
  - {subject: ledger, subject_kind: service, predicate: READS_FROM, object: vault,
     object_kind: datastore, file: a.md, quote: "The ledger service reads the vault.",
     sentence: z, grade: source-supported}
"""


def test_each_missed_relation_is_put_at_the_stage_it_was_lost(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.md").write_text(
        "# A\n\nThe ledger service notifies fraud.\n\nThe ledger service polls the vault.\n\n"
        "The ledger service reads the vault.\n"
    )
    (tmp_path / "corpus" / "b.md").write_text("# B\n\nThe ledger service writes to the vault.\n")
    (tmp_path / "gold").mkdir()
    (tmp_path / "gold" / "relations.yaml").write_text(
        RELATIONS.replace("corpus: corpus", f"corpus: {tmp_path / 'corpus'}")
    )
    gold = load_gold(tmp_path / "gold")
    scorer = GoldScorer.load(gold, tmp_path / "corpus")
    assert scorer.index is not None
    (doc_a,) = scorer.index.files["a.md"]
    client.write(
        graph_name,
        "CREATE (l:Entity {name: 'Ledger Service', aliases: []}),"
        " (v:Entity {name: 'vault', aliases: []}),"
        " (:Sentence {id: 's1', doc_id: $a, text: 'The ledger service notifies fraud.'}),"
        " (s3:Sentence {id: 's3', doc_id: $a, text: 'The ledger service polls the vault.'}),"
        " (s2:Sentence {id: 's2', doc_id: $a, text: 'The ledger  service reads the vault.'}),"
        " (l)-[:MENTIONED_IN]->(s3), (l)-[:MENTIONED_IN]->(s2), (v)-[:MENTIONED_IN]->(s2)",
        {"a": doc_a},
    )  # b.md's sentence was never stored; fraud was never discovered; s3 names no vault
    stages = _stages(client, graph_name, gold, scorer, gold.stated)
    assert stages == [
        "lost_end_not_discovered",
        "lost_sentence_not_stored",
        "lost_end_not_bound",
        "lost_no_edge",
    ]


def test_the_suite_prints_one_row_per_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--suite", "--json"]) == 0
    rows = {row["corpus"]: row for row in json.loads(capsys.readouterr().out)}
    assert "sample" in rows  # the real corpora too where ../shared is present
    for row in rows.values():
        lost = sum(row[stage] for stage in STAGES)
        assert 0 <= lost <= row["gold_stated"]
        assert row["recall"] == pytest.approx((row["gold_stated"] - lost) / row["gold_stated"])
    for corpus in ("zulip-docs", "thanos-docs", "tidb-docs-zh", "dolphinscheduler-docs-zh"):
        if corpus in rows:
            assert rows[corpus]["components_labelled"] == 30
