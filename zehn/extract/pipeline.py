"""Build the graph ``<corpus>__<strategy>``: ingest, extract, write, then swap in atomically.

Everything is written to ``<corpus>__<strategy>__staging`` (a copy of the
current graph when one exists, so unchanged documents are not re-extracted)
and only a complete build replaces the live graph, by RENAME. A failure at
any step deletes the staging graph and leaves the live graph as it was; other
strategies' graphs are never touched.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zehn.config import Settings
from zehn.corpus.model import Chunk, Sentence, SourceText
from zehn.errors import CorpusError, ExtractionError, GraphNotFound, UnknownStrategy
from zehn.extract.base import SentenceStrategy, Strategy
from zehn.extract.catalog_aside import CatalogLoad
from zehn.extract.cooccurrence import CooccurrenceStrategy
from zehn.extract.ingest import IngestReport, ProgressFactory, ingest_path
from zehn.extract.llm_extra import is_llm_module, missing_sdk_message
from zehn.extract.rules import RulesStrategy
from zehn.extract.write import encoded, write_extraction, write_stream
from zehn.reading.names.catalog import Catalog
from zehn.store.client import WRITE_TIMEOUT_MS, GraphClient
from zehn.store.lock import BuildLock, WaitCallback

GRAPH_SEPARATOR = "__"
STAGING_SUFFIX = "__staging"
DEFAULT_STRATEGY = "rules"
_BATCH = 5_000  # rows per UNWIND write of entities, mentions and edges
# the stages a build reports to ``stage`` as each begins (the Corpus view draws one bar each)
BUILD_STAGES = ("files", "sentences", "extraction", "swap")
StageCallback = Callable[[str], None]


def _llm() -> Strategy:
    try:
        # imported here, not at the top: a plain install has no graphrag-sdk, and every other
        # command must work without it
        from zehn.extract.llm import LLMStrategy
    except ImportError as e:  # the SDK or a module of the llm extra is missing
        if not is_llm_module(e):
            raise
        raise ExtractionError(missing_sdk_message(e)) from e
    return LLMStrategy()


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "rules": RulesStrategy,
    "cooccurrence": CooccurrenceStrategy,
    "llm": _llm,
}


def get_strategy(name: str) -> Strategy:
    if name not in STRATEGIES:
        raise UnknownStrategy(name, tuple(STRATEGIES))
    return STRATEGIES[name]()


def graph_name(corpus: str, strategy: str) -> str:
    return f"{corpus}{GRAPH_SEPARATOR}{strategy}"


def split_graph_name(name: str) -> tuple[str, str | None]:
    """``sample__rules`` -> ("sample", "rules"); a name without a known strategy -> (name, None)."""
    corpus, _, strategy = name.rpartition(GRAPH_SEPARATOR)
    if corpus and strategy in STRATEGIES:
        return corpus, strategy
    return name, None


@dataclass(frozen=True)
class CorpusLayout:
    """Where a corpus keeps its sources, catalog and gold labels.

    A folder with a ``sources/`` subfolder is a corpus folder (like
    ``data/sample``): its ``catalog.yaml`` and ``gold/`` are used when present.
    Any other folder or file is taken as sources without a catalog.
    """

    sources: Path
    catalog: Path | None = None
    gold: Path | None = None

    @classmethod
    def of(cls, path: Path) -> CorpusLayout:
        path = Path(path)
        if (path / "sources").is_dir():
            catalog = path / "catalog.yaml"
            gold = path / "gold"
            return cls(
                path / "sources",
                catalog if catalog.is_file() else None,
                gold if gold.is_dir() else None,
            )
        return cls(path)


@dataclass(frozen=True)
class BuildReport:
    """What one build wrote; ``ingest`` is the corpus part of it."""

    graph: str
    strategy: str
    ingest: IngestReport
    swapped: bool
    extracted_documents: int = 0
    entities: int = 0
    mentions: int = 0
    ambiguous_mentions: int = 0
    edges_by_predicate: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    extraction_s: float = 0.0  # reading the documents (a sentence strategy: with its writes)
    elapsed_s: float = 0.0

    @property
    def edges(self) -> int:
        return sum(self.edges_by_predicate.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "graph": self.graph,
            "strategy": self.strategy,
            "swapped": self.swapped,
            "ingest": self.ingest.to_dict(),
            "extracted_documents": self.extracted_documents,
            "entities": self.entities,
            "mentions": self.mentions,
            "ambiguous_mentions": self.ambiguous_mentions,
            "edges": self.edges,
            "edges_by_predicate": self.edges_by_predicate,
            "notes": list(self.notes),
            "extraction_s": round(self.extraction_s, 3),
            "elapsed_s": round(self.elapsed_s, 3),
        }


def report_from_dict(data: dict[str, Any]) -> BuildReport:
    """The ``BuildReport`` that ``to_dict`` wrote (``zehn ingest --json`` in another process)."""
    return BuildReport(
        graph=str(data["graph"]),
        strategy=str(data["strategy"]),
        ingest=IngestReport.from_dict(data["ingest"]),
        swapped=bool(data["swapped"]),
        extracted_documents=int(data.get("extracted_documents") or 0),
        entities=int(data.get("entities") or 0),
        mentions=int(data.get("mentions") or 0),
        ambiguous_mentions=int(data.get("ambiguous_mentions") or 0),
        edges_by_predicate={
            str(k): int(v) for k, v in (data.get("edges_by_predicate") or {}).items()
        },
        notes=tuple(str(n) for n in data.get("notes") or ()),
        extraction_s=float(data.get("extraction_s") or 0.0),
        elapsed_s=float(data.get("elapsed_s") or 0.0),
    )


def build_graph(
    client: GraphClient,
    corpus: str,
    path: Path,
    strategy_name: str = DEFAULT_STRATEGY,
    settings: Settings | None = None,
    *,
    catalog_path: Path | None = None,
    progress: ProgressFactory | None = None,
    rebuild: bool = False,
    stage: StageCallback | None = None,
    lock_wait_s: float | None = None,
    on_lock_wait: WaitCallback | None = None,
) -> BuildReport:
    """``_build_graph`` under the graph's build lock (zehn.store.lock): one build per graph at
    a time. A second build waits ``lock_wait_s`` (None: until the first ends; 0: not at all)
    and then raises ``BuildInProgress`` naming the running build; ``stage(name)`` is called
    as each of ``BUILD_STAGES`` begins."""
    lock = BuildLock(client, graph_name(corpus, strategy_name))
    with lock.held(wait_s=lock_wait_s, on_wait=on_lock_wait):
        return _build_graph(
            client, corpus, path, strategy_name, settings,
            catalog_path=catalog_path, progress=progress, rebuild=rebuild, stage=stage,
        )  # fmt: skip


def _build_graph(
    client: GraphClient,
    corpus: str,
    path: Path,
    strategy_name: str = DEFAULT_STRATEGY,
    settings: Settings | None = None,
    *,
    catalog_path: Path | None = None,
    progress: ProgressFactory | None = None,
    rebuild: bool = False,
    stage: StageCallback | None = None,
) -> BuildReport:
    """Ingest ``path`` and extract with one strategy into ``<corpus>__<strategy>``.

    Unchanged documents keep their edges unless ``rebuild`` (or a new
    catalog or strategy version) asks for a full re-extraction.
    """
    started = time.perf_counter()
    settings = settings or client.settings
    strategy = get_strategy(strategy_name)
    layout = CorpusLayout.of(path)
    if not layout.sources.exists():
        raise CorpusError(f"{path}: no such file or directory")
    catalog_file = catalog_path or layout.catalog
    loading = CatalogLoad(catalog_file)  # a large one is parsed aside while documents go in
    target = graph_name(corpus, strategy.name)
    staging = _fresh_staging(client, target)
    try:
        _begin(stage, "files")
        written: dict[str, SourceText] = {}  # what this build wrote, as it would be read back
        ingest = ingest_path(client, staging, layout.sources, progress=progress, keep=written)
        catalog = loading.result()
        if ingest.failed_completely:
            client.delete_graph(staging)
            return BuildReport(target, strategy.name, ingest, swapped=False)
        fingerprint = _fingerprint(strategy, catalog_file)
        whole, doc_ids = _to_read(client, staging, ingest, fingerprint, rebuild or catalog is None)
        _begin(stage, "sentences")
        sources = _source_texts(client, staging, doc_ids, written)
        written.clear()
        _begin(stage, "extraction")
        done = _extract(client, staging, strategy, sources, catalog, settings, loading, whole)
        _write_meta(client, staging, corpus, strategy, fingerprint, layout.sources)
        entity_count = int(client.read(staging, "MATCH (e:Entity) RETURN count(e)").scalar() or 0)
    except BaseException:
        loading.close()
        if client.graph_exists(staging):
            client.delete_graph(staging)
        raise
    _begin(stage, "swap")
    client.replace_graph(staging, target)
    return BuildReport(
        graph=target, strategy=strategy.name, ingest=ingest, swapped=True,
        extracted_documents=len(sources), entities=entity_count, mentions=done.mentions,
        ambiguous_mentions=done.ambiguous, edges_by_predicate=done.counts, notes=done.notes,
        extraction_s=done.seconds, elapsed_s=time.perf_counter() - started,
    )  # fmt: skip


def _fresh_staging(client: GraphClient, target: str) -> str:
    """The staging graph a build writes: a copy of the live graph (an incremental build keeps
    what did not change), never one a build that died left behind."""
    staging = target + STAGING_SUFFIX
    if client.graph_exists(staging):
        client.delete_graph(staging)  # left by a build that died
    if client.graph_exists(target):
        client.copy_graph(target, staging)
    return staging


def _to_read(
    client: GraphClient, staging: str, ingest: IngestReport, fingerprint: str, whole: bool
) -> tuple[bool, list[str]]:
    """Which documents to extract: all of them (``whole``, or another strategy version or
    catalog since the last build), else only those this ingest wrote (an incremental build);
    for a whole build the old extraction is cleared first."""
    whole = whole or graph_meta(client, staging).get("fingerprint") != fingerprint
    if not whole:
        return False, list(ingest.written_ids)
    _clear_extraction(client, staging)  # what the graph holds is this build's
    return True, _all_document_ids(client, staging)


@dataclass(frozen=True)
class _Extracted:
    """What the extraction wrote: its notes, edge counts and mentions, and how long it took."""

    notes: tuple[str, ...]
    counts: dict[str, int]
    mentions: int
    ambiguous: int
    seconds: float


def _extract(
    client: GraphClient,
    staging: str,
    strategy: Strategy,
    sources: list[SourceText],
    catalog: Catalog | None,
    settings: Settings,
    loading: CatalogLoad,
    whole: bool,
) -> _Extracted:
    """Extract ``sources`` into the staging graph: a sentence strategy writes each run while
    the next is read, and a whole build counts as it goes; otherwise the graph is counted."""
    started = time.perf_counter()
    if isinstance(strategy, SentenceStrategy):
        stream = strategy.stream(sources, catalog, settings, finish=encoded)
        write_stream(client, staging, stream, loading.entity_batches(stream.entities))
        notes = strategy.notes(stream.skipped_ambiguous)
        seconds = time.perf_counter() - started
        if whole:  # counted as the runs were read
            counts = dict(sorted(stream.edge_counts.items()))
            return _Extracted(notes, counts, stream.mention_spans, stream.ambiguous_spans, seconds)
    else:
        extraction = strategy.extract(sources, catalog, settings)
        write_extraction(client, staging, extraction)
        notes, seconds = extraction.notes, time.perf_counter() - started
    mentions, ambiguous = _mention_counts(client, staging)  # some edges kept from before
    return _Extracted(notes, _edge_counts(client, staging), mentions, ambiguous, seconds)


def _begin(stage: StageCallback | None, name: str) -> None:
    if stage is not None:
        stage(name)


# Chunks are collected per document node before its text is read: grouping by the text
# itself hashed the whole text once per chunk (quadratic in a document's size: 2.3 s for a
# 5 MB document, 0.04 s this way).
_SOURCE_DOCUMENTS = (
    "UNWIND $ids AS i MATCH (d:Document {id: i}) "
    "OPTIONAL MATCH (c:Chunk {doc_id: i}) WITH d, c ORDER BY c.ordinal "
    "WITH d, collect([c.id, c.ordinal, c.start, c.end]) AS chunks "
    "RETURN d.id AS id, d.title AS title, d.text AS text, chunks"
)
_SOURCE_SENTENCES = (
    "UNWIND $chunks AS cid MATCH (s:Sentence)-[:PART_OF]->(c:Chunk {id: cid}) "
    "RETURN c.doc_id AS doc_id, c.ordinal AS ordinal, s.text AS text, s.start AS start, "
    "s.end AS end"
)
_SOURCE_BATCH = 200  # documents per read
_CHUNK_BATCH = 500  # chunks per read of their sentences: a 15 MB document is read in pages


def _source_texts(
    client: GraphClient, graph: str, doc_ids: list[str], written: dict[str, SourceText]
) -> list[SourceText]:
    """The documents to extract, in document-id order: those this build just wrote as it
    wrote them (the same ``SourceText`` a read gives back), the others read from the graph."""
    stored = read_source_texts(client, graph, [d for d in doc_ids if d not in written])
    found = {s.doc_id: s for s in stored}
    return [found.get(d) or written[d] for d in sorted(doc_ids) if d in found or d in written]


def read_source_texts(client: GraphClient, graph: str, doc_ids: list[str]) -> list[SourceText]:
    """Stored documents with their chunks and sentences, in document-id order. Documents are
    read in batches and their sentences by pages of chunks, so that no single read grows
    with the size of the largest document."""
    ordered = sorted(doc_ids)
    found: dict[str, SourceText] = {}
    for i in range(0, len(ordered), _SOURCE_BATCH):
        batch = ordered[i : i + _SOURCE_BATCH]
        # a build is a batch job: its reads get the write timeout, not an answer's 10 s
        documents = client.read(
            graph, _SOURCE_DOCUMENTS, {"ids": batch}, timeout_ms=WRITE_TIMEOUT_MS
        ).records()
        chunk_ids = [str(c[0]) for row in documents for c in row["chunks"] if c[0] is not None]
        sentences: dict[str, list[Sentence]] = defaultdict(list)
        for j in range(0, len(chunk_ids), _CHUNK_BATCH):
            page = {"chunks": chunk_ids[j : j + _CHUNK_BATCH]}
            rows = client.read(graph, _SOURCE_SENTENCES, page, timeout_ms=WRITE_TIMEOUT_MS)
            for row in rows.records():
                doc_id = str(row["doc_id"])
                sentences[doc_id].append(
                    Sentence(
                        doc_id, str(row["text"]), int(row["start"]), int(row["end"]),
                        int(row["ordinal"]),
                    )
                )  # fmt: skip
        for row in documents:
            doc_id = str(row["id"])
            found[doc_id] = SourceText(
                doc_id=doc_id,
                title=str(row["title"]),
                text=str(row["text"]),
                chunks=tuple(
                    Chunk(doc_id, int(o), int(s), int(e))
                    for _, o, s, e in row["chunks"]
                    if o is not None
                ),
                sentences=tuple(sorted(sentences[doc_id], key=lambda s: s.start)),
            )
    return [found[d] for d in ordered if d in found]


def _fingerprint(strategy: Strategy, catalog_file: Path | None) -> str:
    catalog_sha = (
        hashlib.sha256(catalog_file.read_bytes()).hexdigest()[:16] if catalog_file else "none"
    )
    return f"{strategy.name}:{strategy.version}:{catalog_sha}"


def graph_is_current(
    client: GraphClient, graph: str, strategy_name: str, catalog_path: Path | None = None
) -> bool:
    """Whether ``graph`` was built completely by this strategy's current version with this
    catalog: a graph an older reader built is not (it would be scored for a reader that is
    gone)."""
    meta = graph_meta(client, graph)
    fingerprint = _fingerprint(get_strategy(strategy_name), catalog_path)
    return bool(meta.get("complete")) and meta.get("fingerprint") == fingerprint


def graph_meta(client: GraphClient, graph: str) -> dict[str, Any]:
    """What the last build recorded of ``graph`` (``Meta``: corpus, strategy, fingerprint,
    source path, revision …); empty for a graph no build wrote."""
    rows = client.read(graph, "MATCH (m:Meta) RETURN m").rows
    return dict(rows[0][0]) if rows else {}


def _write_meta(
    client: GraphClient, graph: str, corpus: str, strategy: Strategy, fingerprint: str, path: Path
) -> None:
    client.write(
        graph,
        "MERGE (m:Meta {id: 'graph'}) SET m.corpus = $corpus, m.strategy = $strategy, "
        "m.fingerprint = $fingerprint, m.source_path = $path, m.complete = true, "
        "m.built_at = $built_at",
        {
            "corpus": corpus,
            "strategy": strategy.name,
            "fingerprint": fingerprint,
            "path": str(path),
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
    )


def _clear_extraction(client: GraphClient, graph: str) -> None:
    client.write(graph, "MATCH ()-[r:RELATES]->() DELETE r")
    client.write(graph, "MATCH (e:Entity) DETACH DELETE e")


def _all_document_ids(client: GraphClient, graph: str) -> list[str]:
    return [str(r[0]) for r in client.read(graph, "MATCH (d:Document) RETURN d.id").rows]


def _mention_counts(client: GraphClient, graph: str) -> tuple[int, int]:
    """Distinct mention spans, and those left ambiguous (one edge per candidate entity)."""
    rows = client.read(
        graph,
        "MATCH ()-[m:MENTIONED_IN]->(s:Sentence) "
        "WITH DISTINCT s.doc_id AS doc, m.start AS start, m.ambiguous AS ambiguous "
        "RETURN count(*), sum(CASE WHEN ambiguous THEN 1 ELSE 0 END)",
    ).rows
    return (int(rows[0][0] or 0), int(rows[0][1] or 0)) if rows else (0, 0)


def _edge_counts(client: GraphClient, graph: str) -> dict[str, int]:
    rows = client.read(
        graph, "MATCH ()-[r:RELATES]->() RETURN r.rel_type, count(r) ORDER BY r.rel_type"
    ).rows
    return dict(Counter({str(p): int(n) for p, n in rows}))


def resolve_graph(client: GraphClient, name: str) -> str:
    """Accept a full graph name, or a corpus name when only one strategy graph exists for it."""
    graphs = [g for g in client.list_graphs() if not g.endswith(STAGING_SUFFIX)]
    if name in graphs:
        return name
    matches = [g for g in graphs if split_graph_name(g)[0] == name and split_graph_name(g)[1]]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise GraphNotFound(f"{name} (ambiguous: choose one of {', '.join(matches)})")
    raise GraphNotFound(name)
