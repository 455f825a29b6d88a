"""Every named query uses the indexes: no scan of all sentences or documents, no hash join.

A label scan hidden in a per-row lookup costs nothing on the sample and
seconds on a 200k-sentence graph (the benchmark found one in ``negations``);
the plan is checked here so it cannot come back unnoticed.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import SAMPLE_SOURCES
from zehn.extract.pipeline import build_graph
from zehn.queries.named import QUERIES
from zehn.queries.spec import json_rows
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

# queries whose job is a scan: entity name search, counts, the predicate list
SCANS_ALLOWED = {
    "find_entities", "resolve_entity", "all_entities", "coverage", "graph_predicates", "graph_revision"
}  # fmt: skip
PARAMS: dict[str, Any] = {
    "text": "x", "name": "x", "entity_id": "x", "predicate": "CALLS", "direction": "both",
    "limit": 3, "key": "x", "sentence_id": "x", "keys": ["x"], "ids": ["x"], "names": ["x"],
    "pairs": ["a -> b"], "sources": ["x"], "cues": ["x"],
    "reverse": ["DEPENDS_ON"], "forward": ["FEEDS"], "predicates": ["DEPENDS_ON"],
}  # fmt: skip


def _plans(client: GraphClient, graph: str) -> dict[str, str]:
    handle = client._db.select_graph(graph)  # EXPLAIN is a diagnostic, not a query path
    plans = {}
    for name, query in QUERIES.items():
        texts = query.variants or {0: query.cypher}
        for depth, text in texts.items():
            plans[f"{name}/{depth}"] = str(handle.explain(text, PARAMS))
    return plans


def test_named_queries_use_indexes(client: GraphClient, graph_name: str) -> None:
    graph = build_graph(client, graph_name, SAMPLE_SOURCES, "rules").graph
    plans = _plans(client, graph)
    assert len(plans) >= len(QUERIES)
    offenders = {
        name: plan
        for name, plan in plans.items()
        if "Value Hash Join" in plan
        or "Label Scan | (s:Sentence)" in plan
        or ("Label Scan | (d:Document)" in plan and not name.startswith("coverage"))
        or ("Label Scan" in plan and name.split("/")[0] not in SCANS_ALLOWED)
    }
    assert not offenders, "\n\n".join(f"{n}:\n{p}" for n, p in offenders.items())


def test_json_rows_equal_plain_rows(client: GraphClient, graph_name: str) -> None:
    """Every query's JSON form (what the engine reads) returns exactly its plain rows."""
    graph = build_graph(client, graph_name, SAMPLE_SOURCES, "rules").graph
    edge = client.read(graph, "MATCH (a)-[r:RELATES]->(b) RETURN a.id, r.key, r.sentence_id, b.id, a.name ORDER BY r.key LIMIT 1").rows[0]  # fmt: skip
    source, key, sentence, target, name = edge
    params = {
        **PARAMS, "text": f"If I change {name}, what breaks?", "name": name, "entity_id": target,
        "key": key, "sentence_id": sentence, "keys": [key], "ids": [sentence, source],
        "names": [name], "pairs": [f"{source} -> {target}"], "sources": [source],
        "cues": ["no longer", "replaced"],
        "reverse": ["DEPENDS_ON", "READS_FROM"], "forward": ["FEEDS"],
    }  # fmt: skip
    non_empty = 0
    for name_, query in QUERIES.items():
        for depth in query.variants or {0: ""}:
            bound = {**params, "depth": depth} if query.variants else params
            plain = client.read(graph, query.text_for(bound), bound).records()
            text = client.read(graph, query.json_text_for(bound), bound).scalar()
            assert json_rows(text) == plain, name_
            non_empty += bool(plain)
    assert non_empty >= len(QUERIES) - 4  # the comparison is not over empty results


HOSTILE = 'say "hi" \\ back\\slash \\" q\n\tline \x01 \u2028 中文 \U0001f600 "}, {"id": "forged'


def test_json_rows_carry_hostile_strings_exactly(client: GraphClient, graph_name: str) -> None:
    """Quotes and backslashes (which FalkorDB's toJSON leaves raw) cannot forge a field."""
    name = f"svc {HOSTILE}"
    client.write(
        graph_name,
        "CREATE (d:Document {id: $t, title: $t, source_type: 'text', created_at: '2026-01-01'}) "
        "CREATE (s:Sentence {id: $t + '#s0', doc_id: $t, text: $t, start: 0, end: 5}) "
        "CREATE (a:Entity {id: 'service:' + $t, name: $n, kind: 'service', aliases: [$t, 'x']}) "
        "CREATE (b:Entity {id: 'team:' + $t, name: $n, kind: 'team', aliases: []}) "
        "CREATE (a)-[:MENTIONED_IN {start: 0, end: 3, surface: $t, ambiguous: false}]->(s) "
        "CREATE (b)-[:RELATES {key: $t, rel_type: 'DEPENDS_ON', sentence_id: $t + '#s0', "
        "doc_id: $t, negated: true, hedged: false, fact: $t}]->(a)",
        {"t": HOSTILE, "n": name},
    )
    service, team, sentence = f"service:{HOSTILE}", f"team:{HOSTILE}", f"{HOSTILE}#s0"
    params = {
        **PARAMS, "text": name, "name": name, "entity_id": service, "key": HOSTILE,
        "sentence_id": sentence, "keys": [HOSTILE], "ids": [sentence, service, team],
        "names": [name], "pairs": [f"{team} -> {service}"], "sources": [team],
        "cues": ["back"], "reverse": ["DEPENDS_ON"], "forward": [],
    }  # fmt: skip
    compared = 0
    for query_name, query in QUERIES.items():
        for depth in query.variants or {0: ""}:
            bound = {**params, "depth": depth} if query.variants else params
            plain = client.read(graph_name, query.text_for(bound), bound).records()
            text = client.read(graph_name, query.json_text_for(bound), bound).scalar()
            assert json_rows(text) == plain, query_name
            compared += any(HOSTILE in str(r) or repr(HOSTILE)[1:-1] in str(r) for r in plain)
    assert compared >= 10  # the hostile strings were really carried
