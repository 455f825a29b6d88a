"""Investigation history in the workbench graph: order, round trip, errors, durability."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.config import Settings
from zehn.engine import Engine
from zehn.engine.answer import Citation, CitedAnswer
from zehn.errors import ZehnError
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.review.history import WORKBENCH_GRAPH, History, HistoryNotFound
from zehn.store.client import GraphClient
from zehn.store.health import graph_stats
from zehn.store.server import ManagedServer

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"
QUESTION = "If I change origin-mapper, what breaks?"


def _answer(question: str, status: str = "answered", quote: str = "a depends on b.") -> CitedAnswer:
    citation = Citation(1, "notes/x#0-15", "notes/x", "notes", "X <notes>", quote, (0, 15))
    return CitedAnswer(
        question=question,
        status=status,
        answer=f"{question} → [1]",
        reason=None if status == "answered" else "no evidence",
        graph="sample__rules",
        policy={"name": "production", "mode": "production"},
        model="offline",
        citations=(citation,) if status == "answered" else (),
    )


@pytest.fixture
def workbench(client: GraphClient) -> Iterator[str]:
    """A workbench graph of this test's own, so other tests' history never mixes in."""
    name = f"t_workbench_{uuid.uuid4().hex[:8]}"
    yield name
    if client.graph_exists(name):
        client.delete_graph(name)


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, f"hist_{uuid.uuid4().hex[:6]}", SAMPLE, "rules")
    yield report.graph
    client.delete_graph(report.graph)
    client.close()


def test_list_is_newest_first_and_load_returns_each_contract(
    client: GraphClient, workbench: str
) -> None:
    history = History(client, workbench)
    assert history.list() == []
    start = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    ids = [
        history.save(_answer(f"question {i}"), asked_at=start + timedelta(minutes=i))
        for i in range(3)
    ]
    entries = history.list()
    assert [e.id for e in entries] == ids[::-1]
    assert [e.question for e in entries] == ["question 2", "question 1", "question 0"]
    assert entries[0].asked_at.startswith("2025-03-01T09:02:00")
    assert entries[0].status == "answered" and entries[0].policy == "production"
    assert entries[0].graph == "sample__rules"
    assert [e.id for e in history.list(limit=2)] == ids[:0:-1]
    for i, investigation_id in enumerate(ids):
        assert investigation_id.startswith(f"20250301T09{i:02d}00")
        assert history.load(investigation_id)["question"] == f"question {i}"
    frame = history.to_frame()
    assert list(frame["id"]) == ids[::-1]
    assert list(frame.columns)[:6] == ["id", "asked_at", "question", "status", "graph", "policy"]


def test_saves_without_a_given_time_keep_their_order_and_never_overwrite(
    client: GraphClient, workbench: str
) -> None:
    history = History(client, workbench)
    same = _answer("same question")
    first, second = history.save(same), history.save(same)
    assert first != second
    assert [e.id for e in history.list()] == [second, first]
    count = client.read(workbench, "MATCH (i:Investigation) RETURN count(i)").scalar()
    assert count == 2


def test_the_engine_contract_round_trips_exactly(
    client: GraphClient, workbench: str, sample_graph: str
) -> None:
    engine = Engine(client, sample_graph, load_policy("production"), OfflineModel())
    answer = engine.ask(QUESTION)
    assert answer.status == "answered" and answer.citations
    history = History(client, workbench)
    investigation_id = history.save(answer)
    stored = history.load(investigation_id)
    assert stored == json.loads(json.dumps(answer.to_dict()))
    assert [c["quote"] for c in stored["citations"]] == [c.quote for c in answer.citations]
    node = client.read(
        workbench,
        "MATCH (i:Investigation {id: $id}) RETURN i.question, i.status, i.graph, i.policy, i.model",
        {"id": investigation_id},
    ).rows[0]
    assert node == (QUESTION, "answered", sample_graph, "production", answer.model)


def test_hostile_text_is_stored_as_data(client: GraphClient, workbench: str) -> None:
    history = History(client, workbench)
    nasty = "x'}) DETACH DELETE i //\" <script>alert(1)</script> 依存"
    investigation_id = history.save(_answer(nasty, quote=nasty))
    assert history.load(investigation_id)["citations"][0]["quote"] == nasty
    assert history.list()[0].question == nasty


def test_unknown_id_is_a_zehn_error_naming_the_id(client: GraphClient, workbench: str) -> None:
    history = History(client, workbench)
    with pytest.raises(HistoryNotFound, match="no-such-id") as caught:
        history.load("no-such-id")  # the graph does not even exist yet
    assert isinstance(caught.value, ZehnError)
    history.save(_answer("q"))
    with pytest.raises(HistoryNotFound, match="20990101T000000"):
        history.load("20990101T000000.000000Z-deadbeef")


def test_the_id_is_indexed(client: GraphClient, workbench: str) -> None:
    History(client, workbench).save(_answer("q"))
    rows = client.read(
        workbench, "CALL db.indexes() YIELD label, properties RETURN label, properties"
    ).rows
    assert ("Investigation", ["id"]) in [(label, list(props)) for label, props in rows]


def test_saving_changes_no_graph_but_the_workbench_graph(
    client: GraphClient, workbench: str, sample_graph: str
) -> None:
    assert sample_graph in client.list_graphs()
    before = {name: graph_stats(client, name) for name in client.list_graphs()}
    History(client, workbench).save(_answer("q"))
    after = {name: graph_stats(client, name) for name in client.list_graphs()}
    assert set(after) == set(before) | {workbench}
    assert {k: v for k, v in after.items() if k != workbench} == before
    assert after[workbench].nodes == {"Investigation": 1} and after[workbench].edges == {}


def test_records_survive_a_server_restart(tmp_path: Path) -> None:
    server = ManagedServer(tmp_path)
    try:
        settings = Settings(home=tmp_path)
        client = GraphClient.connect(settings)
        history = History(client)  # the real default graph, on a server of this test's own
        assert history.graph == WORKBENCH_GRAPH
        ids = [history.save(_answer(f"before restart {i}")) for i in range(2)]
        expected = {i: history.load(i) for i in ids}
        assert server.stop() is True
        client = GraphClient.connect(settings)  # starts a new server on the same data
        reloaded = History(client)
        assert [e.id for e in reloaded.list()] == ids[::-1]
        assert {i: reloaded.load(i) for i in ids} == expected
        later = reloaded.save(_answer("after restart"))
        assert reloaded.list()[0].id == later
        client.close()
    finally:
        server.stop()
