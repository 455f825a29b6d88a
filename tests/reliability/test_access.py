"""Access: loopback only with protected mode, passwords in FALKORDB_URL, a read-only retrieval user.

The managed server must not be reachable from another machine; a server that
asks for a password gets the one in ``FALKORDB_URL`` (and a missing or wrong
one is a clear "graph unavailable", never a traceback), and the password never
shows in a repr, a location or a health report. Retrieval runs as an ACL user
that may only read (``+GRAPH.RO_QUERY``): answers still come, and every way to
write through it fails while the graph stays as it was.
"""

from __future__ import annotations

import secrets
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.reliability.conftest import TALLY, OwnServer, SampleGraph
from tests.reliability.graphprint import graph_print
from zehn.config import Settings
from zehn.engine import ANSWERED, Engine
from zehn.errors import AccessDenied, GraphUnavailable, QueryError
from zehn.evidence.policy import load_policy
from zehn.models.offline import OfflineModel
from zehn.review.history import History
from zehn.store.access import create_readonly_user, delete_user, user_url
from zehn.store.client import GraphClient
from zehn.store.health import check_health
from zehn.store.server import ServerInfo

pytestmark = pytest.mark.integration

QUESTION = "If I change origin-mapper, what breaks?"
PASSWORD = "s3cret:p@ss/w%rd-" + secrets.token_hex(4)  # needs URL quoting


def _listening(port: int) -> set[str]:
    """Local addresses of sockets listening on ``port`` (from /proc/net/tcp and tcp6)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.rpartition(":")
            if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                found.add(address)
    return found


def _outward_address() -> str | None:
    """This machine's address on its default route (no packet is sent), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing decides, nothing is sent
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


def test_the_managed_server_listens_on_loopback_only_with_protected_mode(
    falkordb_server: ServerInfo,
) -> None:
    probe = redis.Redis(port=falkordb_server.port, decode_responses=True)
    assert probe.config_get("bind")["bind"] == "127.0.0.1"
    assert probe.config_get("protected-mode")["protected-mode"] == "yes"
    assert _listening(falkordb_server.port) == {"0100007F"}, "listens beyond 127.0.0.1"
    outward = _outward_address()
    if outward is not None:
        with pytest.raises(OSError):
            socket.create_connection((outward, falkordb_server.port), timeout=2).close()
    TALLY["access: listening sockets checked (loopback only)"] += 1


@pytest.fixture
def password_server(own_server: OwnServer) -> Iterator[tuple[OwnServer, ServerInfo]]:
    """The test's own server, now asking every client for PASSWORD (reset before stopping)."""
    info = own_server.ensure()
    redis.Redis(port=info.port).config_set("requirepass", PASSWORD)
    yield own_server, info
    redis.Redis(port=info.port, password=PASSWORD).config_set("requirepass", "")


def test_a_password_in_falkordb_url_is_honoured(
    password_server: tuple[OwnServer, ServerInfo],
) -> None:
    _, info = password_server
    good = Settings(falkordb_url=f"redis://:{_quoted(PASSWORD)}@127.0.0.1:{info.port}")
    client = GraphClient.connect(good)
    client.write("guarded", "CREATE (:Document {id: 'doc/a'})")
    assert client.read("guarded", "MATCH (d:Document) RETURN d.id").scalar() == "doc/a"
    for url in (
        f"redis://127.0.0.1:{info.port}",
        f"redis://:wrong-password@127.0.0.1:{info.port}",
        f"redis://default:{_quoted(PASSWORD[:-1])}@127.0.0.1:{info.port}",
    ):
        with pytest.raises(GraphUnavailable):
            GraphClient.connect(Settings(falkordb_url=url))
        TALLY["access: connections refused for a missing or wrong password"] += 1
    bad = Settings(falkordb_url=f"redis://:{_quoted(PASSWORD[:-1])}@127.0.0.1:{info.port}")
    for shown in (repr(good), client.location, check_health(bad).location, repr(bad)):
        assert PASSWORD not in shown and _quoted(PASSWORD) not in shown, shown
        assert "***@" in shown


def _quoted(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


@pytest.fixture
def readonly_url(sample_graph: SampleGraph) -> Iterator[str]:
    name = f"zehn_ro_{uuid.uuid4().hex[:6]}"
    create_readonly_user(sample_graph.client, name, PASSWORD)
    yield user_url(sample_graph.client, name, PASSWORD)
    assert delete_user(sample_graph.client, name)


def test_retrieval_runs_as_a_read_only_user_and_every_write_fails(
    sample_graph: SampleGraph, readonly_url: str
) -> None:
    before = graph_print(sample_graph.client, sample_graph.graph)
    reader = GraphClient.connect(Settings(falkordb_url=readonly_url))
    answer = Engine(reader, sample_graph.graph, load_policy("production"), OfflineModel()).ask(
        QUESTION
    )
    assert answer.status == ANSWERED and answer.citations, answer.reason
    graph = sample_graph.graph
    with pytest.raises(AccessDenied, match="ACL"):
        reader.write(graph, "CREATE (:Pwned)")
    with pytest.raises(AccessDenied):
        reader.write(graph, "MATCH (n) DETACH DELETE n")
    with pytest.raises(QueryError, match="read-only"):  # RO_QUERY itself refuses a write
        reader.read(graph, "MATCH (n) DETACH DELETE n")
    with pytest.raises(AccessDenied):
        History(reader, graph=f"rel_history_{uuid.uuid4().hex[:6]}").save(answer)
    for command in (
        ("GRAPH.DELETE", graph),
        ("DEL", graph),
        ("RENAME", graph, "stolen"),
        ("GRAPH.COPY", graph, "stolen"),
        ("FLUSHALL",),
        ("CONFIG", "SET", "appendonly", "no"),
        ("ACL", "SETUSER", "zehn_ro", "+@all"),
        ("SHUTDOWN", "NOSAVE"),
    ):
        with pytest.raises(AccessDenied):
            reader.server_command(*command)
    TALLY["access: write attempts through the read-only user (all refused)"] += 12
    assert graph_print(sample_graph.client, graph) == before
    assert sample_graph.client.server_versions()  # the server still runs


def test_the_read_only_user_survives_a_server_restart(own_server: OwnServer) -> None:
    admin = GraphClient.connect(own_server.settings)
    admin.write("kept", "CREATE (:Document {id: 'doc/a'})")
    create_readonly_user(admin, "retrieval", PASSWORD)
    url = user_url(admin, "retrieval", PASSWORD)
    admin.close()  # a connection left open to the dead server would hold its port
    before = own_server.kill()
    after = own_server.ensure()
    assert after.port == before.port, "restarted elsewhere: the URL no longer names it"
    reader = GraphClient.connect(Settings(falkordb_url=url))
    assert reader.read("kept", "MATCH (d:Document) RETURN d.id").scalar() == "doc/a"
    with pytest.raises(AccessDenied):
        reader.write("kept", "CREATE (:Pwned)")


@pytest.mark.parametrize(
    ("name", "password"),
    [("", PASSWORD), ("has space", PASSWORD), ("default", PASSWORD), ("ok", "short"),
     ("ok", "with space inside"), ("ok", "nul\x00inside-long")],
)  # fmt: skip
def test_users_and_passwords_are_checked(
    sample_graph: SampleGraph, name: str, password: str
) -> None:
    with pytest.raises(QueryError):
        create_readonly_user(sample_graph.client, name, password)
