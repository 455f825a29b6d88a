"""The executor: reads, writes, named graphs, and three distinct failure outcomes."""

from __future__ import annotations

import socket

import pytest

from zehn.config import Settings
from zehn.errors import (
    GraphExists,
    GraphNotFound,
    GraphUnavailable,
    InvalidGraphName,
    QueryError,
    QueryTimeout,
)
from zehn.store.client import GraphClient
from zehn.store.server import ServerInfo

pytestmark = pytest.mark.integration


def test_read_returns_rows_and_an_empty_result_is_just_empty(
    client: GraphClient, graph_name: str
) -> None:
    client.write(graph_name, "CREATE (:Entity {id: 'e1', name: 'indexer'})")
    found = client.read(
        graph_name, "MATCH (e:Entity {name: $n}) RETURN e.id AS id", {"n": "indexer"}
    )
    assert found.records() == [{"id": "e1"}]
    empty = client.read(graph_name, "MATCH (e:Entity {name: $n}) RETURN e.id", {"n": "nobody"})
    assert empty.rows == ()
    assert empty.scalar() is None


def test_nodes_come_back_as_property_dicts(client: GraphClient, graph_name: str) -> None:
    client.write(graph_name, "CREATE (:Entity {id: 'e1', name: 'indexer'})")
    row = client.read(graph_name, "MATCH (e:Entity) RETURN e").scalar()
    assert row == {"id": "e1", "name": "indexer", "_labels": ["Entity"]}


def test_reads_cannot_write(client: GraphClient, graph_name: str) -> None:
    client.write(graph_name, "CREATE (:Entity {id: 'e1'})")
    with pytest.raises(QueryError, match="read-only"):
        client.read(graph_name, "CREATE (:Entity {id: 'e2'})")
    assert client.read(graph_name, "MATCH (n) RETURN count(n)").scalar() == 1


def test_timeout_is_an_error_not_an_empty_result(client: GraphClient, graph_name: str) -> None:
    client.write(graph_name, "UNWIND range(1, 3000) AS i CREATE (:N {i: i})")
    with pytest.raises(QueryTimeout) as caught:
        client.read(graph_name, "MATCH (a:N), (b:N), (c:N) RETURN count(*)", timeout_ms=20)
    assert caught.value.timeout_ms == 20


def test_missing_graph_is_named(client: GraphClient) -> None:
    with pytest.raises(GraphNotFound, match="no_such_graph"):
        client.read("no_such_graph", "MATCH (n) RETURN n")


def test_server_down_is_graph_unavailable(tmp_path: object) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(GraphUnavailable, match="cannot reach FalkorDB"):
        GraphClient.connect(Settings(falkordb_url=f"redis://127.0.0.1:{port}"))


def test_falkordb_url_connects_to_an_existing_server(falkordb_server: ServerInfo) -> None:
    client = GraphClient.connect(Settings(falkordb_url=falkordb_server.url))
    assert client.server is None
    assert client.server_versions()["falkordb"].count(".") == 2


def test_nul_is_refused_before_it_reaches_the_server(client: GraphClient, graph_name: str) -> None:
    with pytest.raises(QueryError, match="NUL"):
        client.write(graph_name, "CREATE (:N {t: $t})", {"t": "a\x00b"})
    assert graph_name not in client.list_graphs()


@pytest.mark.parametrize("value", ["it's", 'say "hi"', "trailing\\", "line\nbreak", "中文 ✓"])
def test_awkward_strings_round_trip(client: GraphClient, graph_name: str, value: str) -> None:
    client.write(graph_name, "CREATE (:N {t: $t})", {"t": value})
    assert client.read(graph_name, "MATCH (n:N) RETURN n.t").scalar() == value


def test_named_graphs_create_list_copy_delete(client: GraphClient, graph_name: str) -> None:
    client.create_graph(graph_name)
    assert graph_name in client.list_graphs()
    with pytest.raises(GraphExists):
        client.create_graph(graph_name)
    client.write(graph_name, "CREATE (:Document {id: 'doc/a'})")
    copy = f"{graph_name}_copy"
    client.copy_graph(graph_name, copy)
    assert client.read(copy, "MATCH (d:Document) RETURN d.id").scalar() == "doc/a"
    client.delete_graph(graph_name)
    assert graph_name not in client.list_graphs()
    assert copy in client.list_graphs()
    with pytest.raises(GraphNotFound):
        client.delete_graph(graph_name)


@pytest.mark.parametrize("bad", ["", "has space", "x" * 200, "semi;colon", "../etc"])
def test_bad_graph_names_are_refused(client: GraphClient, bad: str) -> None:
    with pytest.raises(InvalidGraphName):
        client.create_graph(bad)
