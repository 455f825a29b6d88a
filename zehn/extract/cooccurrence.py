"""The ``cooccurrence`` strategy: every pair of entities bound in one sentence is an edge.

The noisy, high-recall baseline. Its predicate is a guess (the first cue word
in the sentence, else DEPENDS_ON) and its ``fact`` is a paraphrase, not the
sentence: exactly the kind of output the grader and the verbatim-fact metric
must catch.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from zehn.config import Settings
from zehn.corpus.model import Progress, Sentence, SourceText
from zehn.extract.base import Extraction
from zehn.reading.catalog import Catalog
from zehn.reading.cues import CUES
from zehn.reading.discover import bind_corpus
from zehn.reading.model import Edge, Mention, unique_edges

DEFAULT_GUESS = "DEPENDS_ON"


class CooccurrenceStrategy:
    name = "cooccurrence"
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
        for sentence, bound in bound_sentences:
            mentions.extend(bound)
            predicate = _guess_predicate(sentence, bound)
            unique = [m for m in bound if m.entity_id is not None]
            for first, second in combinations(unique, 2):
                if first.entity_id == second.entity_id:
                    continue
                assert first.entity_id is not None and second.entity_id is not None
                edges.append(
                    Edge(
                        subject=first.entity_id,
                        rel_type=predicate,
                        object=second.entity_id,
                        sentence_id=sentence.id,
                        doc_id=sentence.doc_id,
                        start=sentence.start,
                        end=sentence.end,
                        fact=f"{first.surface} {predicate.lower().replace('_', ' ')} "
                        f"{second.surface}",
                        strategy=self.name,
                        subject_span=(first.start, first.end),
                        object_span=(second.start, second.end),
                    )
                )
        return Extraction(self.name, tuple(entities), tuple(mentions), unique_edges(edges))


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
