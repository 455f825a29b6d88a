"""Faults: FalkorDB killed mid-ingest and between questions, and a query that would never end.

Every kill is a SIGKILL of the test's own managed server (never the session's):
no save, no goodbye. What must hold:

- an ingest (or a whole extraction build) killed at any point and simply run
  again ends with a graph identical to an uninterrupted run;
- between two questions: the next answer is an explicit "graph unavailable"
  error (never an empty result), the workbench recovers once the server is
  back (on its old port, or on a new one), and history and audit labels
  written before the kill are intact (AOF);
- a pathological query (a dense hub, every predicate allowed by the
  evaluation policy) ends with a timeout error, never a hang.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.reliability.conftest import SAMPLE, TALLY, OwnServer
from tests.reliability.graphprint import GraphPrint, graph_print
from widgets.session import Session
from widgets.workbench import Workbench
from zehn.config import Settings
from zehn.engine import ANSWERED, ERROR, I_DONT_KNOW, Engine
from zehn.engine.tools import ToolExecutor
from zehn.errors import GraphUnavailable, QueryTimeout
from zehn.evidence.policy import load_policy
from zehn.extract.ingest import ingest_path
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.review.audit import AuditStore, read_items
from zehn.review.history import History
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer

pytestmark = pytest.mark.integration

QUESTION = "If I change origin-mapper, what breaks?"
OTHER_QUESTION = "What depends on the indexer?"
SOURCES = SAMPLE / "sources"
INGEST_S: list[float] = []  # how long the reference ingest took


# --- kill during an ingest --------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, GraphPrint]]:
    """Uninterrupted runs on a server of their own: a plain ingest and a rules build."""
    home = tmp_path_factory.mktemp("reference-home")
    client = GraphClient.connect(Settings(home=home))
    try:
        started = time.perf_counter()
        ingest_path(client, "plain", SOURCES)
        INGEST_S.append(time.perf_counter() - started)
        build = build_graph(client, "sample", SAMPLE, "rules")
        yield {"plain": graph_print(client, "plain"), "build": graph_print(client, build.graph)}
    finally:
        client.close()
        ManagedServer(home).stop()


class _KillAfter:
    """A progress bar (as ingest takes one) that SIGKILLs the server after ``files`` files."""

    def __init__(self, server: OwnServer, files: int) -> None:
        self.server = server
        self.files = files
        self.seen = 0
        self.killed = False

    def __call__(self, total: int) -> _KillAfter:
        return self

    def update(self, n: int) -> None:
        self.seen += n
        if self.seen >= self.files and not self.killed:
            self.killed = True
            self.server.kill()

    def close(self) -> None:
        pass


def _kill_later(server: OwnServer, after_s: float) -> threading.Thread:
    """SIGKILL the server from another thread while the ingest is writing."""

    def run() -> None:
        time.sleep(after_s)
        server.kill()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("files", [1, 17, 45])
def test_an_ingest_killed_between_files_ends_identical_after_a_rerun(
    own_server: OwnServer, reference: dict[str, GraphPrint], files: int
) -> None:
    client = GraphClient.connect(own_server.settings)
    with pytest.raises(GraphUnavailable):
        ingest_path(client, "plain", SOURCES, progress=_KillAfter(own_server, files))
    TALLY["faults: server killed during an ingest (between files)"] += 1
    again = GraphClient.connect(own_server.settings)  # restarts the server: AOF replayed
    report = ingest_path(again, "plain", SOURCES)
    assert report.documents > 0 and not report.skipped
    assert graph_print(again, "plain") == reference["plain"]


@pytest.mark.parametrize("share", [0.1, 0.4, 0.7])
def test_an_ingest_killed_mid_write_ends_identical_after_a_rerun(
    own_server: OwnServer, reference: dict[str, GraphPrint], share: float
) -> None:
    """Killed from another thread at a share of an uninterrupted ingest's time: mid-query."""
    client = GraphClient.connect(own_server.settings)
    killer = _kill_later(own_server, share * INGEST_S[0])
    try:
        ingest_path(client, "plain", SOURCES)
    except GraphUnavailable:
        TALLY["faults: server killed during an ingest (mid-write, timed)"] += 1
    else:
        TALLY["faults: timed kill after the ingest had finished"] += 1
    killer.join(10)
    again = GraphClient.connect(own_server.settings)
    ingest_path(again, "plain", SOURCES)
    assert graph_print(again, "plain") == reference["plain"]


@pytest.mark.parametrize("files", [5, 40])
def test_an_extraction_build_killed_midway_ends_identical_after_a_rerun(
    own_server: OwnServer, reference: dict[str, GraphPrint], files: int
) -> None:
    client = GraphClient.connect(own_server.settings)
    with pytest.raises(GraphUnavailable):
        build_graph(client, "sample", SAMPLE, "rules", progress=_KillAfter(own_server, files))
    TALLY["faults: server killed during an extraction build"] += 1
    again = GraphClient.connect(own_server.settings)
    report = build_graph(again, "sample", SAMPLE, "rules")
    assert report.swapped
    assert graph_print(again, report.graph) == reference["build"]
    assert again.list_graphs() == [report.graph], "a staging graph was left behind"


# --- kill between two questions ---------------------------------------------------------------


def _workbench(client: GraphClient, graph: str) -> Workbench:
    session = Session(client.settings, client, graph=graph, policy=load_policy("production"))
    return Workbench(session)


def _history_questions(client: GraphClient) -> list[str]:
    return [e.question for e in History(client).list(100)]


def test_a_server_killed_between_questions_is_an_explicit_error_and_the_workbench_recovers(
    own_server: OwnServer,
) -> None:
    """Killed twice: back on its old port, then (that port taken) on a new one."""
    client = GraphClient.connect(own_server.settings)
    graph = build_graph(client, "sample", SAMPLE, "rules").graph
    bench = _workbench(client, graph)
    first = bench.ask.ask(QUESTION)
    assert first.status == ANSWERED and first.citations
    item = read_items(client, graph)[0]
    AuditStore(client).label(item, label="correct", reviewer="reliability")
    labels_before = AuditStore(client).labels(graph)
    expected = [QUESTION]
    assert _history_questions(client) == expected

    for same_port in (True, False):
        info = own_server.ensure()
        own_server.wait_for_aof(info)  # acknowledged = in the append-only file; then no mercy
        own_server.kill()
        TALLY["faults: server killed between two questions"] += 1

        down = bench.ask.ask(OTHER_QUESTION)
        assert down.status == ERROR and down.answer == I_DONT_KNOW and not down.citations
        assert "GraphUnavailable" in (down.reason or ""), down.reason
        assert 'data-status="error"' in bench.ask.result.value
        assert bench.history.pending == 1, "the answer given while down was dropped"
        assert "not saved yet" in bench.history.note.value
        engine = Engine(client, graph, load_policy("production"), OfflineModel())
        assert engine.ask(QUESTION).status == ERROR  # the engine itself: an error, not empty
        tools = ToolExecutor(client, graph, load_policy("production"))
        with pytest.raises(GraphUnavailable):
            tools.run("find_entities", {"text": "origin-mapper"})

        blocker = None if same_port else _occupy(info.port)
        try:
            back = own_server.ensure()
        finally:
            if blocker is not None:
                blocker.close()
        assert (back.port == info.port) is same_port

        again = bench.ask.ask(QUESTION)
        assert again.status == ANSWERED, again.reason
        assert [c.id for c in again.citations] == [c.id for c in first.citations]
        assert bench.history.pending == 0
        expected += [OTHER_QUESTION, QUESTION]
        recovered = _history_questions(client)
        assert sorted(recovered) == sorted(expected), recovered
        assert AuditStore(client).labels(graph) == labels_before
        TALLY["faults: restarts the workbench recovered from"] += 1
        TALLY["lost: history records after a kill"] += len(expected) - len(recovered)
        TALLY["lost: audit labels after a kill"] += len(labels_before) - len(
            AuditStore(client).labels(graph)
        )


def test_a_client_follows_the_managed_server_to_a_new_port(own_server: OwnServer) -> None:
    """A write refused before it was sent is sent once to the new server; nothing doubles."""
    client = GraphClient.connect(own_server.settings)
    client.write("kept", "CREATE (:N {i: 1})")
    own_server.wait_for_aof(own_server.ensure())
    info = own_server.kill()
    blocker = _occupy(info.port)
    try:
        back = own_server.ensure()
    finally:
        if blocker is not None:
            blocker.close()
    assert back.port != info.port
    client.write("kept", "CREATE (:N {i: 2})")
    assert client.server is not None and client.server.port == back.port
    assert client.read("kept", "MATCH (n:N) RETURN collect(n.i)").scalar() == [1, 2]
    assert client.list_graphs() == ["kept"]
    TALLY["faults: clients re-attached to a server restarted elsewhere"] += 1


def _occupy(port: int) -> socket.socket | None:
    """Hold the old port, so the restarted server must take another one.

    None when the port is held already: a connection still open to the killed server
    keeps it (FIN-WAIT-2) until that client closes, which forces a new port just as well.
    """
    deadline = time.monotonic() + 2  # the killed server may still be closing its socket
    while True:
        holder = socket.socket()
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME_WAIT ones
        try:
            holder.bind(("127.0.0.1", port))
        except OSError:
            holder.close()
            if time.monotonic() > deadline:
                return None
            time.sleep(0.02)
            continue
        holder.listen(1)
        return holder


# --- a query that would never end --------------------------------------------------------------


def _dense_hub(client: GraphClient, graph: str, spokes: int, parallel: int) -> None:
    """A hub joined to each spoke by ``parallel`` edges of every impact predicate.

    Every first hop passes the evaluation policy's filter, and every second hop
    leads back to the hub and is rejected only after it was walked: millions of
    candidate paths, none of them a result, so no LIMIT ends the query early.
    """
    policy = load_policy("evaluation")
    reverse = list(policy.impact_predicates("reverse"))
    forward = list(policy.impact_predicates("forward"))
    client.write(graph, "CREATE (:Entity {id: 'service:hub', name: 'hub', kind: 'service'})")
    client.write(
        graph,
        "UNWIND range(1, $n) AS i CREATE (:Entity {id: 'service:spoke' + toString(i), "
        "name: 'spoke' + toString(i), kind: 'service'})",
        {"n": spokes},
    )
    edge = "[:RELATES {key: s.id + p + toString(j), rel_type: p, sentence_id: s.id, doc_id: s.id}]"
    for predicates, pattern in ((reverse, f"(s)-{edge}->(h)"), (forward, f"(h)-{edge}->(s)")):
        client.write(
            graph,
            "MATCH (h:Entity {id: 'service:hub'}), (s:Entity) WHERE s.id <> h.id "
            "UNWIND range(1, $m) AS j WITH h, s, j, $predicates[j % size($predicates)] AS p "
            f"CREATE {pattern}",
            {"m": parallel // 2, "predicates": predicates},
        )


def _within(seconds: float, call: Callable[[], Any]) -> Any:
    """Run ``call`` in a thread; fail (instead of hanging the suite) if it takes longer."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as e:  # handed to the test thread
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: a hang"
    box["elapsed"] = time.monotonic() - started
    if "error" in box:
        raise box["error"]
    return box


def test_a_pathological_query_ends_with_a_timeout_error_never_a_hang(
    settings: Settings, graph_name: str
) -> None:
    admin = GraphClient.connect(settings)
    _dense_hub(admin, graph_name, spokes=4, parallel=1500)
    edges = admin.read(graph_name, "MATCH ()-[r]->() RETURN count(r)").scalar()
    assert edges >= 5000
    timeout_ms = 300
    client = GraphClient.connect(settings.with_changes(query_timeout_ms=timeout_ms))
    evaluation = load_policy("evaluation")
    tools = ToolExecutor(client, graph_name, evaluation)

    def walk() -> None:
        tools.run("downstream_impact", {"entity_id": "service:hub", "depth": 3})

    with pytest.raises(QueryTimeout) as caught:
        _within(30, walk)
    assert caught.value.timeout_ms == timeout_ms
    TALLY["faults: pathological queries that timed out"] += 1

    engine = Engine(client, graph_name, evaluation, OfflineModel())
    outcome = _within(60, lambda: engine.ask("If I change hub, what breaks?"))
    answer = outcome["value"]
    assert answer.status == ERROR and answer.answer == I_DONT_KNOW, answer.reason
    assert "QueryTimeout" in (answer.reason or ""), answer.reason
    assert [r.error for r in answer.tool_calls if r.error], "the timed-out call is recorded"
    TALLY["faults: pathological investigations ended by a timeout"] += 1
    TALLY["faults: slowest pathological investigation (ms)"] = max(
        TALLY["faults: slowest pathological investigation (ms)"], int(outcome["elapsed"] * 1000)
    )
