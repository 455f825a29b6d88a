"""The ``rules`` strategy: the reading layer's cue lexicon over bound mentions, offline and
deterministic (see ``zehn.reading.relations``)."""

from __future__ import annotations

from collections.abc import Sequence

from zehn.config import Settings
from zehn.corpus.model import Progress, SourceText
from zehn.extract.base import Extraction
from zehn.reading.catalog import Catalog
from zehn.reading.discover import bind_corpus
from zehn.reading.model import Edge, Mention, unique_edges
from zehn.reading.relations import sentence_edges


class RulesStrategy:
    """Cue-lexicon extraction; the offline default."""

    name = "rules"
    version = "1"

    def extract(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        progress: Progress | None = None,
    ) -> Extraction:
        entities, bound_sentences = bind_corpus(documents, catalog, progress)
        mentions: list[Mention] = []
        edges: list[Edge] = []
        skipped_ambiguous = 0
        for sentence, bound in bound_sentences:
            mentions.extend(bound)
            found, ambiguous = sentence_edges(sentence, bound, self.name)
            edges.extend(found)
            skipped_ambiguous += ambiguous
        notes = (f"{skipped_ambiguous} edges not made: an endpoint was ambiguous",)
        return Extraction(self.name, tuple(entities), tuple(mentions), unique_edges(edges), notes)
