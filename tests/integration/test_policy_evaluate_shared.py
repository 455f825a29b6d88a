"""``zehn policy evaluate`` on shared real corpora with a small hand audit (issue 29): every CALLS
edge the rules reader makes on otel-demo (43) and airflow-docs (19), each sentence read by hand
and labelled (``tests/fixtures/audits``). Skipped with a reason when ../shared is absent."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.review.audit import AuditStore
from zehn.review.policy_eval import TOO_FEW, WALK, evaluate_policy
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SHARED = REPO.parent / "shared" / "corpora"
AUDITS = REPO / "tests" / "fixtures" / "audits"


def _audited(client: GraphClient, corpus: str, docs: Path, tmp_path: Path) -> Iterator[str]:
    if not docs.is_dir():
        pytest.skip(f"{docs} is absent (the shared corpora are not mounted)")
    graph = build_graph(client, f"audit_{corpus.replace('-', '_')}", docs, "rules").graph
    labels = tmp_path / f"{corpus}.csv"
    with (AUDITS / f"{corpus}-calls.csv").open(encoding="utf-8") as source:
        rows = list(csv.DictReader(source))
    with labels.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({**row, "graph": graph} for row in rows)
    AuditStore(client).import_csv(labels)
    yield graph
    client.delete_graph(graph)


@pytest.fixture
def otel(client: GraphClient, tmp_path: Path) -> Iterator[str]:
    yield from _audited(client, "otel-demo", SHARED / "otel-demo" / "docs", tmp_path)


@pytest.fixture
def airflow(client: GraphClient, tmp_path: Path) -> Iterator[str]:
    yield from _audited(client, "airflow-docs", SHARED / "airflow-docs" / "docs", tmp_path)


def test_otel_demos_calls_are_audited_correct_and_proposed_for_walking(
    client: GraphClient, otel: str
) -> None:
    evaluation = evaluate_policy(client, otel, load_policy("production"))
    (calls,) = [p for p in evaluation.predicates if p.predicate == "CALLS"]
    assert calls.audited >= 40 and calls.correct == calls.audited  # labels of current edges
    assert calls.low is not None and calls.low >= 0.9 and calls.proposal == WALK
    assert not calls.walked  # production as shipped keeps CALLS off: this graph says walk


def test_airflows_calls_are_too_few_to_decide(client: GraphClient, airflow: str) -> None:
    evaluation = evaluate_policy(client, airflow, load_policy("production"))
    (calls,) = [p for p in evaluation.predicates if p.predicate == "CALLS"]
    assert 0 < calls.audited < 30 and calls.correct < calls.audited
    assert calls.proposal == TOO_FEW
