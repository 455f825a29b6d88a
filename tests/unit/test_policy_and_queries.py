from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from zehn.engine.tools import ToolExecutor
from zehn.errors import InvalidParameters, PolicyError, UnknownPredicate, UnknownQuery
from zehn.evidence.policy import list_policies, load_policy
from zehn.queries import QUERIES, get_query
from zehn.store.client import QueryResult


def test_production_keeps_calls_off_with_its_reason_and_evaluation_turns_it_on() -> None:
    production, evaluation = load_policy("production"), load_policy("evaluation")
    assert "CALLS" not in production.traversable()
    assert "evidence" in production.blocked()["CALLS"]
    assert production.badge is None and production.is_production
    assert "CALLS" in evaluation.traversable()
    assert evaluation.badge == "EVALUATION MODE · policy evaluation"
    assert {p.name for p in list_policies()} >= {"production", "evaluation"}


def test_every_predicate_declares_its_impact_direction() -> None:
    policy = load_policy("production")
    assert "DEPENDS_ON" in policy.impact_predicates("reverse")
    assert "FEEDS" in policy.impact_predicates("forward")
    assert all(r.impact in ("reverse", "forward") for r in policy.rules)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("name: x\nmode: production\npredicates: {TELEPORTS: {traverse: true, impact: reverse}}", "unknown predicate"),
        ("name: x\nmode: production\npredicates: {CALLS: {traverse: true, impact: sideways}}", "impact"),
        ("name: x\nmode: production\nmax_hops: 5\npredicates: {CALLS: {traverse: true, impact: reverse}}", "max_hops"),
        ("name: x\npredicates: {}", "name"),
        ("[1, 2", "cannot read"),
    ],
)  # fmt: skip
def test_malformed_policies_are_explained(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(PolicyError, match=message):
        load_policy(path)


def test_unknown_policy_lists_the_known_ones() -> None:
    with pytest.raises(PolicyError, match="production"):
        load_policy("nope")


def test_whitelist_has_the_required_queries_and_all_are_read_only() -> None:
    required = {
        "resolve_entity", "downstream_impact", "upstream_dependencies", "neighbours",
        "mentions", "edge_evidence", "sentence",
    }  # fmt: skip
    assert required <= set(QUERIES)
    # the procedures allowed read: the full-text index (search_sentences), the index list
    writes = re.compile(
        r"\b(CREATE|MERGE|DELETE|SET|REMOVE|DROP|CALL(?! db\.idx\.fulltext\.queryNodes\(| db\.indexes\(\)))\b",
        re.IGNORECASE,
    )
    for query in QUERIES.values():
        for text in [query.cypher, *query.variants.values()]:
            assert not writes.search(text), query.name
    assert set(get_query("downstream_impact").variants) == {1, 2, 3}


@pytest.mark.parametrize(
    ("query", "arguments", "message"),
    [
        ("downstream_impact", {"entity_id": "service:x", "depth": 4}, "between 1 and 3"),
        ("downstream_impact", {"entity_id": "service:x", "depth": "3"}, "must be an integer"),
        ("downstream_impact", {"entity_id": "service:x"}, "missing parameter 'depth'"),
        ("resolve_entity", {"name": "a\x00b"}, "control characters"),
        ("resolve_entity", {"name": ""}, "must not be empty"),
        ("resolve_entity", {"name": "x" * 300}, "longer than"),
        (
            "resolve_entity",
            {"name": "x", "cypher": "MATCH (n) DETACH DELETE n"},
            "unknown parameters",
        ),
        ("neighbours", {"entity_id": "service:x", "predicate": "TELEPORTS"}, "must be one of"),
        ("neighbours", {"entity_id": ["service:x"]}, "must be a string"),
    ],
)
def test_parameters_are_checked_before_the_database(
    query: str, arguments: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidParameters, match=message):
        get_query(query).validate(arguments)


def test_injection_text_is_just_a_string_parameter() -> None:
    params = get_query("resolve_entity").validate({"name": "'}) DETACH DELETE n //"})
    assert params == {"name": "'}) DETACH DELETE n //"}


def test_a_query_off_the_whitelist_is_refused() -> None:
    with pytest.raises(UnknownQuery, match="not on the whitelist"):
        get_query("run_cypher")


def test_tool_schemas_describe_bounds() -> None:
    schema = get_query("downstream_impact").tool_schema()
    assert schema["properties"]["depth"] == {
        "description": "number of hops, 1 to 3", "type": "integer", "minimum": 1, "maximum": 3,
    }  # fmt: skip
    assert schema["required"] == ["entity_id", "depth"]


def test_per_query_behaviour_is_declared_on_the_query() -> None:
    """The engine reads these fields, never a query's name: each is set where it belongs."""
    declared = {
        q.name: (q.from_snapshot, q.policy_binding, q.mentions_of)
        for q in QUERIES.values()
        if (q.from_snapshot, q.policy_binding, q.mentions_of) != (False, None, None)
    }
    assert declared == {
        "find_entities": (True, None, None),
        "downstream_impact": (False, "impact", None),
        "upstream_dependencies": (False, "impact", None),
        # the frontier walk's layers and parent edges (zehn.engine.frontier)
        "impact_layer": (False, "impact", None),
        "impact_parents": (False, "impact", None),
        "upstream_layer": (False, "impact", None),
        "upstream_parents": (False, "impact", None),
        "neighbours": (False, "predicates", None),
        "path_between": (False, "predicates", None),
        "mentions": (False, None, "param"),
        "resolve_entity": (False, None, "rows"),
    }
    for query in QUERIES.values():  # a binding fills in exactly the parameters its Cypher reads
        texts = " ".join([query.cypher, *query.variants.values()])
        assert ("$reverse" in texts and "$forward" in texts) == (query.policy_binding == "impact")
        assert ("$predicates" in texts) == (query.policy_binding == "predicates")
        if query.mentions_of == "param":  # the returned sentences mention this parameter
            assert "$entity_id" in texts


class _Graph:
    """A graph with CALLS and DEPENDS_ON edges and no paths; keeps the parameters it was sent."""

    location = "fake"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def read(self, graph: str, cypher: str, params: Mapping[str, Any] | None = None) -> QueryResult:
        self.sent.append(dict(params or {}))
        if cypher == get_query("graph_predicates").cypher:
            return QueryResult(("rel_type",), (("CALLS",), ("DEPENDS_ON",)), 0.0)
        return QueryResult(("nodes", "keys"), (), 0.0)


@pytest.mark.parametrize("name", ["downstream_impact", "upstream_dependencies"])
def test_impact_walks_get_the_policys_impact_predicates(name: str) -> None:
    graph, policy = _Graph(), load_policy("production")
    ToolExecutor(graph, "g", policy).run(name, {"entity_id": "service:a", "depth": 2})
    # the frontier walk looks up its start first (this graph has none), then every path by depth
    assert [p.get("depth") for p in graph.sent] == [None, 1, 2]
    for sent in graph.sent[1:]:
        assert sent["reverse"] == list(policy.impact_predicates("reverse"))
        assert sent["forward"] == list(policy.impact_predicates("forward"))
        assert "CALLS" not in sent["reverse"] and "predicates" not in sent


def test_neighbours_get_the_policys_predicates_or_the_one_asked_for() -> None:
    graph, policy = _Graph(), load_policy("production")
    tools = ToolExecutor(graph, "g", policy)
    walked = tools.run("neighbours", {"entity_id": "service:a"})
    assert graph.sent[-1]["predicates"] == list(policy.traversable())
    assert graph.sent[-1]["direction"] == "both" and "reverse" not in graph.sent[-1]
    assert "policy_note" not in walked.payload
    direct = tools.run(
        "neighbours", {"entity_id": "service:a", "predicate": "CALLS", "direction": "in"}
    )
    assert (graph.sent[-1]["predicates"], graph.sent[-1]["direction"]) == (["CALLS"], "in")
    assert direct.payload["policy_note"].startswith("CALLS is not traversed by policy production: ")
    assert direct.payload["policy_note"].endswith("; this is a direct lookup")
    with pytest.raises(UnknownPredicate, match="has no 'AFFECTS' edges"):
        tools.run("neighbours", {"entity_id": "service:a", "predicate": "AFFECTS"})
    tools.run("mentions", {"entity_id": "service:a"})
    assert not {"predicates", "direction", "reverse", "forward"} & set(graph.sent[-1])
