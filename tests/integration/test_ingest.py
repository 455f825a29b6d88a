"""Ingest into a real FalkorDB graph: provenance, idempotency, bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, SAMPLE_SOURCES
from zehn.extract.ingest import ingest_path
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

DESIGN = """# Indexer design

The indexer feeds search-api. It reads from feature-store.

origin-mapper affects the indexer.
"""
RUNBOOK = "# Runbook\n\nRestart search-api first. Then check the dashboards.\n"


def _corpus(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "design.md").write_text(DESIGN, encoding="utf-8")
    (root / "docs" / "runbook.md").write_text(RUNBOOK, encoding="utf-8")
    return root / "docs"


def _sentences(client: GraphClient, graph: str) -> dict[str, tuple[str, str, int, int]]:
    rows = client.read(
        graph,
        "MATCH (s:Sentence)-[:PART_OF]->(c:Chunk)-[:PART_OF]->(d:Document) "
        "RETURN s.id, s.text, d.text, s.start, s.end",
    ).rows
    return {sid: (text, doc_text, start, end) for sid, text, doc_text, start, end in rows}


def test_sentences_are_exact_slices_of_their_stored_document(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    report = ingest_path(client, graph_name, _corpus(tmp_path))
    assert report.documents == 2 and report.skipped == ()
    stored = _sentences(client, graph_name)
    assert len(stored) == report.sentences == 7
    for sentence_id, (text, doc_text, start, end) in stored.items():
        assert doc_text[start:end] == text
        assert sentence_id.endswith(f"#{start}-{end}")
    assert "doc/design-md#18-47" in stored
    assert stored["doc/design-md#18-47"][0] == "The indexer feeds search-api."


def test_reingesting_the_same_corpus_changes_nothing(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path)
    first = ingest_path(client, graph_name, corpus)
    before = _sentences(client, graph_name)
    second = ingest_path(client, graph_name, corpus)
    assert (first.written, second.written, second.unchanged) == (2, 0, 2)
    assert _sentences(client, graph_name) == before
    counts = client.read(graph_name, "MATCH (n) RETURN labels(n)[0], count(n)").rows
    # Meta carries the revision each ingest sets (zehn.store.revision)
    assert sorted(counts) == [("Chunk", 2), ("Document", 2), ("Meta", 1), ("Sentence", 7)]


def test_a_changed_document_replaces_only_its_own_sentences(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path)
    ingest_path(client, graph_name, corpus)
    client.write(
        graph_name,
        "MATCH (s:Sentence {id: 'doc/runbook-md#11-36'}) "
        "CREATE (:Entity {id: 'e', name: 'search-api'})-[:MENTIONED_IN]->(s)",
    )
    (corpus / "design.md").write_text(DESIGN.replace("feature-store", "ledger-v2"), "utf-8")
    report = ingest_path(client, graph_name, corpus)
    assert report.written_ids == ("doc/design-md",)
    stored = _sentences(client, graph_name)
    assert any("ledger-v2" in text for text, *_ in stored.values())
    assert not any("feature-store" in text for text, *_ in stored.values())
    kept = client.read(
        graph_name, "MATCH (:Entity)-[:MENTIONED_IN]->(s:Sentence) RETURN s.text"
    ).scalar()
    assert kept == "Restart search-api first."


def test_bad_files_are_reported_and_everything_else_is_ingested(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path)
    ingest_path(client, graph_name, corpus)
    (corpus / "latin1.md").write_bytes("caf\xe9 d\xe9pend de billing.".encode("latin-1"))
    (corpus / "empty.txt").write_text("", "utf-8")
    (corpus / "broken.json").write_text('{"title": "x", ', "utf-8")
    (corpus / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (corpus / "new.md").write_text("# New\n\nbilling depends on ledger-v2.\n", "utf-8")
    report = ingest_path(client, graph_name, corpus)
    reasons = {Path(s.path).name: s.error for s in report.skipped}
    assert reasons == {
        "latin1.md": "EncodingError",
        "empty.txt": "EmptySource",
        "broken.json": "MalformedSource",
        "image.png": "UnsupportedSource",
    }
    assert all(s.reason for s in report.skipped)
    assert report.documents == 3 and report.written == 1
    ids = {r[0] for r in client.read(graph_name, "MATCH (d:Document) RETURN d.id").rows}
    assert ids == {"doc/design-md", "doc/runbook-md", "doc/new-md"}


def test_a_file_that_vanishes_leaves_its_stored_document_alone(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path)
    ingest_path(client, graph_name, corpus)
    (corpus / "runbook.md").unlink()
    ingest_path(client, graph_name, corpus)
    assert client.read(graph_name, "MATCH (d:Document) RETURN count(d)").scalar() == 2


OTEL_DEMO = REPO.parent / "shared" / "corpora" / "otel-demo" / "docs"


@pytest.mark.parametrize(
    ("corpus", "minimum_documents"),
    [
        pytest.param(SAMPLE_SOURCES, 40, id="sample"),
        pytest.param(
            OTEL_DEMO,
            60,
            id="otel-demo",
            marks=pytest.mark.skipif(not OTEL_DEMO.is_dir(), reason="shared corpus not present"),
        ),
    ],
)
def test_whole_corpora_ingest_with_exact_provenance(
    client: GraphClient, graph_name: str, corpus: Path, minimum_documents: int
) -> None:
    report = ingest_path(client, graph_name, corpus)
    assert report.skipped == ()
    assert report.documents >= minimum_documents
    stored = _sentences(client, graph_name)
    assert len(stored) == report.sentences
    assert all(doc_text[start:end] == text for text, doc_text, start, end in stored.values())
    if corpus == SAMPLE_SOURCES:
        assert set(report.documents_by_type) == {
            "confluence", "email", "meeting", "pull_request", "ticket",
        }  # fmt: skip


def test_a_document_the_server_refuses_is_reported_and_the_rest_is_ingested(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One refused write (injected here; loaders make it rare) skips that document only."""
    from zehn.errors import QueryError
    from zehn.extract import ingest as ingest_module

    corpus = _corpus(tmp_path)
    real = ingest_module._write_document

    def refuse_design(*args: Any, **kwargs: Any) -> tuple[int, int, bool]:
        if args[2].id == "doc/design-md":
            raise QueryError("injected: the server refused this write")
        return real(*args, **kwargs)

    monkeypatch.setattr(ingest_module, "_write_document", refuse_design)
    report = ingest_path(client, graph_name, corpus)
    assert report.written_ids == ("doc/runbook-md",)
    assert [(s.error, "doc/design-md" in s.reason) for s in report.skipped] == [
        ("QueryError", True)
    ]
    stored = client.read(graph_name, "MATCH (d:Document) RETURN d.id").rows
    assert list(stored) == [("doc/runbook-md",)]
