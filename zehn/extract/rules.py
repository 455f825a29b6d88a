"""The ``rules`` strategy: the reading layer's cue lexicon over bound mentions, offline and
deterministic (see ``zehn.reading.relations.reader``)."""

from __future__ import annotations

from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.extract.base import SentenceStrategy
from zehn.reading.model import Edge, Mention
from zehn.reading.relations.reader import sentence_edges


class RulesStrategy(SentenceStrategy):
    """Cue-lexicon extraction; the offline default."""

    name = "rules"

    def sentence_edges(
        self, sentence: Sentence, bound: Sequence[Mention]
    ) -> tuple[list[Edge], int]:
        return sentence_edges(sentence, bound, self.name)

    def notes(self, skipped_ambiguous: int) -> tuple[str, ...]:
        if not skipped_ambiguous:  # nothing to say: no "0 edges not made" line
            return ()
        return (f"{skipped_ambiguous} edges not made: an endpoint was ambiguous",)
