"""Hostile documents: every loader fuzzed; each file ingests whole or is reported with a typed error.

Categories (``hostile_files``): random bytes, truncation, nested markup and
JSON, huge lines, NUL bytes, mixed encodings, JSON escapes for what cannot be
stored, zip-bomb-like repetition (YAML alias bombs included), empty files and
random splices, over every format a loader takes. Three levels:

- ``load_file`` alone, property-based: documents that are usable as a whole,
  or a ``SourceError`` naming the file; nothing else.
- ingest next to good files, property-based: the hostile file is ingested or
  listed as skipped with its typed error, the good files are stored exactly as
  without it, and every stored document is whole (all its sentences, each an
  exact slice of its text, in its chunks).
- a fixed corpus of one file per format and category, ingested twice: the
  second run writes nothing and changes nothing.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reliability import hostile_files as hf
from tests.reliability.conftest import TALLY, SampleGraph
from tests.reliability.graphprint import graph_print
from zehn.corpus.loaders import load_file
from zehn.corpus.model import DOC_ID_PATTERN, Document
from zehn.errors import SourceError
from zehn.extract.ingest import IngestReport, ingest_path
from zehn.reading.split import chunk_sentences, split_sentences
from zehn.store.client import GraphClient

TYPED = {"SourceError", "UnsupportedSource", "MalformedSource", "EmptySource", "EncodingError"}
CANARIES = {
    "canary/alpha.md": b"# Canary alpha\n\nThe canary-alpha service feeds the indexer. It is watched.\n",
    "canary/beta.txt": b"Canary beta notes.\n\nThe canary-beta job reads from search-api. Daily.\n",
    "canary/gamma.eml": (
        b"Message-ID: <canary-gamma@example.com>\nDate: Tue, 5 Mar 2024 14:22:05 +0100\n"
        b"From: Gamma <gamma@example.com>\nTo: team@example.com\nSubject: Canary gamma\n"
        b"Content-Type: text/plain; charset=UTF-8\n\nThe canary-gamma queue feeds billing. Noted.\n"
    ),
}
KIND = st.sampled_from(hf.KINDS)
FRACTION = st.floats(min_value=0.0, max_value=1.0)
CATEGORY_STRATEGIES: dict[str, st.SearchStrategy[bytes]] = {
    "random bytes": st.binary(max_size=3000),
    "truncated": st.builds(hf.truncated, KIND, FRACTION),
    "nested markup": st.builds(hf.nested, KIND, st.integers(min_value=1, max_value=3000)),
    "huge line": st.builds(hf.huge_line, KIND, st.integers(10_000, 300_000), FRACTION),
    "NUL bytes": st.builds(hf.with_nul, KIND, FRACTION, st.integers(1, 5)),
    "mixed encodings": st.builds(hf.mixed_encoding, KIND, FRACTION, st.sampled_from(hf.MIXED_FRAGMENTS)),
    "JSON escapes (surrogate, NUL)": st.builds(hf.json_escapes, KIND, st.integers(0, 11)),
    "zip-bomb-like repetition": st.builds(hf.repeated, KIND, st.integers(2, 60)),
    "empty": st.builds(hf.empty, KIND, st.integers(0, 20)),
    "random splice": st.builds(hf.spliced, KIND, FRACTION, st.binary(min_size=1, max_size=64)),
}  # fmt: skip
LOADS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
INGESTS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
MAX_LOAD_S = 30.0  # a hostile file may be slow to refuse, never endless


# --- load_file alone ---------------------------------------------------------------------------


@pytest.mark.parametrize("category", sorted(CATEGORY_STRATEGIES))
def test_every_loader_loads_or_reports_hostile_files(category: str) -> None:
    @LOADS
    @given(kind=KIND, data=CATEGORY_STRATEGIES[category])
    def check(kind: hf.Kind, data: bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            path = hf.write(root, kind.path, data)
            outcome = _load(path, root)
        TALLY[f"documents: files loaded, {category}"] += 1
        TALLY[f"documents: load outcome, {outcome}"] += 1

    check()


def _load(path: Path, root: Path) -> str:
    """Load one file and check what came back; returns 'loaded' or the error's type name."""
    started = time.perf_counter()
    try:
        documents = load_file(path, root)
    except SourceError as e:
        assert e.path == str(path) and e.reason, e
        outcome = type(e).__name__
    else:
        for doc in documents:
            _usable(doc)
        outcome = "loaded"
    elapsed = time.perf_counter() - started
    assert elapsed < MAX_LOAD_S, f"{path.name} took {elapsed:.1f} s"
    TALLY["documents: slowest load (ms)"] = max(
        TALLY["documents: slowest load (ms)"], int(elapsed * 1000)
    )
    return outcome


def _usable(doc: Document) -> None:
    """What ingest relies on: an id, storable strings, sentences that slice the text."""
    assert DOC_ID_PATTERN.match(doc.id), doc.id
    for value in (
        doc.id,
        doc.title,
        doc.text,
        doc.uri,
        doc.author,
        *doc.attrs,
        *doc.attrs.values(),
    ):
        assert isinstance(value, str) and "\x00" not in value
        value.encode("utf-8")  # no unpaired surrogate
    for sentence in split_sentences(doc.id, doc.text):
        assert doc.text[sentence.start : sentence.end] == sentence.text


# --- ingest next to good files --------------------------------------------------------------


@pytest.fixture(scope="module")
def canary_state(sample_graph: SampleGraph) -> Iterator[dict[str, Any]]:
    """The good files ingested alone: what they must look like next to any hostile file."""
    client = sample_graph.client
    graph = f"rel_canary_{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for relative, data in CANARIES.items():
            hf.write(root, relative, data)
        report = ingest_path(client, graph, root)
    assert report.documents == len(CANARIES) and not report.skipped
    yield _documents(client, graph, None)
    client.delete_graph(graph)


@pytest.mark.integration
def test_a_hostile_file_never_affects_its_neighbours(
    sample_graph: SampleGraph, canary_state: dict[str, Any]
) -> None:
    client = sample_graph.client
    categories = st.sampled_from(sorted(CATEGORY_STRATEGIES))

    @INGESTS
    @given(data=st.data(), kind=KIND, category=categories)
    def check(data: st.DataObject, kind: hf.Kind, category: str) -> None:
        content = data.draw(CATEGORY_STRATEGIES[category], label="content")
        graph = f"rel_hostile_{uuid.uuid4().hex[:8]}"
        root = Path(tempfile.mkdtemp(prefix="zehn-hostile-"))
        try:
            for relative, good in CANARIES.items():
                hf.write(root, relative, good)
            hostile = hf.write(root, kind.path, content)
            report = ingest_path(client, graph, root)
            outcome = _judge(client, graph, report, {str(hostile)}, canary_state)
            TALLY[f"documents: ingested next to good files, {outcome[str(hostile)]}"] += 1
        finally:
            shutil.rmtree(root, ignore_errors=True)
            if client.graph_exists(graph):
                client.delete_graph(graph)

    check()


@pytest.mark.integration
def test_a_corpus_of_every_format_broken_every_way(
    sample_graph: SampleGraph, canary_state: dict[str, Any], tmp_path: Path
) -> None:
    """One file per format and category, plus the good files; then the same ingest again."""
    client = sample_graph.client
    graph = f"rel_corpus_{uuid.uuid4().hex[:6]}"
    hostile: set[str] = set()
    for relative, good in CANARIES.items():
        hf.write(tmp_path, relative, good)
    for category in hf.CATEGORIES:
        for index, kind in enumerate(hf.KINDS):
            folder = f"{category.replace(' ', '_')}/{index:02d}"
            hostile.add(
                str(hf.write(tmp_path / folder, kind.path, hf.fixed_variant(kind, category)))
            )
    try:
        report = ingest_path(client, graph, tmp_path)
        outcomes = _judge(client, graph, report, hostile, canary_state)
        for category in hf.CATEGORIES:
            prefix = str(tmp_path / category.replace(" ", "_"))
            mine = [o for path, o in outcomes.items() if path.startswith(prefix)]
            ingested = sum(o == "ingested" for o in mine)
            TALLY[f"documents: fixed corpus, {category}: ingested"] += ingested
            TALLY[f"documents: fixed corpus, {category}: reported"] += len(mine) - ingested
        TALLY["documents: fixed corpus files"] += len(hostile)
        before = graph_print(client, graph)
        again = ingest_path(client, graph, tmp_path)
        assert again.written == 0, again.written_ids
        assert {s.path for s in again.skipped} == {s.path for s in report.skipped}
        assert graph_print(client, graph) == before
    finally:
        if client.graph_exists(graph):
            client.delete_graph(graph)


# --- what ingest left -------------------------------------------------------------------------


def _judge(
    client: GraphClient,
    graph: str,
    report: IngestReport,
    hostile: set[str],
    canaries: dict[str, Any],
) -> dict[str, str]:
    """Check the report and the graph; the outcome of each hostile file."""
    skipped = {s.path: s for s in report.skipped}
    outcomes: dict[str, str] = {}
    for path in hostile:
        if path in skipped:
            entry = skipped[path]
            assert entry.error in TYPED and entry.reason, entry
            outcomes[path] = entry.error
        else:
            outcomes[path] = "ingested"
    assert set(skipped) <= hostile, f"good files were skipped: {set(skipped) - hostile}"
    assert _documents(client, graph, set(canaries)) == canaries, "a good file changed"
    _assert_whole(client, graph)
    return outcomes


def _documents(client: GraphClient, graph: str, ids: set[str] | None) -> dict[str, Any]:
    """Each document's text hash and sentence ids (all documents, or those in ``ids``)."""
    rows = client.read(
        graph,
        "MATCH (d:Document) WHERE $ids IS NULL OR d.id IN $ids "
        "OPTIONAL MATCH (s:Sentence {doc_id: d.id}) "
        "RETURN d.id, d.text_sha, d.title, collect(s.id)",
        {"ids": sorted(ids) if ids is not None else None},
    ).rows
    return {str(i): (sha, title, sorted(s)) for i, sha, title, s in rows}


def _assert_whole(client: GraphClient, graph: str) -> None:
    """No partial document: each one has exactly its sentences and chunks, linked, verbatim."""
    docs = dict(client.read(graph, "MATCH (d:Document) RETURN d.id, d.text").rows)
    stored = client.read(
        graph,
        "MATCH (s:Sentence) OPTIONAL MATCH (s)-[:PART_OF]->(c:Chunk)-[:PART_OF]->(d:Document) "
        "RETURN s.id, s.doc_id, s.text, s.start, s.end, c.doc_id, d.id",
    ).rows
    by_doc: dict[str, dict[str, tuple[str, int, int]]] = {doc_id: {} for doc_id in docs}
    for sid, doc_id, text, start, end, chunk_doc, linked_doc in stored:
        assert doc_id in docs, f"sentence {sid} of a document that is not stored"
        assert chunk_doc == doc_id == linked_doc, f"sentence {sid} is not linked to its document"
        by_doc[doc_id][sid] = (text, start, end)
    for doc_id, text in docs.items():
        expected = split_sentences(doc_id, text)
        chunks, _ = chunk_sentences(doc_id, expected)
        assert set(by_doc[doc_id]) == {s.id for s in expected}, f"{doc_id} is partial"
        for sentence_text, start, end in by_doc[doc_id].values():
            assert text[start:end] == sentence_text
        linked = client.read(
            graph,
            "MATCH (c:Chunk {doc_id: $id})-[:PART_OF]->(:Document {id: $id}) RETURN count(c)",
            {"id": doc_id},
        ).scalar()
        assert linked == len(chunks), f"{doc_id}: {linked} chunks stored, {len(chunks)} expected"
    orphans = client.read(
        graph, "MATCH (c:Chunk) WHERE NOT (c)-[:PART_OF]->(:Document) RETURN count(c)"
    ).scalar()
    assert orphans == 0, "chunks without their document"
