"""The strategy interface: sentences and chunks in, an ``Extraction`` out.

A strategy never touches the database: the pipeline feeds it the stored
sentences of the documents to (re)extract and writes what it returns into the
strategy's own graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from zehn.config import Settings
from zehn.corpus.model import Progress, SourceText
from zehn.reading.catalog import Catalog
from zehn.reading.model import Edge, Entity, Mention


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
