"""The ``cooccurrence`` strategy: every pair of entities bound in one sentence is an edge.

The noisy, high-recall baseline. Its predicate is a guess (the first cue word
in the sentence, else DEPENDS_ON) and its ``fact`` is a paraphrase, not the
sentence: exactly the kind of output the grader and the verbatim-fact metric
must catch.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from zehn.corpus.model import Sentence
from zehn.extract.base import SentenceStrategy
from zehn.reading.model import Edge, Mention
from zehn.reading.relations.cues import CUES
from zehn.reading.vocabulary import Predicate

DEFAULT_GUESS = Predicate.DEPENDS_ON


class CooccurrenceStrategy(SentenceStrategy):
    name = "cooccurrence"

    def sentence_edges(
        self, sentence: Sentence, bound: Sequence[Mention]
    ) -> tuple[list[Edge], int]:
        predicate = _guess_predicate(sentence, bound)
        unique = [m for m in bound if m.entity_id is not None]
        edges: list[Edge] = []
        for first, second in combinations(unique, 2):
            if first.entity_id == second.entity_id:
                continue
            assert first.entity_id is not None and second.entity_id is not None
            edges.append(
                Edge.stated_by(
                    sentence,
                    first.entity_id,
                    predicate,
                    second.entity_id,
                    fact=f"{first.surface} {predicate.lower().replace('_', ' ')} {second.surface}",
                    strategy=self.name,
                    subject_span=(first.start, first.end),
                    object_span=(second.start, second.end),
                )
            )
        return edges, 0


def _guess_predicate(sentence: Sentence, mentions: Sequence[Mention]) -> str:
    """The first cue word outside the mentions ("feature-store" is not "stores")."""
    text = list(sentence.text)
    for mention in mentions:
        for i in range(mention.start - sentence.start, mention.end - sentence.start):
            text[i] = " "
    blanked = "".join(text)
    for cue in CUES:
        if cue.pattern.search(blanked):
            return cue.predicates[0]
    return DEFAULT_GUESS
