"""The name index a build writes: the engine reads only the entities a text can name, and
grades, binds, finds and names exactly as when it reads every entity of the graph."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zehn.corpus.model import Sentence
from zehn.engine.loop import Engine
from zehn.engine.snapshot import GraphSnapshot, forget_snapshots
from zehn.engine.tools import ToolExecutor
from zehn.engine.wording import namesakes
from zehn.evidence.grade import Evidence
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.reading.names.name_keys import NAME_INDEX_VERSION
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

# invented: namesakes, a possessed kind word, near misses of code-like names, plural aliases,
# a name longer than the binder binds, Chinese
CATALOG = """entities:
  - {name: Fernwick, kind: component}
  - {name: PigeonBroker, kind: component}
  - {name: tallow-db, kind: datastore}
  - {name: ingest-svc, kind: service, aliases: [ingest workers]}
  - {name: Marrow, kind: team}
  - {name: Marrow, kind: service}
  - {name: quillon-gateway, kind: service}
  - {name: the very long name of the nightly batch reconciliation job here, kind: service}
  - {name: 鹭鸶注册中心, kind: component}
  - {name: 青苔服务, kind: service}
"""
NOTES = """# Notes

Fernwick's broker depends on tallow-db.
The ingest-svc writes to talow-db every minute.
The ingest worker reads from PigeonBroker.
Marrow service calls quillon-gateway.
The Marrow team owns ingest-svc.
quillon-gatway depends on tallow-db.
ingest-svc no longer depends on Fernwick.
青苔服务依赖鹭鸶注册中心。
"""


@pytest.fixture
def indexed(client: GraphClient, graph_name: str, tmp_path: Path) -> Iterator[str]:
    folder = tmp_path / "corpus"
    (folder / "sources").mkdir(parents=True)
    (folder / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (folder / "sources" / "notes.md").write_text(NOTES, encoding="utf-8")
    yield build_graph(client, graph_name, folder, "rules").graph
    forget_snapshots()


def _whole(tools: ToolExecutor, graph: str) -> GraphSnapshot:
    """A snapshot that ignores the name index: every entity read, as before it existed."""
    snapshot = GraphSnapshot(graph, None, tools.internal)
    snapshot._index_read = True
    return snapshot


def _evidence(client: GraphClient, graph: str, tools: ToolExecutor) -> list[Evidence]:
    keys = [str(k) for (k,) in client.read(graph, "MATCH ()-[r:RELATES]->() RETURN r.key").rows]
    return [Evidence.from_row(r) for r in tools.internal("edges_by_keys", {"keys": keys})]


def test_a_build_writes_a_complete_name_index(client: GraphClient, indexed: str) -> None:
    meta = client.read(indexed, "MATCH (m:Meta {id: 'graph'}) RETURN m.name_index").scalar()
    assert meta == NAME_INDEX_VERSION
    rows = client.read(
        indexed,
        "MATCH (e:Entity {id: 'service:ingest-svc'}) RETURN e.name_keys, e.loose_keys, e.head",
    ).rows
    keys, loose, head = rows[0]
    assert {"ingest svc", "ingest workers", "ingest worker"} <= set(keys)
    assert "ingestsvc" in loose and head == "svc"
    flagged = client.read(indexed, "MATCH (e:Entity) WHERE e.namesake = 1 RETURN e.id").rows
    assert {i for (i,) in flagged} == {"team:marrow", "service:marrow"}


def test_the_index_grades_binds_and_finds_as_reading_every_entity(
    client: GraphClient, indexed: str
) -> None:
    tools = ToolExecutor(client, indexed, load_policy("evaluation"))
    snapshot, whole = tools.snapshot(), _whole(tools, indexed)
    assert snapshot.index is not None
    evidence = _evidence(client, indexed, tools)
    assert len(evidence) >= 5
    grades = snapshot.grade_all(evidence)
    for e in evidence:
        expected = whole.grader.grade(e)
        got = grades[e.key]
        assert (got.label, got.reason, got.source_span, got.target_span) == (
            expected.label,
            expected.reason,
            expected.source_span,
            expected.target_span,
        ), e.text
    texts = [line for line in NOTES.splitlines() if line.strip()]
    binder = snapshot.binder_for(texts)
    reasons: set[str] = set()
    for text in texts:
        sentence = Sentence("d", text, 0, len(text))
        got = [(m.start, m.end, m.candidates, m.reason) for m in binder.bind(sentence)]
        assert got == [
            (m.start, m.end, m.candidates, m.reason) for m in whole.grader.binder.bind(sentence)
        ], text
        reasons |= {reason for *_span, reason in got}
    # the readings that depend on every name were exercised, not skipped
    assert any(r.startswith("fuzzy") for r in reasons)
    assert any("after a possessive" in r for r in reasons)
    for text in [*texts, "the very long name of the nightly batch reconciliation job here?"]:
        assert snapshot.find_entities(text) == whole.find_entities(text), text
    assert dict(snapshot.namesakes()) == namesakes(whole.entities.values())
    assert {i: snapshot.names[i] for i in snapshot.names} == {
        i: whole.names[i] for i in snapshot.names
    }


def test_the_first_investigation_reads_no_entity_list(client: GraphClient, indexed: str) -> None:
    asked: list[str] = []
    original = ToolExecutor.internal

    def spy(self: ToolExecutor, name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        asked.append(name)
        return original(self, name, arguments)

    forget_snapshots()
    ToolExecutor.internal = spy  # type: ignore[method-assign]
    try:
        engine = Engine(client, indexed, load_policy("evaluation"), OfflineModel())
        answer = engine.ask("If I change tallow-db, what breaks?")
    finally:
        ToolExecutor.internal = original  # type: ignore[method-assign]
    assert answer.status == "answered", answer.reason
    assert "all_entities" not in asked
    assert "entities_by_name_keys" in asked


def test_hostile_text_is_looked_up_without_an_error(client: GraphClient, indexed: str) -> None:
    """Keys the parameter checks would refuse (control characters, a run longer than any
    name, a lone surrogate) name nothing: they are dropped, never sent, never an error."""
    tools = ToolExecutor(client, indexed, load_policy("evaluation"))
    snapshot = tools.snapshot()
    assert snapshot.index is not None
    hostile = "tallow-db\x07 " + "x" * 700 + " \udcff ~ " + "y" * 650 + "~"
    assert [r["id"] for r in snapshot.find_entities(hostile)] == ["datastore:tallow-db"]
    assert snapshot.index.named_from("tallow-d~") == []
    assert snapshot.index.named(["", "x" * 700, "tallow-db"]) == ["datastore:tallow-db"]
    assert snapshot.index.entity("x" * 700) is None


def test_a_graph_without_a_complete_index_is_read_the_old_way(
    client: GraphClient, indexed: str
) -> None:
    # an entity written by another tool carries no keys: the index is not trusted
    client.write(indexed, "CREATE (:Entity {id: 'service:stray', name: 'stray', kind: 'service'})")
    from zehn.extract.name_index import finish_name_index

    finish_name_index(client, indexed)
    forget_snapshots()
    tools = ToolExecutor(client, indexed, load_policy("evaluation"))
    assert tools.snapshot().index is None
    assert [r["id"] for r in tools.snapshot().find_entities("does stray call tallow-db?")] == [
        "datastore:tallow-db",
        "service:stray",
    ]
