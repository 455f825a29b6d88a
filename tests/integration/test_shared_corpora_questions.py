"""The question sets of the shared real corpora (data/gold/<corpus>/questions.yaml, labelled
before tuning), asked of their ``rules`` graphs with the offline model under ``production``.

Every corpus: no fabricated citation. Those the question work was measured on are held to
the targets of the question side: every unanswerable question abstained, at most 5 % of answerable questions answered without any gold sentence,
and at least 70 % answered with a gold citation. Skipped with a reason where ../shared is
absent. About 3 s per corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from zehn.evaluate.gold import load_gold
from zehn.evaluate.harness import evaluate_grid
from zehn.evidence.policy import load_policy
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
# Held to the targets: the corpora the question work was measured on. The four added for the
# discovery issue have first looks (docs/evaluation.md#first-looks) and are held to the trust
# invariants only (no fabricated citation, a quarter unanswerable) until the questions issue
# works on them.
HELD_TO_TARGETS = {"otel-demo", "airflow-docs", "dubbo-docs-zh"}
GOLD = Path(__file__).resolve().parents[2] / "data" / "gold"
CORPORA = sorted(p.name for p in GOLD.iterdir() if (p / "questions.yaml").is_file())


@pytest.mark.parametrize("corpus", CORPORA)
def test_shared_corpus_questions_meet_the_targets(
    client: GraphClient, graph_name: str, corpus: str
) -> None:
    root = load_gold(GOLD / corpus).corpus_root
    if root is None or not root.is_dir():
        pytest.skip(f"{corpus}: the shared corpus is not at {root} (../shared absent)")
    frame = evaluate_grid(
        client,
        GOLD / corpus,
        ["rules"],
        [load_policy("production")],
        OfflineModel(),
        corpus=graph_name,
    )
    (row,) = frame[frame["language"] == "all"].to_dict("records")
    figures = {k: row[k] for k in frame.columns if isinstance(row[k], int | float)}
    print(f"\n{corpus}: {figures}")
    assert row["gold_unanswerable"] >= row["questions"] / 4, "a quarter should be unanswerable"
    assert row["fabricated_citations_in_answers"] == 0, figures
    if corpus not in HELD_TO_TARGETS:
        return
    assert row["abstained_when_unanswerable"] == 1.0, figures
    assert row["answered_without_gold_sentence"] <= 0.05, figures
    assert row["answerable_with_gold_citation"] >= 0.7, figures
