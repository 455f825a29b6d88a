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
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

# queries whose job is a scan: entity name search, counts, the predicate list
SCANS_ALLOWED = {
    "find_entities", "resolve_entity", "all_entities", "coverage", "graph_predicates", "graph_revision",
    "name_index_meta",
}  # fmt: skip
PARAMS: dict[str, Any] = {
    "text": "x", "name": "x", "entity_id": "x", "predicate": "CALLS", "direction": "both",
    "limit": 3, "key": "x", "sentence_id": "x", "keys": ["x"], "ids": ["x"], "names": ["x"],
    "pairs": ["a -> b"], "sources": ["x"], "cues": ["x"],
    "reverse": ["DEPENDS_ON"], "forward": ["FEEDS"], "predicates": ["DEPENDS_ON"],
    "noun": "x", "prefix": "x", "after": "y", "shortest": 3, "longest": 5,
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


def test_the_c_reply_parser_is_in_use() -> None:
    """redis-py parses replies in Python without hiredis: ~10x slower on a 2,000-row walk."""
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE
