"""Kill -> restart, again and again, with writes in flight.

The test's own managed server is SIGKILLed twenty times while two writers are
adding nodes to two graphs. After every restart: it is back on its address (the
read-only user's URL still names it), every write that was in the append-only
file before the kill is there, no node is half written (it carries both its
properties or is absent) and none appears that nobody wrote (a write in flight
at the kill may be kept or not: with ``appendfsync everysec`` the server may
acknowledge a write up to about 2 s before it reaches the file),
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
    committed = {graph: {-1} for graph in GRAPHS}  # acknowledged and in the AOF before the kill
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
        time.sleep(0.03 + 0.01 * (cycle % 5))  # kill at varying points of the writes
        written = {w.graph: set(w.acknowledged) for w in writers}
        own_server.wait_for_aof(own_server.ensure())  # these are now in the append-only file
        time.sleep(0.02)  # and more are in flight
        own_server.kill()
        stop.set()
        for thread, writer in zip(threads, writers, strict=True):
            thread.join(10)
            committed[writer.graph].update(written[writer.graph])
            acknowledged[writer.graph].update(writer.acknowledged)
            attempted[writer.graph].update(writer.attempted)
        info = own_server.ensure()
        assert info.port == address, f"cycle {cycle}: restarted elsewhere"
        stored = _check_after_restart(own_server, url, committed, attempted)
        TALLY["faults: kill -> restart cycles with writes in flight"] += 1
    TALLY["faults: writes in the AOF before a kill, all found after it"] += sum(
        len(ids) for ids in committed.values()
    )
    TALLY["faults: writes acknowledged while in flight at a kill, not kept"] += sum(
        len(acknowledged[g] - stored[g]) for g in GRAPHS
    )  # appendfsync everysec: a write can be acknowledged before it reaches the AOF
    own_server.manager.stop()
    assert processes.servers_in(own_server.manager.data_dir) == []
    assert processes.servers_marked(marker) == [], "a server started here is still running"


def _check_after_restart(
    own_server: OwnServer,
    url: str,
    committed: dict[str, set[int]],
    attempted: dict[str, set[int]],
) -> dict[str, set[int]]:
    client = GraphClient.connect(own_server.settings)
    try:
        stored = {graph: _stored(client, graph) for graph in GRAPHS}
    finally:
        client.close()
    for graph in GRAPHS:
        assert committed[graph] <= stored[graph], f"{graph}: writes in the AOF were lost"
        assert stored[graph] <= attempted[graph], f"{graph}: nodes nobody wrote"
    reader = GraphClient.connect(Settings(falkordb_url=url))
    try:
        assert reader.read(GRAPHS[0], "MATCH (w:W {n: -1}) RETURN count(w)").scalar() == 1
        with pytest.raises(AccessDenied):
            reader.write(GRAPHS[0], "CREATE (:Pwned)")
    finally:
        reader.close()
    assert processes.servers_in(own_server.manager.data_dir) == [own_server.ensure().pid]
    return stored
