"""The strategy interface: sentences and chunks in, an ``Extraction`` out.

A strategy never touches the database: the pipeline feeds it the stored
sentences of the documents to (re)extract and writes what it returns into the
strategy's own graph.
"""

from __future__ import annotations

import multiprocessing
import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Protocol

from zehn.config import Settings
from zehn.corpus.model import Progress, Sentence, SourceText
from zehn.reading.catalog import Catalog
from zehn.reading.model import Edge, Entity, Mention, unique_edges
from zehn.reading.references import read_corpus, with_references


@dataclass(frozen=True)
class Extraction:
    """Everything one strategy found in a set of documents."""

    strategy: str
    entities: tuple[Entity, ...]
    mentions: tuple[Mention, ...]
    edges: tuple[Edge, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def ambiguous_mentions(self) -> int:
        return sum(1 for m in self.mentions if m.ambiguous)

    @classmethod
    def collect(
        cls,
        strategy: str,
        entities: Iterable[Entity],
        mentions: Iterable[Mention],
        edges: Sequence[Edge],
        notes: Iterable[str] = (),
    ) -> Extraction:
        """What a strategy gathered; an edge found twice (same key) is kept once, the first."""
        return cls(strategy, tuple(entities), tuple(mentions), unique_edges(edges), tuple(notes))


class Strategy(Protocol):
    """An extraction strategy; ``name`` becomes the graph suffix (``<corpus>__<name>``)."""

    name: str
    version: str

    def extract(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        progress: Progress | None = None,
    ) -> Extraction:
        """Entities, mentions and edges found in ``documents``.

        ``catalog`` is None when the corpus has none (discover entities).
        Raises ``ExtractionError`` families for anything that prevents a
        complete result; the pipeline then leaves the previous graph as it was.
        """
        ...


class SentenceStrategy(ABC):
    """A strategy that reads each bound sentence on its own (``rules``, ``cooccurrence``).

    Binding the corpus, collecting mentions and wrapping the result are the same
    for all of them; a subclass says only which edges one sentence gives.
    """

    name: str
    version: str = "1"

    def extract(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        progress: Progress | None = None,
    ) -> Extraction:
        """Read every sentence; with a catalog and at least ``PARALLEL_MIN_SENTENCES``
        sentences, the second half of the documents is read in a forked process meanwhile
        (a document is read on its own given the catalog, so the result is the same)."""
        halves = _halves(documents) if catalog is not None else None
        if halves is None:
            entities, mentions, edges, skipped = self._read(documents, catalog, progress)
        else:
            entities, mentions, edges, skipped = self._read_in_two(halves, catalog, progress)
        return Extraction.collect(self.name, entities, mentions, edges, self.notes(skipped))

    def _read(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        progress: Progress | None = None,
    ) -> tuple[tuple[Entity, ...], list[Mention], list[Edge], int]:
        entities, read = read_corpus(documents, catalog, progress)
        mentions: list[Mention] = []
        edges: list[Edge] = []
        skipped_ambiguous = 0
        for sentence, bound in read:
            mentions.extend(m for m in bound if not m.reference)  # stored: what names say
            found, ambiguous = self.sentence_edges(sentence, bound)
            edges.extend(with_references(found, bound))
            skipped_ambiguous += ambiguous
        return entities, mentions, edges, skipped_ambiguous

    def _read_in_two(
        self,
        halves: tuple[Sequence[SourceText], Sequence[SourceText]],
        catalog: Catalog | None,
        progress: Progress | None,
    ) -> tuple[tuple[Entity, ...], list[Mention], list[Edge], int]:
        """The first half here, the second in a forked process that inherits it (nothing
        is sent to it); its mentions and edges come back pickled, after the first half's."""
        first, second = halves
        _FORKED[:] = [(self, second, catalog)]
        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
                pending = pool.submit(_read_forked)  # forks here, after _FORKED is set
                entities, mentions, edges, skipped = self._read(first, catalog, progress)
                try:
                    more_mentions, more_edges, more_skipped = pending.result()
                except BrokenProcessPool:  # the child died (killed, out of memory): read here
                    _, more_mentions, more_edges, more_skipped = self._read(second, catalog)
        finally:
            _FORKED.clear()
        if progress:
            progress(len(second))
        return entities, mentions + more_mentions, edges + more_edges, skipped + more_skipped

    @abstractmethod
    def sentence_edges(
        self, sentence: Sentence, bound: Sequence[Mention]
    ) -> tuple[list[Edge], int]:
        """Edges ``sentence`` gives, and how many were not made for an ambiguous endpoint."""

    def notes(self, skipped_ambiguous: int) -> tuple[str, ...]:
        """Notes for the build report; none unless a strategy has something to say."""
        return ()


# sentences from which reading a catalog corpus in two processes pays (forking and sending
# the results back cost about a second on the development machine)
PARALLEL_MIN_SENTENCES = 20_000
# what the forked process reads: set just before the fork, inherited by the child
_FORKED: list[tuple[SentenceStrategy, Sequence[SourceText], Catalog | None]] = []


def _read_forked() -> tuple[list[Mention], list[Edge], int]:
    strategy, documents, catalog = _FORKED[0]
    _, mentions, edges, skipped = strategy._read(documents, catalog)
    return mentions, edges, skipped


def _halves(
    documents: Sequence[SourceText],
) -> tuple[Sequence[SourceText], Sequence[SourceText]] | None:
    """Two runs of documents with about the same number of sentences, or None when one
    process is better: too few sentences, one core, or no ``fork`` on this platform."""
    sizes = [len(d.sentences) for d in documents]
    total = sum(sizes)
    if (
        total < PARALLEL_MIN_SENTENCES
        or len(documents) < 2
        or (os.cpu_count() or 1) < 2
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return None
    running = 0
    for index, size in enumerate(sizes):
        running += size
        if running * 2 >= total:
            cut = max(1, min(index + 1, len(documents) - 1))
            return documents[:cut], documents[cut:]
    return None
