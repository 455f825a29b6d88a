"""What the engine keeps per graph revision is exactly what it would read afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLE_SOURCES
from zehn.engine.loop import Engine
from zehn.engine.snapshot import snapshot_for
from zehn.engine.tools import ToolExecutor
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.queries.named import QUERIES
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

CATALOG = """entities:
  - {name: billing, kind: service}
  - {name: ledger, kind: datastore}
"""


def _corpus(folder: Path, sentence: str) -> Path:
    (folder / "sources").mkdir(parents=True, exist_ok=True)
    (folder / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (folder / "sources" / "notes.md").write_text(f"# Notes\n\n{sentence}\n", encoding="utf-8")
    return folder


def test_find_entities_from_the_kept_list_equals_its_cypher(
    client: GraphClient, graph_name: str
) -> None:
    graph = build_graph(client, graph_name, SAMPLE_SOURCES, "rules").graph
    tools = ToolExecutor(client, graph, load_policy("production"))
    assert tools.snapshot().revision is not None
    texts = [
        "If I change origin-mapper, what breaks?",
        "what depends on the INDEXER and Billing?",
        "Redwood Inference",
        "如果我修改 indexer，哪些服务会受影响？",
        "nothing known here",
    ]
    for text in texts:
        kept = tools.run("find_entities", {"text": text}).rows
        cypher = client.read(graph, QUERIES["find_entities"].cypher, {"text": text}).records()
        assert kept == cypher, text
    assert len(tools.run("find_entities", {"text": texts[0]}).rows) >= 1


def test_a_rebuild_gives_a_new_revision_and_fresh_grades(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    folder = _corpus(tmp_path / "c", "Billing depends on ledger.")
    graph = build_graph(client, graph_name, folder, "rules").graph
    engine = Engine(client, graph, load_policy("production"), OfflineModel())
    first = engine.ask("If I change ledger, what breaks?")
    assert first.status == "answered"
    before = ToolExecutor(client, graph, load_policy("production")).snapshot()
    assert before is ToolExecutor(client, graph, load_policy("production")).snapshot()  # kept

    _corpus(folder, "Billing no longer depends on ledger.")
    build_graph(client, graph_name, folder, "rules")
    after = ToolExecutor(client, graph, load_policy("production")).snapshot()
    assert after is not before and after.revision != before.revision
    second = engine.ask("If I change ledger, what breaks?")
    assert second.status == "abstained", second.answer


def test_a_graph_without_revision_is_never_kept(client: GraphClient, graph_name: str) -> None:
    client.write(graph_name, "CREATE (:Entity {id: 'service:a', name: 'a', kind: 'service'})")
    read = ToolExecutor(client, graph_name, load_policy("production")).internal
    one, two = snapshot_for("x", graph_name, read), snapshot_for("x", graph_name, read)
    assert one.revision is None and one is not two
    assert one.find_entities("is a here?")[0]["id"] == "service:a"
