"""The evaluation harness on the sample gold set: the figures it reports hold."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.cli import EXIT_OK, main
from zehn.config import Settings
from zehn.engine.answer import Status
from zehn.evaluate.harness import evaluate, evaluate_grid
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


def test_sample_gold_scores(client: GraphClient, graph_name: str) -> None:
    report = build_graph(client, graph_name, SAMPLE, "rules")
    result = evaluate(
        client, report.graph, load_policy("production"), OfflineModel(), SAMPLE / "gold"
    )
    metrics = result.metrics()
    assert metrics["questions"] == 72
    assert metrics["abstained_when_unanswerable"] == 1.0
    assert metrics["fabricated_citations_in_answers"] == 0
    assert metrics["status_accuracy"] >= 0.9
    assert metrics["grader_agreement"] >= 0.9
    # the regression baseline: every citation is a gold sentence, every claim is cited
    assert metrics["citation_precision"] == metrics["citation_recall"] == 1.0
    frame = result.to_frame()
    assert len(frame) == 72 and set(frame["gold_status"]) == set(Status) - {Status.ERROR}
    assert frame["language"].value_counts().to_dict() == {"en": 51, "zh": 21}


def test_sample_gold_scores_per_language(client: GraphClient, graph_name: str) -> None:
    """Chinese and English questions reported apart; the English figures are those of before."""
    report = build_graph(client, graph_name, SAMPLE, "rules")
    result = evaluate(
        client, report.graph, load_policy("production"), OfflineModel(), SAMPLE / "gold"
    )
    en, zh = result.metrics("en"), result.metrics("zh")
    assert (en["questions"], en["answered"], en["gold_answered"]) == (51, 27, 28)
    assert (en["abstained_of_unanswerable"], en["gold_unanswerable"]) == (18, 18)
    assert (en["ambiguous_of_ambiguous"], en["gold_ambiguous"]) == (5, 5)
    assert (zh["questions"], zh["answered"], zh["gold_answered"]) == (21, 12, 12)
    assert (zh["abstained_of_unanswerable"], zh["gold_unanswerable"]) == (7, 7)
    assert (zh["ambiguous_of_ambiguous"], zh["gold_ambiguous"]) == (2, 2)
    for figures in (en, zh):
        assert figures["fabricated_citations_in_answers"] == 0
        assert figures["citation_precision"] == figures["citation_recall"] == 1.0
        assert figures["grader_agreement"] >= 0.95
    frame = result.by_language()
    assert list(frame["language"]) == ["all", "en", "zh"]
    assert list(frame["questions"]) == [72, 51, 21]


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
    assert [row["language"] for row in rows] == ["all", "en", "zh"]


def test_a_gold_folder_of_a_corpus_kept_elsewhere_is_evaluated(
    client: GraphClient, graph_name: str
) -> None:
    """data/gold/<corpus> style: questions.yaml beside a corpus-format relations.yaml whose
    `corpus:` says where the sources are (here the invented fixture corpus)."""
    gold = REPO / "tests" / "fixtures" / "real_gold" / "gold"
    frame = evaluate_grid(
        client, gold, ["rules"], [load_policy("production")], OfflineModel(), corpus=graph_name
    )
    (row,) = frame[frame["language"] == "all"].to_dict("records")
    assert (row["questions"], row["gold_answered"], row["gold_unanswerable"]) == (3, 1, 2)
    assert row["abstained_when_unanswerable"] == 1.0
    assert row["answerable_with_gold_citation"] == 1.0
    assert row["answered_without_gold_sentence"] == 0.0
    assert row["fabricated_citations_in_answers"] == 0


def test_a_gold_citation_is_found_by_its_quote_when_its_offsets_moved(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    """A loader change moves a sentence's offsets, so the id a gold question was labelled
    with no longer exists; the citation is found again by its file and verbatim quote."""
    source = REPO / "tests" / "fixtures" / "real_gold" / "gold"
    gold = tmp_path / "gold"
    gold.mkdir()
    for name in ("catalog.yaml", "relations.yaml"):
        shutil.copy(source / name, gold / name)
    moved = (source / "questions.yaml").read_text(encoding="utf-8")
    moved = moved.replace("doc/services/ledger-md#18-67", "doc/services/ledger-md#45-94")
    root = str(REPO / "tests" / "fixtures" / "real_gold" / "corpus")
    moved = moved.replace("corpus: tests/fixtures/real_gold/corpus", f"corpus: {root}")
    (gold / "questions.yaml").write_text(moved, encoding="utf-8")
    relations = (source / "relations.yaml").read_text(encoding="utf-8")
    (gold / "relations.yaml").write_text(
        relations.replace("corpus: tests/fixtures/real_gold/corpus", f"corpus: {root}"),
        encoding="utf-8",
    )
    frame = evaluate_grid(
        client, gold, ["rules"], [load_policy("production")], OfflineModel(), corpus=graph_name
    )
    (row,) = frame[frame["language"] == "all"].to_dict("records")
    assert row["answerable_with_gold_citation"] == 1.0
    assert row["answered_without_gold_sentence"] == 0.0


def test_a_graph_an_older_reader_built_is_rebuilt_before_it_is_scored(
    client: GraphClient, graph_name: str
) -> None:
    gold = REPO / "tests" / "fixtures" / "real_gold" / "gold"

    def build_state() -> str:
        frame = evaluate_grid(
            client, gold, ["rules"], [load_policy("production")], OfflineModel(), corpus=graph_name
        )
        return str(frame["graph_build"].iloc[0])

    assert build_state() == "built"
    assert build_state() == "reused"
    graph = f"{graph_name}__rules"
    client.write(graph, "MATCH (m:Meta {id: 'graph'}) SET m.fingerprint = 'rules:older:none'")
    assert build_state() == "rebuilt: built by an older reader"
    assert build_state() == "reused"
