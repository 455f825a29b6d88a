"""A component owns the parts its list names: the item "- **Scanner** scans the table" under
"This service contains:" states that the service owns Scanner.

``zehn.reading.references.parts`` finds such lists and gives each item a zero-width reference
to the container at the item's start, whose reason begins with ``PART_OF`` and quotes the
line that opened the list. Here the name right after that reference (only markup between) is
the part: one OWNS edge, citing the item. The grader reads the recorded reference the same
way, so the edge is graded as it was read.
"""

from __future__ import annotations

from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.reading.model import Edge
from zehn.reading.relations.phrases import Local
from zehn.reading.vocabulary import Predicate

__all__ = ["PART_OF", "part_edges"]

PART_OF = "one of the parts listed under"
_MARKUP = frozenset("*_`[ ")


def part_edges(sentence: Sentence, local: Sequence[Local], strategy: str) -> list[Edge]:
    """The OWNS edge of a listed part, or none."""
    text = sentence.text
    for i, ref in enumerate(local[:-1]):
        mention = ref.mention
        if not (mention.reference and ref.start == ref.end and mention.reason.startswith(PART_OF)):
            continue
        part = local[i + 1]
        if part.start == part.end or not part.mention.entity_id:
            continue
        if not set(text[ref.end : part.start]) <= _MARKUP:
            continue
        return [
            Edge.stated_by(
                sentence,
                mention.entity_id or "",
                Predicate.OWNS,
                part.mention.entity_id,
                fact=text,
                strategy=strategy,
                cue=mention.reason.removeprefix(PART_OF).split(":", 1)[0].strip(" '\""),
                subject_span=(mention.start, mention.end),
                object_span=(part.mention.start, part.mention.end),
            )
        ]
    return []
