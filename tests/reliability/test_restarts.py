"""Kill -> restart, again and again, with writes in flight.

The test's own managed server is SIGKILLed twenty times while two writers are
adding nodes to two graphs. After every restart: it is back on its address (the
read-only user's URL still names it), every write the server acknowledged is
there (nothing half-written: a node carries both its properties or is absent),
the read-only user reads and still cannot write, and exactly one server process
works in the data directory. After the last stop, none does.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field

import pytest
import redis

from tests.reliability.conftest import TALLY, OwnServer
from zehn.config import Settings
from zehn.errors import AccessDenied
from zehn.store import processes
from zehn.store.access import create_readonly_user, user_url
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

CYCLES = 20
BUDGET_S = 90.0  # the cycles stop early (and the test fails) past this
WRITES_PER_CYCLE = 150  # per writer: keeps the AOF replay short
PASSWORD = "restart-cycle-password"
GRAPHS = ("cycled_a", "cycled_b")


@dataclass
class _Writer:
    """Adds ``(:W {n, twin})`` nodes to one graph until told to stop or the server dies."""

    port: int
    graph: str
    start_at: int
    acknowledged: list[int] = field(default_factory=list)
    attempted: list[int] = field(default_factory=list)

    def run(self, stop: threading.Event) -> None:
        connection = redis.Redis(port=self.port, socket_timeout=5)
        try:
            for n in range(self.start_at, self.start_at + WRITES_PER_CYCLE):
                if stop.is_set():
                    return
                self.attempted.append(n)
                connection.execute_command(
                    "GRAPH.QUERY", self.graph, f"CREATE (:W {{n: {n}, twin: {n}}})"
                )
                self.acknowledged.append(n)
        except (redis.ConnectionError, redis.TimeoutError):
            return  # the kill came mid-call: that write's fate is unknown
        finally:
            connection.close()


def _stored(client: GraphClient, graph: str) -> set[int]:
    rows = client.read(graph, "MATCH (w:W) RETURN w.n, w.twin").rows
    assert all(n == twin for n, twin in rows), "a node was half written"
    return {int(n) for n, _ in rows}


def test_twenty_kills_and_restarts_with_writes_in_flight(
    own_server: OwnServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = f"ZEHN_RESTART_CYCLE={uuid.uuid4().hex}"  # every server started here inherits it
    monkeypatch.setenv(*marker.split("=", 1))
    admin = GraphClient.connect(own_server.settings)
    for graph in GRAPHS:
        admin.write(graph, "CREATE (:W {n: -1, twin: -1})")
    create_readonly_user(admin, "cycle_reader", PASSWORD)
    url = user_url(admin, "cycle_reader", PASSWORD)
    admin.close()
    address = own_server.ensure().port
    acknowledged = {graph: {-1} for graph in GRAPHS}
    attempted = {graph: {-1} for graph in GRAPHS}
    started = time.monotonic()
    for cycle in range(CYCLES):
        assert time.monotonic() - started < BUDGET_S, f"only {cycle} cycles in {BUDGET_S} s"
        writers = [_Writer(address, g, cycle * WRITES_PER_CYCLE) for g in GRAPHS]
        stop = threading.Event()
        threads = [threading.Thread(target=w.run, args=(stop,)) for w in writers]
        for thread in threads:
            thread.start()
        time.sleep(0.05 + 0.01 * (cycle % 5))  # kill at varying points of the writes
        own_server.kill()
        stop.set()
        for thread, writer in zip(threads, writers, strict=True):
            thread.join(10)
            acknowledged[writer.graph].update(writer.acknowledged)
            attempted[writer.graph].update(writer.attempted)
        info = own_server.ensure()
        assert info.port == address, f"cycle {cycle}: restarted elsewhere"
        _check_after_restart(own_server, url, acknowledged, attempted)
        TALLY["faults: kill -> restart cycles with writes in flight"] += 1
    TALLY["faults: acknowledged writes found after the cycles"] += sum(
        len(ids) for ids in acknowledged.values()
    )
    own_server.manager.stop()
    assert processes.servers_in(own_server.manager.data_dir) == []
    assert processes.servers_marked(marker) == [], "a server started here is still running"


def _check_after_restart(
    own_server: OwnServer,
    url: str,
    acknowledged: dict[str, set[int]],
    attempted: dict[str, set[int]],
) -> None:
    client = GraphClient.connect(own_server.settings)
    try:
        for graph in GRAPHS:
            stored = _stored(client, graph)
            assert acknowledged[graph] <= stored, f"{graph}: acknowledged writes lost"
            assert stored <= attempted[graph], f"{graph}: nodes nobody wrote"
    finally:
        client.close()
    reader = GraphClient.connect(Settings(falkordb_url=url))
    try:
        assert reader.read(GRAPHS[0], "MATCH (w:W {n: -1}) RETURN count(w)").scalar() == 1
        with pytest.raises(AccessDenied):
            reader.write(GRAPHS[0], "CREATE (:Pwned)")
    finally:
        reader.close()
    assert processes.servers_in(own_server.manager.data_dir) == [own_server.ensure().pid]
