"""Load a corpus from disk into a named graph: Document, Chunk and Sentence nodes.

Documents are written in batched UNWIND queries of about ``BATCH_SENTENCES`` sentences:
many small documents share one query, and a large one is written in several (its first
part clears what was stored of it). A batch the server refuses is written again document
by document, so the one refused is skipped and reported with nothing of it stored, and
every other document is still written. A document of one part is in the graph whole or
not at all; one of several parts is written whole inside a build's staging graph
(``zehn.extract.pipeline``): a later part refused removes what was written of it and
raises, so the build fails and the live graph stays as it was.

Re-ingesting is idempotent: a document whose text is unchanged is left as it is (only
its metadata is refreshed); a changed document replaces its own chunks, sentences and the
edges extracted from it, and nothing else. A file that cannot be loaded is reported with
its path and reason while every other file is still ingested.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

import contextlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zehn.corpus.dates import iso_utc, stated_dates
from zehn.corpus.loaders import iter_source_files, load_file
from zehn.corpus.model import Document, Sentence, SourceText
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

# sentences per write; a batch holds whole documents up to it, a larger document is split.
# Small enough that the next batch is made while the server writes one (a corpus of 5,000
# sentences is three writes, not one), large enough that each write pays.
BATCH_SENTENCES = 2_000

# what was stored of documents being replaced: their sentences (with their mentions), chunks
# and extracted edges. One pass over RELATES for the batch, not one per document.
_CLEAR_DOCUMENTS = """
UNWIND $replaced AS rid
OPTIONAL MATCH (s:Sentence {doc_id: rid})
DETACH DELETE s
WITH DISTINCT rid
OPTIONAL MATCH (c:Chunk {doc_id: rid})
DETACH DELETE c
WITH count(*) AS _
OPTIONAL MATCH ()-[r:RELATES]->()
WHERE r.doc_id IN $replaced
DELETE r
WITH count(*) AS _
"""
# each part: a document's properties (all of them on its first part, its id on the others)
# and some of its chunks, each chunk with its sentences; a part without chunks refreshes
# the metadata of an unchanged document
_WRITE_PARTS = """
UNWIND $parts AS part
MERGE (d:Document {id: part.doc.id})
SET d += part.doc
WITH d, part
UNWIND part.chunks AS ch
CREATE (c:Chunk {id: ch.id, doc_id: ch.doc_id, ordinal: ch.ordinal, start: ch.start, end: ch.end})
CREATE (c)-[:PART_OF]->(d)
WITH c, ch
UNWIND ch.sentences AS s
CREATE (n:Sentence {id: s.id, doc_id: s.doc_id, text: s.text, start: s.start, end: s.end,
                    stated_at: s.stated_at})
CREATE (n)-[:PART_OF]->(c)
"""
_REMOVE_PARTIAL = """
MATCH (d:Document {id: $id})
OPTIONAL MATCH (s:Sentence {doc_id: $id})
DETACH DELETE s
WITH DISTINCT d
OPTIONAL MATCH (c:Chunk {doc_id: $id})
DETACH DELETE c
WITH DISTINCT d
DETACH DELETE d
"""


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

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> IngestReport:
        """The report ``to_dict`` wrote (a build run in another process, read back)."""
        return cls(
            graph=str(data["graph"]),
            root=str(data["root"]),
            files=int(data["files"]),
            documents_by_type={str(k): int(v) for k, v in data["documents_by_type"].items()},
            written=int(data["written"]),
            unchanged=int(data["unchanged"]),
            sentences=int(data["sentences"]),
            chunks=int(data["chunks"]),
            skipped=tuple(SkippedFile(**s) for s in data.get("skipped") or ()),
            elapsed_s=float(data["elapsed_s"]),
        )

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
    keep: dict[str, SourceText] | None = None,
) -> IngestReport:
    """Ingest every source file under ``path`` into ``graph``.

    ``keep``, when given, receives each document written whole as the ``SourceText`` a
    read of the graph would give back (a build extracts from it without reading it back).

    ``progress`` builds a progress bar from the file count (``tqdm``-like:
    ``update()`` and ``close()``); None shows none. A document written in several parts
    says each part on the bar's ``set_postfix_str`` where it has one (tqdm does).
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

    skipped: list[SkippedFile] = []
    bar = progress(len(files)) if progress else None
    writer = _BatchWriter(client, graph, existing, skipped, bar, keep)
    try:
        _write_files(files, base, writer, skipped, bar)
    finally:  # metadata of unchanged documents is rewritten too: what was kept is stale
        writer.close()
        bump_revision(client, graph)
        if bar is not None:
            bar.close()
    return IngestReport(
        graph=graph,
        root=str(root),
        files=len(files),
        documents_by_type=dict(sorted(writer.by_type.items())),
        written=len(writer.written),
        unchanged=writer.unchanged,
        sentences=writer.sentences,
        chunks=writer.chunks,
        skipped=tuple(skipped),
        elapsed_s=time.perf_counter() - started,
        written_ids=tuple(writer.written),
    )


def _write_files(
    files: Sequence[Path],
    base: Path,
    writer: _BatchWriter,
    skipped: list[SkippedFile],
    bar: Any,
) -> None:
    """Load each file and hand its documents to the writer; a file that cannot be read is
    skipped with the reason, the bar advanced either way."""
    seen: dict[str, str] = {}
    for file in files:
        try:
            documents = _load_unique(file, base, seen)
        except SourceError as e:
            skipped.append(SkippedFile(str(file), e.reason, type(e).__name__))
            _advance(bar)
            continue
        for doc, sentences in documents:
            writer.add(str(file), doc, sentences)
        _advance(bar)
    writer.flush()
    writer.settle()


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


@dataclass
class _Part:
    """Some of one document's chunks (with their sentences) for one write."""

    file: str
    doc: Document
    props: dict[str, Any]  # every property on a document's first part, the id on the others
    chunks: list[dict[str, Any]]
    sentences: int
    number: int  # 1-based, of ``parts``
    parts: int
    replaces: bool  # the first part of a changed document: what was stored of it goes
    changed: bool  # False: an unchanged document whose metadata is refreshed
    doc_sentences: int
    doc_chunks: int
    # the document as stored, on the last part of a changed one when the caller keeps texts
    source: SourceText | None = None


class _BatchWriter:
    """Collects documents into batches of about ``BATCH_SENTENCES`` sentences and writes each
    batch with one UNWIND query, keeping the report's counts as documents complete."""

    def __init__(
        self,
        client: GraphClient,
        graph: str,
        existing: dict[str, str],
        skipped: list[SkippedFile],
        bar: Any,
        keep: dict[str, SourceText] | None = None,
    ) -> None:
        self.client, self.graph, self.existing, self.skipped, self.bar = (
            client, graph, existing, skipped, bar,
        )  # fmt: skip
        self.keep = keep
        self.pending: list[_Part] = []
        self.pending_sentences = 0
        self.refused: set[str] = set()
        self.by_type: Counter[str] = Counter()
        self.written: list[str] = []
        self.unchanged = self.sentences = self.chunks = 0
        # one batch on the server at a time, sent from this worker while the next is made
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zehn-ingest")
        self._sending: tuple[list[_Part], Future[None]] | None = None

    def add(self, file: str, doc: Document, sentences: list[Sentence]) -> None:
        for part in _parts(file, doc, sentences, self.existing, keep=self.keep is not None):
            # an unchanged document's refresh sends its text: it weighs its sentences too
            weight = part.sentences if part.changed else part.doc_sentences
            if self.pending and self.pending_sentences + weight > BATCH_SENTENCES:
                self.flush()
            self.pending.append(part)
            self.pending_sentences += weight

    def flush(self) -> None:
        """Send the pending batch; the batch sent before it is finished first (its documents
        counted, or the refused one found), so a later part of a document never goes after
        its refused first part, and the worker writes one batch while the next is made."""
        parts = [p for p in self.pending if p.doc.id not in self.refused]
        self.pending, self.pending_sentences = [], 0
        if not parts:
            return
        self.settle()
        parts = [p for p in parts if p.doc.id not in self.refused]
        if parts:
            # _write_parts looked up at each call: tests inject a refusing server through it
            sent = self._worker.submit(_write_parts, self.client, self.graph, parts)
            self._sending = (parts, sent)

    def settle(self) -> None:
        """Wait for the batch on the server and count its documents; a refused batch is
        written again document by document to find the one refused."""
        if self._sending is None:
            return
        parts, sent = self._sending
        self._sending = None
        try:
            sent.result()
        except AccessDenied:
            raise  # every write would fail: not these documents' fault
        except QueryError as error:
            self._one_by_one(parts, error)
            return
        for part in parts:
            self._done(part)

    def close(self) -> None:
        """Stop the worker after the batch it is writing (its outcome is not needed when the
        ingest failed: the caller raises)."""
        if self._sending is not None:
            with contextlib.suppress(Exception):
                self._sending[1].result()
            self._sending = None
        self._worker.shutdown(wait=True)

    def _one_by_one(self, parts: list[_Part], error: QueryError) -> None:
        if len(parts) == 1:
            self._refused(parts[0], error)
            return
        for part in parts:  # find the one refused: write each on its own
            if part.doc.id in self.refused:
                continue
            try:
                _write_parts(self.client, self.graph, [part])
            except AccessDenied:
                raise
            except QueryError as e:
                self._refused(part, e)
                continue
            self._done(part)

    def _refused(self, part: _Part, error: QueryError) -> None:
        """A first part refused skips its document, nothing of it stored; a later part
        refused removes what was written of it and is raised (the build must fail)."""
        if part.number == 1:
            reason = f"document {part.doc.id!r} could not be written: {error}"
            self.skipped.append(SkippedFile(part.file, reason, type(error).__name__))
            self.refused.add(part.doc.id)
            return
        self.client.write(self.graph, _REMOVE_PARTIAL, {"id": part.doc.id})
        failure = QueryError(
            f"document {part.doc.id!r} ({part.doc_sentences} sentences) could not be written: "
            f"part {part.number} of {part.parts} was refused ({error}); what was written of "
            "it is removed"
        )
        raise failure from error

    def _done(self, part: _Part) -> None:
        if part.number < part.parts:
            self._report(part)
            return
        self.by_type[part.doc.source_type.value] += 1
        self.sentences += part.doc_sentences
        self.chunks += part.doc_chunks
        if part.changed:
            self.written.append(part.doc.id)
            if self.keep is not None and part.source is not None:
                self.keep[part.doc.id] = part.source
        else:
            self.unchanged += 1
        if part.parts > 1:
            self._report(part)

    def _report(self, part: _Part) -> None:
        """Progress inside a document written in several parts (a tqdm bar's postfix)."""
        show = getattr(self.bar, "set_postfix_str", None)
        if callable(show):
            show(f"{part.doc.id}: part {part.number} of {part.parts} written")


def _parts(
    file: str,
    doc: Document,
    sentences: list[Sentence],
    existing: dict[str, str],
    *,
    keep: bool = False,
) -> list[_Part]:
    """The writes of one document: none of its chunks when its text is unchanged (metadata
    only), else its chunks in parts of about ``BATCH_SENTENCES`` sentences."""
    chunks, stamped = chunk_sentences(doc.id, sentences)
    props = document_properties(doc)
    if existing.get(doc.id) == doc.text_sha:
        return [_Part(file, doc, props, [], 0, 1, 1, False, False, len(stamped), len(chunks))]
    rows: list[dict[str, Any]] = [
        {"id": c.id, "doc_id": c.doc_id, "ordinal": c.ordinal, "start": c.start, "end": c.end,
         "sentences": []}
        for c in chunks
    ]  # fmt: skip
    for sentence, stated in zip(stamped, stated_dates(doc, stamped), strict=True):
        rows[sentence.chunk_ordinal]["sentences"].append(
            {
                "id": sentence.id,
                "doc_id": sentence.doc_id,
                "text": sentence.text,
                "start": sentence.start,
                "end": sentence.end,
                "stated_at": stated,
            }
        )
    groups: list[list[dict[str, Any]]] = [[]]
    size = 0
    for row in rows:
        if groups[-1] and size + len(row["sentences"]) > BATCH_SENTENCES:
            groups.append([])
            size = 0
        groups[-1].append(row)
        size += len(row["sentences"])
    replaces = doc.id in existing
    out = []
    for i, group in enumerate(groups):
        count = sum(len(r["sentences"]) for r in group)
        first, last = i == 0, i == len(groups) - 1
        doc_props = props if first else {"id": doc.id}
        if len(groups) > 1:
            # the text's hash only with the last part: a document cut off between parts (the
            # server gone) is not "unchanged" to the next ingest, which writes it again
            doc_props = {**doc_props, "text_sha": doc.text_sha if last else None}
        out.append(
            _Part(file, doc, doc_props, group, count, i + 1, len(groups), replaces and first,
                  True, len(stamped), len(chunks))
        )  # fmt: skip
    if keep:
        out[-1].source = SourceText(
            doc.id, doc.title, doc.text, tuple(chunks),
            tuple(sorted(stamped, key=lambda s: s.start)),
        )  # fmt: skip
    return out


def _write_parts(client: GraphClient, graph: str, parts: list[_Part]) -> None:
    """One query: clear the documents being replaced, then write every part."""
    replaced = [p.doc.id for p in parts if p.replaces]
    cypher = (_CLEAR_DOCUMENTS if replaced else "") + _WRITE_PARTS
    params: dict[str, Any] = {"parts": [{"doc": p.props, "chunks": p.chunks} for p in parts]}
    if replaced:
        params["replaced"] = replaced
    client.write(graph, cypher, params)


def _advance(bar: Any) -> None:
    if bar is not None:
        bar.update(1)
