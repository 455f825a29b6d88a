"""Read a corpus run by run, so a build writes each run while the next is read.

A sentence strategy reads documents on their own once the corpus's entities and binder are
made (``zehn.reading.references.reader.corpus_binder``). The documents are cut into runs of about
``RUN_SENTENCES`` sentences, and the runs come out in document order, each with its mentions
and its edges (unique by key: a key names its sentence, so no edge repeats across runs). The
pipeline writes a run (the server's work, on the other core) while the next one is read.

With a catalog and at least ``PARALLEL_MIN_SENTENCES`` sentences, a forked process that
inherits the binder reads runs too: each process claims the next unread run whenever it is
free (the parent also sends the writes, so it claims fewer), and the child sends its runs
back as it finishes them. The runs still come out in document order, so the result is the
same as reading in one process. A child that dies (killed, out of memory) is noticed and the
runs it claimed are read here.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import queue
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Protocol

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.model import Edge, Entity, Mention, unique_edges
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.references.product import Product, corpus_product
from zehn.reading.references.reader import corpus_binder, read_document, with_references
from zehn.store.client import Prepared

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.sharedctypes import Synchronized

RUN_SENTENCES = 2_000  # at most, per run; a smaller corpus is cut into about 8 runs
_MIN_RUN_SENTENCES = 250
# sentences from which a second process pays (a fork and sending runs back cost tens of ms)
PARALLEL_MIN_SENTENCES = 4_000
_CHILD_POLL_S = 0.5  # how often a parent waiting for a run checks that the child is alive


class ReadsSentences(Protocol):
    """What a run needs of a strategy: the edges one bound sentence gives."""

    def sentence_edges(
        self, sentence: Sentence, bound: Sequence[Mention]
    ) -> tuple[list[Edge], int]: ...


@dataclass(frozen=True)
class Run:
    """What a run of documents gave: mentions (those names say, not references) and edges."""

    documents: int
    mentions: tuple[Mention, ...]
    edges: tuple[Edge, ...]
    skipped_ambiguous: int
    writes: tuple[Prepared, ...] = ()  # what a build's ``finish`` made of the run
    # what the run stores, counted as the build report counts the graph: edges by predicate,
    # and mention spans (document, start, ambiguous) with those left ambiguous
    edge_counts: tuple[tuple[str, int], ...] = ()
    mention_spans: int = 0
    ambiguous_spans: int = 0


class ExtractionStream:
    """``entities`` at once; iterate for the runs, in document order (once)."""

    def __init__(
        self,
        strategy: ReadsSentences,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        *,
        run_sentences: int | None = None,
        finish: Callable[[Run], Run] | None = None,
    ) -> None:
        """``finish`` is applied to each run in the process that read it (a build turns a
        run into its encoded writes there, so the child's runs come back ready to send)."""
        self.entities, self._binder = corpus_binder(documents, catalog)
        self._product = corpus_product(documents, self._binder)  # what "we" refers to
        self._strategy = strategy
        # what is in memory now (the documents, the binder) lives as long as the stream:
        # frozen, the collector's full passes skip it and a forked child shares it untouched
        # (the collector writes into every object it visits); unfrozen in ``close``
        self._frozen = gc.get_freeze_count() == 0  # else someone froze before: left to them
        if self._frozen:
            gc.freeze()
        self._finish = finish
        total = sum(len(d.sentences) for d in documents)
        # runs small enough to share the work evenly, large enough that each write pays
        size = run_sentences or min(RUN_SENTENCES, max(_MIN_RUN_SENTENCES, total // 8))
        self._runs = _runs(documents, size)
        self.skipped_ambiguous = 0
        self.edge_counts: Counter[str] = Counter()
        self.mention_spans = self.ambiguous_spans = 0
        self._child: BaseProcess | None = None
        self._queue: Queue[tuple[int, Run]] | None = None
        self._next: Synchronized[int] | None = None
        if catalog is not None and len(self._runs) >= 2 and _can_fork(total):
            # what reading builds on first use (word lists, caches) is built once, here, and
            # shared with the child: one document read and dropped
            self._read(self._runs[0][:1])
            self._fork()  # now, before the caller starts any writer thread

    def __iter__(self) -> Iterator[Run]:
        try:
            ready: dict[int, Run] = {}
            for index in range(len(self._runs)):
                while index not in ready:
                    self._advance(index, ready)
                run = ready.pop(index)
                self.skipped_ambiguous += run.skipped_ambiguous
                self.edge_counts.update(dict(run.edge_counts))
                self.mention_spans += run.mention_spans
                self.ambiguous_spans += run.ambiguous_spans
                yield run
        finally:
            self.close()

    def _advance(self, wanted: int, ready: dict[int, Run]) -> None:
        """Bring run ``wanted`` closer: take what the child sent; else read here the next run
        neither process has claimed (each claims the next one when free, so the work divides
        itself: the parent also sends the writes); else wait for the child, and read here
        what a child that died left."""
        if self._child is None:
            ready[wanted] = self._read(self._runs[wanted])
            return
        if self._take(ready, wait=False):
            return
        claimed = self._claim()
        if claimed is not None:
            ready[claimed] = self._read(self._runs[claimed])
        elif not self._take(ready, wait=True):
            ready[wanted] = self._read(self._runs[wanted])

    def _claim(self) -> int | None:
        """The next run nobody has claimed, now this process's; None when all are claimed."""
        assert self._next is not None
        with self._next.get_lock():
            index = int(self._next.value)
            if index >= len(self._runs):
                return None
            self._next.value = index + 1
        return index

    def _take(self, ready: dict[int, Run], *, wait: bool) -> bool:
        """Runs the child sent into ``ready``; with ``wait``, until one comes or the child is
        gone (False)."""
        assert self._queue is not None and self._child is not None
        took = False
        while True:
            try:
                got = self._queue.get(timeout=_CHILD_POLL_S) if wait else self._queue.get_nowait()
                index, run = got
            except queue.Empty:
                if took or not wait:
                    return took
                if not self._child.is_alive():
                    try:  # what it sent just before it ended
                        index, run = self._queue.get(timeout=_CHILD_POLL_S)
                    except queue.Empty:
                        return False
                else:
                    continue
            ready[index] = run
            took, wait = True, False  # then take whatever else is there, without waiting

    def close(self) -> None:
        """Stop the child, if any (a build that failed midway)."""
        if self._frozen:
            self._frozen = False
            gc.unfreeze()
        child, self._child = self._child, None
        if child is not None:
            child.join(timeout=1)
            if child.is_alive():
                child.kill()
                child.join()
        if self._queue is not None:
            self._queue.close()
            self._queue = None

    def _read(self, documents: Sequence[SourceText]) -> Run:
        run = read_run(self._strategy, documents, self.entities, self._binder, self._product)
        return self._finish(run) if self._finish is not None else run

    def _fork(self) -> None:
        context = multiprocessing.get_context("fork")
        self._queue = context.Queue()
        self._next = context.Value("l", 0)  # the next run nobody has claimed
        # fork: the child inherits the binder and the documents; nothing is pickled to it
        self._child = context.Process(target=self._child_reads, daemon=True)
        self._child.start()

    def _child_reads(self) -> None:
        assert self._queue is not None
        try:
            while (index := self._claim()) is not None:
                self._queue.put((index, self._read(self._runs[index])))
            self._queue.close()
            self._queue.join_thread()  # every run sent before the child exits
        except BaseException:  # the parent reads the run itself and raises the error
            os._exit(1)  # quietly: no traceback on the notebook's stderr from here


def read_run(
    strategy: ReadsSentences,
    documents: Sequence[SourceText],
    entities: tuple[Entity, ...],
    binder: Binder,
    product: Product | None = None,
) -> Run:
    """Read each document of a run and each of its sentences with ``strategy``."""
    mentions: list[Mention] = []
    edges: list[Edge] = []
    skipped = 0
    spans: set[tuple[str, int, bool]] = set()
    for document in documents:
        for sentence, bound in read_document(document, entities, binder, product):
            stored = [m for m in bound if not m.reference]  # stored: what names say
            mentions.extend(stored)
            spans.update((document.doc_id, m.start, m.ambiguous) for m in stored if m.candidates)
            found, ambiguous = strategy.sentence_edges(sentence, bound)
            edges.extend(with_references(found, bound))
            skipped += ambiguous
    unique = unique_edges(edges)
    counts = Counter(str(e.rel_type) for e in unique)
    return Run(
        len(documents), tuple(mentions), unique, skipped,
        edge_counts=tuple(sorted(counts.items())),
        mention_spans=len(spans), ambiguous_spans=sum(1 for span in spans if span[2]),
    )  # fmt: skip


def _runs(documents: Sequence[SourceText], size: int) -> list[Sequence[SourceText]]:
    """Consecutive documents in runs of about ``size`` sentences (a larger document alone)."""
    runs: list[Sequence[SourceText]] = []
    start, sentences = 0, 0
    for index, document in enumerate(documents):
        sentences += len(document.sentences)
        if sentences >= size:
            runs.append(documents[start : index + 1])
            start, sentences = index + 1, 0
    if start < len(documents):
        runs.append(documents[start:])
    return runs


def a_second_core_to_fork() -> bool:
    """Whether work can go to a forked process that runs beside this one: two cores or more,
    and ``fork`` on this platform (the child inherits what is in memory, nothing is sent)."""
    return (os.cpu_count() or 1) >= 2 and "fork" in multiprocessing.get_all_start_methods()


def _can_fork(sentences: int) -> bool:
    return sentences >= PARALLEL_MIN_SENTENCES and a_second_core_to_fork()
