"""The strategy interface: sentences and chunks in, an ``Extraction`` out.

A strategy never touches the database: the pipeline feeds it the stored
sentences of the documents to (re)extract and writes what it returns into the
strategy's own graph.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from zehn.config import Settings
from zehn.corpus.model import Progress, Sentence, SourceText
from zehn.extract.reader_version import reader_version
from zehn.extract.stream import ExtractionStream, Run
from zehn.reading.model import Edge, Entity, Mention, unique_edges
from zehn.reading.names.catalog import Catalog


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

    @property
    def version(self) -> str:
        """What the graph's fingerprint records: a different version re-reads every document."""
        ...

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

    @property
    def version(self) -> str:
        """The reading code's digest (``zehn.extract.reader_version``): a reader change is a
        new version."""
        return reader_version()

    def extract(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        progress: Progress | None = None,
    ) -> Extraction:
        """Every run of ``stream`` gathered (a build writes each run as it comes instead)."""
        stream = self.stream(documents, catalog, settings)
        mentions: list[Mention] = []
        edges: list[Edge] = []
        for run in stream:
            mentions.extend(run.mentions)
            edges.extend(run.edges)
            if progress:
                progress(run.documents)
        notes = self.notes(stream.skipped_ambiguous)
        return Extraction.collect(self.name, stream.entities, mentions, edges, notes)

    def stream(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        *,
        finish: Callable[[Run], Run] | None = None,
    ) -> ExtractionStream:
        """The corpus read run by run, in document order (``zehn.extract.stream``): with a
        catalog and enough sentences, a forked process reads runs too (a document is read on
        its own given the catalog, so the result is the same)."""
        return ExtractionStream(self, documents, catalog, finish=finish)

    @abstractmethod
    def sentence_edges(
        self, sentence: Sentence, bound: Sequence[Mention]
    ) -> tuple[list[Edge], int]:
        """Edges ``sentence`` gives, and how many were not made for an ambiguous endpoint."""

    def notes(self, skipped_ambiguous: int) -> tuple[str, ...]:
        """Notes for the build report; none unless a strategy has something to say."""
        return ()
