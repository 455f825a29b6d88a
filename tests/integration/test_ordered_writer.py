"""Batched writes from a background thread: in order, nothing after a failure, refusals first.

The build's entity, mention and edge writes go through ``zehn.extract.writer.OrderedWriter``
(the next batch is made while one is on the server); these tests use a real server.
"""

from __future__ import annotations

import pytest

from zehn.errors import QueryError
from zehn.extract.writer import OrderedWriter
from zehn.store.client import GraphClient, prepare

pytestmark = pytest.mark.integration

CREATE = "UNWIND $rows AS r CREATE (:Part {id: r.id, n: r.n})"
LINK = "UNWIND $rows AS r MATCH (a:Part {id: r.a}), (b:Part {id: r.b}) CREATE (a)-[:NEXT]->(b)"


def _ids(client: GraphClient, graph: str) -> list[str]:
    rows = client.read(graph, "MATCH (p:Part) RETURN p.id ORDER BY p.n").rows
    return [str(r[0]) for r in rows]


def test_batches_are_written_in_the_order_given(client: GraphClient, graph_name: str) -> None:
    with OrderedWriter(client, graph_name, depth=2) as writer:
        for n in range(12):  # each link needs the part the batch before it created
            writer.write(CREATE, {"rows": [{"id": f"p{n}", "n": n}]})
            if n:
                writer.write(LINK, {"rows": [{"a": f"p{n - 1}", "b": f"p{n}"}]})
    assert _ids(client, graph_name) == [f"p{n}" for n in range(12)]
    links = client.read(graph_name, "MATCH (:Part)-[x:NEXT]->(:Part) RETURN count(x)").scalar()
    assert links == 11


def test_nothing_is_sent_after_a_failed_write(client: GraphClient, graph_name: str) -> None:
    writer = OrderedWriter(client, graph_name, depth=4)
    writer.write(CREATE, {"rows": [{"id": "before", "n": 0}]})
    writer.write("UNWIND $rows AS r CREATE (:Part {id: r.id}) RETURN no_such_function(1)",
                 {"rows": [{"id": "failed"}]})  # fmt: skip
    writer.write(CREATE, {"rows": [{"id": "after", "n": 2}]})
    with pytest.raises(QueryError):
        writer.close()
    assert _ids(client, graph_name) == ["before"]


def test_a_refused_value_raises_in_the_caller_before_it_is_queued(
    client: GraphClient, graph_name: str
) -> None:
    refused = pytest.raises(QueryError, match=r"rows\[1\]\.id.*NUL")
    with refused, OrderedWriter(client, graph_name) as writer:
        writer.write(CREATE, {"rows": [{"id": "kept", "n": 0}]})
        writer.write(CREATE, {"rows": [{"id": "fine", "n": 1}, {"id": "a\x00b", "n": 2}]})
        writer.write(CREATE, {"rows": [{"id": "never", "n": 3}]})
    assert _ids(client, graph_name) == ["kept"]  # queued before the refusal: written


def test_a_prepared_query_carries_its_own_parameters(client: GraphClient, graph_name: str) -> None:
    query = prepare(CREATE, {"rows": [{"id": 'quote " and \\ backslash', "n": 0}]})
    client.write(graph_name, query)
    assert _ids(client, graph_name) == ['quote " and \\ backslash']
    with pytest.raises(QueryError, match="carries its parameters"):
        client.write(graph_name, query, {"rows": []})
