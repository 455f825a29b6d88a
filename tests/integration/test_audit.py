"""Reviewer audit against a real FalkorDB: sampling, durable labels, CSV, statistics, summary."""

from __future__ import annotations

import csv
import re
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.config import Settings
from zehn.errors import GraphNotFound, ZehnError
from zehn.evidence.grade import SUPPORTED, Grader, Negation, supersede
from zehn.extract.pipeline import build_graph
from zehn.reading.model import Entity
from zehn.review.audit import CSV_COLUMNS, LABELS, AuditError, AuditStore, read_items, read_negated
from zehn.review.history import WORKBENCH_GRAPH
from zehn.review.stats import Share, audit_stats, audit_summary, sample_edges, wilson
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"
GOLD_LABELS = SAMPLE / "gold" / "audit_labels.csv"


@pytest.fixture(scope="module")
def graphs(settings: Settings) -> Iterator[dict[str, str]]:
    """``rules`` and ``cooccurrence`` graphs of the sample corpus, built once for this module."""
    client = GraphClient.connect(settings)
    corpus = f"audit_{uuid.uuid4().hex[:6]}"
    built = {s: build_graph(client, corpus, SAMPLE, s).graph for s in ("rules", "cooccurrence")}
    yield built
    for graph in built.values():
        client.delete_graph(graph)
    client.close()


@pytest.fixture
def store(client: GraphClient) -> Iterator[AuditStore]:
    """A workbench graph of this test's own, so other tests' labels never mix in."""
    workbench = f"t_audit_wb_{uuid.uuid4().hex[:8]}"
    yield AuditStore(client, workbench)
    if client.graph_exists(workbench):
        client.delete_graph(workbench)


def _predicates(client: GraphClient, graph: str) -> set[str]:
    rows = client.read(graph, "MATCH ()-[r:RELATES]->() RETURN DISTINCT r.rel_type").rows
    return {str(row[0]) for row in rows}


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


# --- sampling -------------------------------------------------------------------


def test_every_predicate_is_sampled_when_n_allows(
    client: GraphClient, graphs: dict[str, str]
) -> None:
    for strategy, graph in graphs.items():
        predicates = _predicates(client, graph)
        exact = sample_edges(client, graph, len(predicates), seed=3)
        assert sorted(i.rel_type for i in exact) == sorted(predicates)  # one per stratum
        sample = sample_edges(client, graph, 30, seed=3)
        assert len(sample) == len({i.key for i in sample}) == 30
        assert {i.rel_type for i in sample} == predicates
        assert {i.strategy for i in sample} == {strategy}
        assert all(i.graph == graph for i in sample)


def test_allocation_is_proportional_to_stratum_size(
    client: GraphClient, graphs: dict[str, str]
) -> None:
    graph = graphs["cooccurrence"]
    sizes = Counter(i.rel_type for i in read_items(client, graph))
    counts = Counter(i.rel_type for i in sample_edges(client, graph, 40, seed=0))
    largest, smallest = sizes.most_common()[0][0], sizes.most_common()[-1][0]
    assert counts[largest] >= round(40 * sizes[largest] / sizes.total()) - 1
    assert counts[largest] > counts[smallest] >= 1
    assert all(counts[p] <= sizes[p] for p in sizes)


def test_same_seed_same_sample_other_seed_other_sample(
    client: GraphClient, graphs: dict[str, str]
) -> None:
    graph = graphs["rules"]
    first = [i.key for i in sample_edges(client, graph, 20, seed=7)]
    again = [i.key for i in sample_edges(client, graph, 20, seed=7)]
    other = [i.key for i in sample_edges(client, graph, 20, seed=8)]
    assert first == again
    assert first != other and set(first) != set(other)


def test_small_and_large_samples(client: GraphClient, graphs: dict[str, str]) -> None:
    graph = graphs["rules"]
    everything = read_items(client, graph)
    assert {i.key for i in sample_edges(client, graph, 10_000)} == {i.key for i in everything}
    few = sample_edges(client, graph, 3, seed=1)
    assert len(few) == len({i.rel_type for i in few}) == 3  # fewer slots than strata
    with pytest.raises(AuditError, match="at least 1"):
        sample_edges(client, graph, 0)
    with pytest.raises(GraphNotFound):
        sample_edges(client, f"t_missing_{uuid.uuid4().hex[:6]}", 5)


def test_items_carry_what_the_reviewer_needs(client: GraphClient, graphs: dict[str, str]) -> None:
    for item in sample_edges(client, graphs["rules"], 30):
        assert item.text and item.title and item.source_type and item.doc_id
        assert item.sentence_id.startswith(item.doc_id + "#")
        assert item.subject_span is not None and item.object_span is not None
        end = item.sentence_start + len(item.text)
        for start, stop in (item.subject_span, item.object_span):
            assert item.sentence_start <= start < stop <= end
        assert item.subject_kind and item.object_kind and item.fact


# --- labels ---------------------------------------------------------------------


def test_a_second_save_replaces_the_first(
    client: GraphClient, graphs: dict[str, str], store: AuditStore
) -> None:
    item = sample_edges(client, graphs["rules"], 1)[0]
    store.label(item, label="unsure", reviewer="ana")
    saved = store.label(item, label="wrong_target", reviewer="bo", note="namesake")
    labels = store.labels(graphs["rules"])
    assert labels == [saved]
    assert (saved.label, saved.reviewer, saved.note, saved.strategy) == (
        "wrong_target", "bo", "namesake", "rules",
    )  # fmt: skip
    assert (saved.subject, saved.rel_type, saved.object) == (
        item.subject_id, item.rel_type, item.object_id,
    )  # fmt: skip
    assert store.labels("some_other_graph") == []
    indexes = client.read(store.graph, "CALL db.indexes() YIELD label, properties RETURN *").rows
    assert any(row[0] == "AuditLabel" and "edge_key" in row[1] for row in indexes)


def test_bad_labels_are_refused_and_nothing_is_written(
    client: GraphClient, graphs: dict[str, str], store: AuditStore
) -> None:
    item = sample_edges(client, graphs["rules"], 1)[0]
    with pytest.raises(AuditError, match="unknown label 'plausible'"):
        store.label(item, label="plausible", reviewer="ana")
    with pytest.raises(AuditError, match="reviewer"):
        store.label(item, label="correct", reviewer="  ")
    with pytest.raises(AuditError, match="strategy"):
        store.label("abc", graph="no_strategy_here", label="correct", reviewer="ana")
    assert issubclass(AuditError, ZehnError)
    assert store.labels() == []
    by_key = store.label("abc", graph=graphs["rules"], label="Wrong target entity", reviewer="x")
    assert (by_key.label, by_key.strategy) == ("wrong_target", "rules")  # title accepted


def test_labels_survive_a_re_extraction(
    client: GraphClient, graph_name: str, store: AuditStore
) -> None:
    graph = build_graph(client, graph_name, SAMPLE, "rules").graph
    sample = sample_edges(client, graph, 12, seed=5)
    for item in sample:
        store.label(item, label="correct", reviewer="ana")
    before = audit_stats(client, graph, store)
    build_graph(client, graph_name, SAMPLE, "rules", rebuild=True)
    after = audit_stats(client, graph, store)
    assert after.stale_keys == () and after.overall.labelled == 12
    assert after.to_dict() == before.to_dict()
    assert {i.key for i in read_items(client, graph, [i.key for i in sample])} == {
        i.key for i in sample
    }


def test_labels_survive_a_server_restart(tmp_path: Path) -> None:
    server = ManagedServer(tmp_path)
    try:
        settings = Settings(home=tmp_path)
        client = GraphClient.connect(settings)
        store = AuditStore(client)  # the real default graph, on a server of this test's own
        assert store.graph == WORKBENCH_GRAPH
        store.label("k1", graph="sample__rules", label="correct", reviewer="ana")
        store.label("k2", graph="sample__rules", label="not_asserted", reviewer="ana", note="plan")
        expected = store.labels()
        assert server.stop() is True
        client = GraphClient.connect(settings)  # a new server on the same data
        assert AuditStore(client).labels() == expected
        client.close()
    finally:
        server.stop()


# --- CSV ------------------------------------------------------------------------


def test_csv_round_trip(
    client: GraphClient, graphs: dict[str, str], store: AuditStore, tmp_path: Path
) -> None:
    for i, item in enumerate(sample_edges(client, graphs["cooccurrence"], 8)):
        note = 'comma, "quotes" and\nnewline <b>' if i == 0 else ""
        store.label(item, label=LABELS[i % len(LABELS)], reviewer="ana", note=note)
    path = tmp_path / "labels.csv"
    assert store.export_csv(path) == 8
    with path.open(encoding="utf-8", newline="") as handle:
        header = next(csv.reader(handle))
    assert tuple(header[: len(CSV_COLUMNS)]) == CSV_COLUMNS
    other = AuditStore(client, f"{store.graph}_copy")
    try:
        report = other.import_csv(path)
        assert (report.rows, report.written, report.graphs) == (8, 8, {graphs["cooccurrence"]: 8})
        assert other.labels() == store.labels()
        assert other.to_frame().shape == (8, len(CSV_COLUMNS) + 1)
    finally:
        client.delete_graph(other.graph)


@pytest.mark.skipif(not GOLD_LABELS.exists(), reason="no hand labels shipped")
def test_the_shipped_hand_labels_import(store: AuditStore) -> None:
    report = store.import_csv(GOLD_LABELS)
    assert report.written > 0
    assert set(report.graphs) <= {"sample__rules", "sample__cooccurrence"}
    assert {x.label for x in store.labels()} <= set(LABELS)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda h, r: (h, [*r[:1], [*r[1][:7], "plausible", *r[1][8:]]]), r"line 3: unknown label"),
        (
            lambda h, r: ([c for c in h if c != "reviewer"], [x[:-1] for x in r]),
            r"line 1: missing column\(s\) reviewer",
        ),
        (lambda h, r: (h, [r[0], r[1][:5]]), r"line 3: expected 10 fields, found 5"),
        (lambda h, r: (h, [r[0], [*r[1][:9], ""]]), r"line 3: a label needs the reviewer"),
        (lambda h, r: (h, [r[0], ["bad graph!", *r[1][1:]]]), r"line 3: invalid graph name"),
    ],
    ids=["unknown-label", "missing-column", "bad-line", "no-reviewer", "bad-graph"],
)
def test_a_malformed_csv_names_file_and_line_and_writes_nothing(
    store: AuditStore, tmp_path: Path, mutate: object, message: str
) -> None:
    good = [
        "sample__rules",
        "rules",
        "k1",
        "service:a",
        "CALLS",
        "service:b",
        "d#0-9",
        "correct",
        "",
        "ana",
    ]
    second = [
        "sample__rules",
        "rules",
        "k2",
        "service:a",
        "FEEDS",
        "service:b",
        "d#0-9",
        "unsure",
        "",
        "ana",
    ]
    header, rows = mutate(list(CSV_COLUMNS), [good, second])  # type: ignore[operator]
    path = _write_csv(tmp_path / "bad.csv", header, rows)
    with pytest.raises(AuditError, match=re.escape(str(path)) + ", " + message):
        store.import_csv(path)
    assert store.labels() == []


def test_a_csv_that_cannot_be_read_is_an_audit_error(store: AuditStore, tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="cannot read"):
        store.import_csv(tmp_path / "missing.csv")
    latin = tmp_path / "latin.csv"
    latin.write_bytes(
        ",".join(CSV_COLUMNS).encode() + b"\nsample__rules,rules,k,\xe9,C,o,s,correct,,a\n"
    )
    with pytest.raises(AuditError, match=r"latin\.csv"):
        store.import_csv(latin)
    assert store.labels() == []


# --- statistics -------------------------------------------------------------------


def test_wilson_known_values() -> None:
    low, high = wilson(9, 27)
    assert low == pytest.approx(0.1864, abs=5e-4) and high == pytest.approx(0.5218, abs=5e-4)
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=5e-4))
    assert wilson(10, 10) == (pytest.approx(0.7225, abs=5e-4), 1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    assert Share(9, 27).text("wrong") == "9 of 27 wrong (33%, 95% CI 19–52%)"
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_stats_shares_rates_agreement_and_stale_labels(
    client: GraphClient, graphs: dict[str, str], store: AuditStore
) -> None:
    graph = graphs["cooccurrence"]
    sample = sample_edges(client, graph, 12, seed=2)
    entities = client.read(graph, "MATCH (e:Entity) RETURN e.name, e.kind, e.aliases").rows
    grader = Grader([Entity(str(n), str(k), tuple(a or ())) for n, k, a in entities])
    negations = [
        Negation(e.source, e.rel_type, e.target, e.sentence_id, e.text, e.date, e.document, e.start)
        for e in (x.to_evidence() for x in read_negated(client, graph))
    ]
    wrong_agree = 0
    plan = ["wrong_target", "wrong_source", "wrong_predicate", "unsure"]
    for i, item in enumerate(sample):
        grade = supersede(grader.grade(item.to_evidence()), negations).label
        wrong_agree += i < 3 and grade != SUPPORTED
        supported = grade == SUPPORTED
        label = plan[i] if i < len(plan) else ("correct" if supported else "not_asserted")
        store.label(item, label=label, reviewer="ana")
    store.label("0" * 20, graph=graph, label="correct", reviewer="ana")  # no such edge: stale
    stats = audit_stats(client, graph, store)
    s = stats.strategies["cooccurrence"]
    assert (s.labelled, s.unsure, s.judged, s.stale) == (12, 1, 11, 1)
    assert stats.stale_keys == ("0" * 20,)
    assert s.wrong_entity == Share(2, 11) and s.share("wrong_predicate") == Share(1, 11)
    assert s.share("unsure") == Share(1, 12)
    correct = s.counts["correct"]
    assert s.errors == Share(11 - correct, 11)
    assert sum(s.confusion.values()) == 12
    # the last 8 follow the grader; the 3 wrong ones agree only where the grader did not support
    assert s.agreement == Share(8 + wrong_agree, 11)
    frame = stats.to_frame()
    assert set(frame["label"]) == set(LABELS) and (frame["low"] <= frame["high"]).all()
    assert stats.summary_frame().loc[0, "stale"] == 1
    assert stats.confusion_frame().to_numpy().sum() == 12


def test_agreement_is_complete_when_reviewers_follow_the_grader(
    client: GraphClient, graphs: dict[str, str], store: AuditStore
) -> None:
    graph = graphs["rules"]
    store.label(sample_edges(client, graph, 1)[0], label="correct", reviewer="ana")
    first = audit_stats(client, graph, store).overall
    grade, label = next(iter(first.confusion))
    assert label == "correct" and first.agreement == Share(int(grade == SUPPORTED), 1)


def test_summary_unaudited_and_audited_wording(
    client: GraphClient, graphs: dict[str, str], store: AuditStore
) -> None:
    graph = graphs["rules"]
    missing = AuditStore(client, f"t_no_workbench_{uuid.uuid4().hex[:6]}")
    assert audit_summary(client, graph, missing) == f"audit: graph {graph} is unaudited"
    assert audit_summary(client, graph, store) == f"audit: graph {graph} is unaudited"
    sample = sample_edges(client, graph, 10, seed=4)
    store.label(sample[0], label="unsure", reviewer="ana")
    assert audit_summary(client, graph, store) == (
        f"audit: graph {graph} is unaudited; 1 marked unsure (not counted)"
    )
    for item, label in zip(
        sample[1:], ["wrong_target", "wrong_source", "not_asserted"], strict=False
    ):
        store.label(item, label=label, reviewer="ana")
    for item in sample[4:]:
        store.label(item, label="correct", reviewer="ana")
    store.label("f" * 20, graph=graph, label="wrong_target", reviewer="ana")
    assert audit_summary(client, graph, store) == (
        "audit: 2 of 9 sampled edges bound to the wrong entity (22%, 95% CI 6–55%); "
        "3 of 9 wrong in any way (33%, 95% CI 12–65%); 1 marked unsure (not counted); "
        "1 stale label(s) not counted (edge no longer in the graph)"
    )


def test_summary_propagates_store_errors(client: GraphClient, store: AuditStore) -> None:
    missing = f"t_missing_{uuid.uuid4().hex[:6]}"
    store.label("k", graph=missing, strategy="rules", label="correct", reviewer="ana")
    with pytest.raises(GraphNotFound):
        audit_summary(client, missing, store)
