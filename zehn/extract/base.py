"""The strategy interface: sentences and chunks in, an ``Extraction`` out.

A strategy never touches the database: the pipeline feeds it the stored
sentences of the documents to (re)extract and writes what it returns into the
strategy's own graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from zehn.config import Settings
from zehn.corpus.model import Chunk, Sentence
from zehn.extract.catalog import Catalog
from zehn.extract.model import Extraction

Progress = Callable[[int], None]
"""Called with the number of documents just finished."""


@dataclass(frozen=True)
class SourceText:
    """One stored document with its chunks and sentences (spans into ``text``)."""

    doc_id: str
    title: str
    text: str
    chunks: tuple[Chunk, ...]
    sentences: tuple[Sentence, ...]


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
