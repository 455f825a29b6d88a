"""The evaluation harness on the sample gold set: the figures it reports hold."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.cli import EXIT_OK, main
from zehn.config import Settings
from zehn.evaluate.harness import evaluate, evaluate_grid
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.policy import load_policy
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


def test_sample_gold_scores(client: GraphClient, graph_name: str) -> None:
    report = build_graph(client, graph_name, SAMPLE, "rules")
    result = evaluate(
        client, report.graph, load_policy("production"), OfflineModel(), SAMPLE / "gold"
    )
    metrics = result.metrics()
    assert metrics["questions"] == 51
    assert metrics["abstained_when_unanswerable"] == 1.0
    assert metrics["fabricated_citations_in_answers"] == 0
    assert metrics["status_accuracy"] >= 0.9
    assert metrics["grader_agreement"] >= 0.9
    assert 0.0 <= metrics["citation_precision"] <= 1.0 and 0.0 <= metrics["citation_recall"] <= 1.0
    frame = result.to_frame()
    assert len(frame) == 51 and set(frame["gold_status"]) == {"answered", "abstained", "ambiguous"}


def test_grid_runs_on_any_corpus_with_a_gold_folder(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = tmp_path / "tiny"
    (corpus / "sources").mkdir(parents=True)
    (corpus / "gold").mkdir()
    shutil.copy(SAMPLE / "catalog.yaml", corpus / "catalog.yaml")
    (corpus / "sources" / "a.md").write_text("# A\n\nThe indexer feeds search-api.\n", "utf-8")
    build_graph(client, graph_name, corpus, "rules")
    sentence = str(
        client.read(
            f"{graph_name}__rules",
            "MATCH (s:Sentence) WHERE s.text STARTS WITH 'The indexer' RETURN s.id",
        ).scalar()
    )
    (corpus / "gold" / "relations.yaml").write_text(
        "relations:\n- {subject: indexer, predicate: FEEDS, object: search-api, "
        f"sentence: '{sentence}', quote: 'The indexer feeds search-api.', grade: source-supported}}\n",
        "utf-8",
    )
    (corpus / "gold" / "questions.yaml").write_text(
        "questions:\n"
        f"- {{id: t1, question: 'What depends on the indexer?', status: answered, entities: [indexer, search-api], citations: [{{sentence: '{sentence}'}}]}}\n"
        "- {id: t2, question: 'What does billing depend on?', status: abstained, entities: [billing], citations: []}\n",
        "utf-8",
    )
    frame = evaluate_grid(
        client, corpus, ["rules"], [load_policy("production")], OfflineModel(), corpus=graph_name
    )
    row = frame.iloc[0]
    assert row["status_accuracy"] == 1.0 and row["citation_recall"] == 1.0
    assert row["citation_precision"] == 1.0 and row["grader_agreement"] == 1.0


def test_zehn_eval_prints_json(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ZEHN_HOME", str(settings.home))
    assert main(["eval", "--strategy", "rules", "--json"]) == EXIT_OK
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["strategy"] == "rules" and rows[0]["abstained_when_unanswerable"] == 1.0
