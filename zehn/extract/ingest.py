"""Load a corpus from disk into a named graph: Document, Chunk and Sentence nodes.

Each document is written by one query, so it is in the graph whole or not at
all. Re-ingesting is idempotent: a document whose text is unchanged is left
as it is (only its metadata is refreshed); a changed document replaces its own
chunks, sentences and the edges extracted from it, and nothing else. A file
that cannot be loaded is reported with its path and reason while every other
file is still ingested.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zehn.corpus.dates import iso_utc, stated_dates
from zehn.corpus.loaders import iter_source_files, load_file
from zehn.corpus.model import Document, Sentence
from zehn.errors import (
    AccessDenied,
    CorpusError,
    EmptySource,
    MalformedSource,
    QueryError,
    SourceError,
)
from zehn.reading.split import chunk_sentences, split_sentences
from zehn.store.client import GraphClient
from zehn.store.revision import bump_revision
from zehn.store.schema import ensure_schema

ProgressFactory = Callable[[int], Any]

_EXISTING = "MATCH (d:Document) RETURN d.id, d.text_sha"

_REPLACE_DOCUMENT = """
MERGE (d:Document {id: $doc.id})
SET d += $doc
WITH d
OPTIONAL MATCH (s:Sentence {doc_id: $doc.id})
DETACH DELETE s
WITH DISTINCT d
OPTIONAL MATCH (c:Chunk {doc_id: $doc.id})
DETACH DELETE c
WITH DISTINCT d
OPTIONAL MATCH ()-[r:RELATES {doc_id: $doc.id}]->()
DELETE r
WITH DISTINCT d
UNWIND $chunks AS ch
CREATE (c:Chunk {id: ch.id, doc_id: ch.doc_id, ordinal: ch.ordinal, start: ch.start, end: ch.end})
CREATE (c)-[:PART_OF]->(d)
WITH DISTINCT d
UNWIND $sentences AS s
MATCH (c:Chunk {id: s.chunk_id})
CREATE (n:Sentence {id: s.id, doc_id: s.doc_id, text: s.text, start: s.start, end: s.end,
                    stated_at: s.stated_at})
CREATE (n)-[:PART_OF]->(c)
"""

_UPDATE_METADATA = "MATCH (d:Document {id: $doc.id}) SET d += $doc"


@dataclass(frozen=True)
class SkippedFile:
    """A file that was not ingested, and why (shown to the user verbatim)."""

    path: str
    reason: str
    error: str


@dataclass(frozen=True)
class IngestReport:
    """What an ingest did, per source type, with every skipped file named."""

    graph: str
    root: str
    files: int
    documents_by_type: dict[str, int]
    written: int
    unchanged: int
    sentences: int
    chunks: int
    skipped: tuple[SkippedFile, ...]
    elapsed_s: float
    written_ids: tuple[str, ...] = field(default=(), repr=False)

    @property
    def documents(self) -> int:
        return sum(self.documents_by_type.values())

    @property
    def failed_completely(self) -> bool:
        """Nothing usable at all: the CLI exits 1 on this."""
        return self.documents == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "graph": self.graph,
            "root": self.root,
            "files": self.files,
            "documents": self.documents,
            "documents_by_type": dict(self.documents_by_type),
            "written": self.written,
            "unchanged": self.unchanged,
            "sentences": self.sentences,
            "chunks": self.chunks,
            "skipped": [vars(s) for s in self.skipped],
            "elapsed_s": round(self.elapsed_s, 3),
        }

    def to_frame(self) -> pd.DataFrame:
        """Documents per source type as a DataFrame."""
        import pandas as pd  # imported here: it costs half a second at start-up

        return pd.DataFrame(
            sorted(self.documents_by_type.items()), columns=["source_type", "documents"]
        )


def document_properties(doc: Document) -> dict[str, Any]:
    """Graph properties of a Document node (dates as ISO 8601 UTC strings)."""
    props: dict[str, Any] = {
        "id": doc.id,
        "source_type": doc.source_type.value,
        "title": doc.title,
        "uri": doc.uri,
        "author": doc.author,
        "created_at": iso_utc(doc.created_at),
        "updated_at": iso_utc(doc.updated_at),
        "text": doc.text,
        "text_sha": doc.text_sha,
    }
    props.update({f"attr_{key}": value for key, value in doc.attrs.items()})
    return props


def ingest_path(
    client: GraphClient,
    graph: str,
    path: Path,
    *,
    progress: ProgressFactory | None = None,
) -> IngestReport:
    """Ingest every source file under ``path`` into ``graph``.

    ``progress`` builds a progress bar from the file count (``tqdm``-like:
    ``update()`` and ``close()``); None shows none.
    """
    started = time.perf_counter()
    root = Path(path)
    if not root.exists():
        raise CorpusError(f"{root}: no such file or directory")
    files = list(iter_source_files(root))
    base = root if root.is_dir() else root.parent
    ensure_schema(client, graph)
    bump_revision(client, graph)
    existing = {str(i): str(sha) for i, sha in client.read(graph, _EXISTING).rows}

    by_type: Counter[str] = Counter()
    skipped: list[SkippedFile] = []
    seen: dict[str, str] = {}
    written: list[str] = []
    unchanged = sentences_total = chunks_total = 0
    bar = progress(len(files)) if progress else None
    try:
        for file in files:
            try:
                documents = _load_unique(file, base, seen)
            except SourceError as e:
                skipped.append(SkippedFile(str(file), e.reason, type(e).__name__))
                _advance(bar)
                continue
            for doc, sentences in documents:
                try:
                    n_sentences, n_chunks, changed = _write_document(
                        client, graph, doc, sentences, existing
                    )
                except AccessDenied:
                    raise  # every write would fail: not this document's fault
                except QueryError as e:  # one atomic write refused: nothing of it is stored
                    reason = f"document {doc.id!r} could not be written: {e}"
                    skipped.append(SkippedFile(str(file), reason, type(e).__name__))
                    continue
                by_type[doc.source_type.value] += 1
                sentences_total += n_sentences
                chunks_total += n_chunks
                if changed:
                    written.append(doc.id)
                else:
                    unchanged += 1
            _advance(bar)
    finally:  # metadata of unchanged documents is rewritten too: what was kept is stale
        bump_revision(client, graph)
        if bar is not None:
            bar.close()
    return IngestReport(
        graph=graph,
        root=str(root),
        files=len(files),
        documents_by_type=dict(sorted(by_type.items())),
        written=len(written),
        unchanged=unchanged,
        sentences=sentences_total,
        chunks=chunks_total,
        skipped=tuple(skipped),
        elapsed_s=time.perf_counter() - started,
        written_ids=tuple(written),
    )


def _load_unique(
    file: Path, base: Path, seen: dict[str, str]
) -> list[tuple[Document, list[Sentence]]]:
    """Load one file and check it is usable as a whole before anything is written
    (each document with its sentences: split once, checked here, written later)."""
    documents = load_file(file, base)
    if not documents:
        raise EmptySource(file, "no documents found")
    for doc in documents:
        if doc.id in seen:
            raise MalformedSource(
                file, f"document id {doc.id!r} is also produced by {seen[doc.id]}"
            )
        if "\x00" in doc.text:
            raise MalformedSource(file, f"document {doc.id!r} contains NUL characters")
    split = [(doc, split_sentences(doc.id, doc.text)) for doc in documents]
    for doc, sentences in split:
        if not sentences:
            raise EmptySource(file, f"document {doc.id!r} has no sentences")
    for doc in documents:
        seen[doc.id] = str(file)
    return split


def _write_document(
    client: GraphClient,
    graph: str,
    doc: Document,
    sentences: list[Sentence],
    existing: dict[str, str],
) -> tuple[int, int, bool]:
    """Write one document atomically; returns (sentences, chunks, whether text was rewritten)."""
    chunks, stamped = chunk_sentences(doc.id, sentences)
    props = document_properties(doc)
    if existing.get(doc.id) == doc.text_sha:
        client.write(graph, _UPDATE_METADATA, {"doc": props})
        return len(stamped), len(chunks), False
    params = {
        "doc": props,
        "chunks": [
            {"id": c.id, "doc_id": c.doc_id, "ordinal": c.ordinal, "start": c.start, "end": c.end}
            for c in chunks
        ],
        "sentences": [
            {
                "id": s.id,
                "doc_id": s.doc_id,
                "text": s.text,
                "start": s.start,
                "end": s.end,
                "chunk_id": chunks[s.chunk_ordinal].id,
                "stated_at": stated,
            }
            for s, stated in zip(stamped, stated_dates(doc, stamped), strict=True)
        ],
    }
    client.write(graph, _REPLACE_DOCUMENT, params)
    existing[doc.id] = doc.text_sha
    return len(stamped), len(chunks), True


def _advance(bar: Any) -> None:
    if bar is not None:
        bar.update(1)
