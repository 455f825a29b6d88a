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
    real = ingest_module._write_parts
    calls: list[list[str]] = []

    def refuse_design(client: GraphClient, graph: str, parts: list[Any]) -> None:
        calls.append([p.doc.id for p in parts])
        if any(p.doc.id == "doc/design-md" for p in parts):
            raise QueryError("injected: the server refused this write")
        real(client, graph, parts)

    monkeypatch.setattr(ingest_module, "_write_parts", refuse_design)
    kept: dict[str, Any] = {}
    report = ingest_path(client, graph_name, corpus, keep=kept)
    assert report.written_ids == ("doc/runbook-md",)
    assert list(kept) == ["doc/runbook-md"]  # a build extracts only what was stored
    assert [(s.error, "doc/design-md" in s.reason) for s in report.skipped] == [
        ("QueryError", True)
    ]
    stored = client.read(graph_name, "MATCH (d:Document) RETURN d.id").rows
    assert list(stored) == [("doc/runbook-md",)]
    # both documents went in one batch; refused, each was written again on its own
    assert calls == [["doc/design-md", "doc/runbook-md"], ["doc/design-md"], ["doc/runbook-md"]]


def _long_document(root: Path, sentences: int, word: str = "ledger") -> Path:
    """An invented document of ``sentences`` sentences in paragraphs of three."""
    lines = [
        f"Service {word}-{i} depends on queue-{i}. It retries. It logs."
        for i in range(sentences // 3)
    ]
    root.mkdir(parents=True, exist_ok=True)
    (root / "long.md").write_text("# Long\n\n" + "\n\n".join(lines) + "\n", "utf-8")
    return root


class _Bar:
    """A tqdm-like bar that records what it is told."""

    def __init__(self, total: int) -> None:
        self.total, self.updates, self.postfixes = total, 0, []

    def update(self, n: int = 1) -> None:
        self.updates += n

    def set_postfix_str(self, text: str) -> None:
        self.postfixes.append(text)

    def close(self) -> None:
        return None


def test_a_document_larger_than_a_batch_is_written_in_parts_and_complete(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zehn.extract import ingest as ingest_module

    corpus = _long_document(tmp_path / "docs", 300)
    whole = ingest_path(client, f"{graph_name}_whole", corpus)  # one batch: 301 sentences
    monkeypatch.setattr(ingest_module, "BATCH_SENTENCES", 80)
    real = ingest_module._write_parts
    sizes: list[int] = []

    def counted(client: GraphClient, graph: str, parts: list[Any]) -> None:
        sizes.append(sum(p.sentences for p in parts))
        real(client, graph, parts)

    monkeypatch.setattr(ingest_module, "_write_parts", counted)
    bars: list[_Bar] = []
    report = ingest_path(
        client, graph_name, corpus, progress=lambda n: bars.append(_Bar(n)) or bars[-1]
    )
    assert len(sizes) >= 4 and max(sizes) <= 80 and sum(sizes) == whole.sentences == 301
    assert (report.sentences, report.chunks, report.written) == (whole.sentences, whole.chunks, 1)
    assert _sentences(client, graph_name) == _sentences(client, f"{graph_name}_whole")
    chunks = client.read(graph_name, "MATCH (c:Chunk)-[:PART_OF]->(:Document) RETURN count(c)")
    assert chunks.scalar() == whole.chunks
    (bar,) = bars
    assert bar.postfixes[0] == f"doc/long-md: part 1 of {len(sizes)} written"
    assert bar.postfixes[-1] == f"doc/long-md: part {len(sizes)} of {len(sizes)} written"


def test_a_changed_large_document_replaces_all_of_its_old_parts(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zehn.extract import ingest as ingest_module

    monkeypatch.setattr(ingest_module, "BATCH_SENTENCES", 80)
    corpus = _long_document(tmp_path / "docs", 300)
    ingest_path(client, graph_name, corpus)
    _long_document(corpus, 240, word="billing")
    report = ingest_path(client, graph_name, corpus)
    assert report.written_ids == ("doc/long-md",)
    texts = [text for text, *_ in _sentences(client, graph_name).values()]
    assert len(texts) == report.sentences == 241
    assert not any("ledger" in t for t in texts) and sum("billing" in t for t in texts) == 80


def test_a_refused_later_part_fails_the_build_and_the_live_graph_stays(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zehn.errors import QueryError
    from zehn.extract import ingest as ingest_module
    from zehn.extract.pipeline import build_graph

    corpus = _long_document(tmp_path / "c" / "sources", 300)
    first = build_graph(client, graph_name, corpus.parent, "rules")
    live = f"{graph_name}__rules"
    before = sorted(client.read(live, "MATCH (n) WHERE NOT n:Meta RETURN labels(n)[0], n.id").rows)
    _long_document(corpus, 270, word="billing")
    monkeypatch.setattr(ingest_module, "BATCH_SENTENCES", 80)
    real = ingest_module._write_parts
    written: list[int] = []

    def refuse_third(client: GraphClient, graph: str, parts: list[Any]) -> None:
        if any(p.number == 3 for p in parts):
            stored = client.read(
                graph, "MATCH (s:Sentence {doc_id: 'doc/long-md'}) RETURN count(s)"
            )
            assert stored.scalar() == sum(written) > 0  # two parts are in the staging graph
            raise QueryError("injected: the server refused this write")
        real(client, graph, parts)
        written.append(sum(p.sentences for p in parts))

    monkeypatch.setattr(ingest_module, "_write_parts", refuse_third)
    with pytest.raises(QueryError, match=r"'doc/long-md' \(271 sentences\).*part 3 of [4-9]"):
        build_graph(client, graph_name, corpus.parent, "rules")
    assert len(written) == 2
    assert first.swapped and first.ingest.sentences == 301
    after = sorted(client.read(live, "MATCH (n) WHERE NOT n:Meta RETURN labels(n)[0], n.id").rows)
    assert after == before
    assert f"{live}__staging" not in client.list_graphs()


def test_a_large_document_cut_off_between_parts_is_written_whole_by_the_next_ingest(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zehn.errors import GraphUnavailable
    from zehn.extract import ingest as ingest_module

    corpus = _long_document(tmp_path / "docs", 300)
    whole = ingest_path(client, f"{graph_name}_whole", corpus)
    monkeypatch.setattr(ingest_module, "BATCH_SENTENCES", 80)
    real = ingest_module._write_parts

    def server_gone_at_part_two(client: GraphClient, graph: str, parts: list[Any]) -> None:
        if any(p.number == 2 for p in parts):
            raise GraphUnavailable("injected: the server went away")
        real(client, graph, parts)

    monkeypatch.setattr(ingest_module, "_write_parts", server_gone_at_part_two)
    with pytest.raises(GraphUnavailable):
        ingest_path(client, graph_name, corpus)
    assert 0 < len(_sentences(client, graph_name)) < whole.sentences
    monkeypatch.setattr(ingest_module, "_write_parts", real)
    again = ingest_path(client, graph_name, corpus)
    assert (again.written, again.unchanged) == (1, 0)
    assert _sentences(client, graph_name) == _sentences(client, f"{graph_name}_whole")
    third = ingest_path(client, graph_name, corpus)
    assert (third.written, third.unchanged) == (0, 1)


def test_unchanged_documents_are_refreshed_in_batches_weighed_by_their_text(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zehn.extract import ingest as ingest_module

    corpus = _corpus(tmp_path)
    ingest_path(client, graph_name, corpus)
    before = _sentences(client, graph_name)
    monkeypatch.setattr(ingest_module, "BATCH_SENTENCES", 4)
    real = ingest_module._write_parts
    writes: list[list[str]] = []

    def counted(client: GraphClient, graph: str, parts: list[Any]) -> None:
        writes.append([p.doc.id for p in parts])
        real(client, graph, parts)

    monkeypatch.setattr(ingest_module, "_write_parts", counted)
    again = ingest_path(client, graph_name, corpus)
    assert (again.written, again.unchanged) == (0, 2)
    assert writes == [["doc/design-md"], ["doc/runbook-md"]]  # together over 4 sentences
    assert _sentences(client, graph_name) == before
