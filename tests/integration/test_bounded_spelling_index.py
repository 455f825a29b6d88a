"""The question's names are looked up through indexes kept per graph revision, with the same
result as scanning every entity of the graph for every question."""

from __future__ import annotations

from pathlib import Path

import pytest

from zehn.engine.spelling import _one_word_apart, named_parts, spelled
from zehn.engine.tools import ToolExecutor
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.reading.questions.asking_names import respelled
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

# invented names: loosely written ones, one word more or less, namesakes, Chinese
CATALOG = """entities:
  - {name: product-catalog, kind: service}
  - {name: product_catalogue, kind: datastore}
  - {name: load-generator, kind: service, aliases: [loadgen-tool]}
  - {name: opamp-server, kind: service}
  - {name: Larkspur, kind: service}
  - {name: Larkspur Server, kind: service}
  - {name: Larkspur Server Agent, kind: component}
  - {name: larkspur-relay, kind: component}
  - {name: Quillon 注册中心, kind: component}
  - {name: Quillon, kind: datastore}
  - {name: Quillon, kind: team}
  - {name: mossbank-ledger, kind: datastore}
  - {name: mossbankledger, kind: service}
"""
QUESTIONS = (
    "If I change the product catalog, what breaks?",
    "What depends on the load generator and OpAMP Server?",
    "Does the loadgen tool call opamp server?",
    "What does Larkspur Server depend on?",
    "Quillon 注册中心 依赖什么？",
    "What reads from the mossbank ledger?",  # two entities share the loose key: untouched
    "nothing here is a name",
)


def test_the_indexes_answer_as_the_full_scan_does(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    folder = tmp_path / "corpus"
    (folder / "sources").mkdir(parents=True)
    (folder / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (folder / "sources" / "notes.md").write_text(
        "# Notes\n\nLarkspur Server depends on opamp-server.\n", encoding="utf-8"
    )
    graph = build_graph(client, graph_name, folder, "rules").graph
    tools = ToolExecutor(client, graph, load_policy("production"))
    entities = tools.snapshot().entities
    for question in QUESTIONS:
        assert spelled(question, tools) == respelled(question, entities.values()), question
    assert spelled(QUESTIONS[0], tools) == "If I change the product-catalog, what breaks?"
    for entity_id in entities:
        scanned = [
            {"id": other.id, "name": other.name, "of": entity_id}
            for other in entities.values()
            if other.id != entity_id and _one_word_apart(entities[entity_id].name, other.name)
        ][:6]
        assert named_parts([entity_id], tools) == scanned, entity_id
    parts = named_parts(["service:larkspur-server"], tools)
    assert {p["name"] for p in parts} == {"Larkspur", "Larkspur Server Agent"}
