"""Reads stated as a purpose: "Y … for X to read", "Y, which is set up for X to load files from".

English often names the reader of a place in a purpose clause after the place rather than
as a subject: "it writes snapshots into *Y* for the *X* to read" and "*Y*, which is
configured for the *X* to parse files from and allow *Z* to access …". The place is the name
right before "for", or the antecedent of "which is <participle>" right before it; the reader
is the name right after "for (the)" and before "to <read verb>"; a coordinated "and allow /
let / enable Z to <read verb>" adds Z as a second reader of the same place. Only read verbs
count (read, parse, load, fetch, pull, query, scan, access): "ready for X to start" states
no relation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.reading.modality import MODAL, NEGATION
from zehn.reading.model import Edge
from zehn.reading.relations.phrases import Local, plain
from zehn.reading.vocabulary import Predicate

__all__ = ["purpose_edges"]

_READ_VERB = r"(?:read|parse|load|fetch|pull|query|scan|access)\b"
_FOR = re.compile(r"[\s*_`]+for[\s*_`]+(?:the[\s*_`]+)?$", re.IGNORECASE)
_TO_READ = re.compile(rf"[*_`]*\s+to\s+{_READ_VERB}", re.IGNORECASE)
_WHICH_PARTICIPLE = re.compile(
    r"\s*,?\s*which\s+(?:is|are)\s+(?:\w+ed|set\s+up|made\s+available)\s*$", re.IGNORECASE
)
_ALLOW = re.compile(
    r"\s+(?:and|or)\s+(?:also\s+)?(?:allows?|lets?|enables?)\s+(?:the\s+)?$", re.IGNORECASE
)
# what may stand between the reader's verb and a coordinated "and allow Z": its objects
_ALLOW_WINDOW = 80


def purpose_edges(sentence: Sentence, local: Sequence[Local], strategy: str) -> list[Edge]:
    """READS_FROM edges a purpose clause states (see the module docstring)."""
    text = sentence.text
    named = [m for m in local if m.start != m.end and m.mention.entity_id]
    edges: list[Edge] = []
    for i, reader in enumerate(named):
        if i == 0:
            continue
        verb = _TO_READ.match(text, reader.end)
        if verb is None:
            continue
        opener = _FOR.search(text[: reader.start])
        if opener is None:
            continue
        place = _place(text, named[:i], opener.start())
        if place is None:
            continue
        readers = [reader, *_also_allowed(text, named[i + 1 :], verb.end())]
        clause = text[place.end : verb.end()]
        for who in readers:
            if who.mention.entity_id == place.mention.entity_id:
                continue
            edges.append(
                Edge.stated_by(
                    sentence,
                    who.mention.entity_id or "",
                    Predicate.READS_FROM,
                    place.mention.entity_id or "",
                    fact=text,
                    strategy=strategy,
                    negated=bool(NEGATION.search(clause)),
                    hedged=bool(MODAL.search(clause)),
                    cue=text[place.end : verb.end()].strip(" *_`,"),
                    subject_span=(who.mention.start, who.mention.end),
                    object_span=(place.mention.start, place.mention.end),
                )
            )
    return edges


def _place(text: str, before: Sequence[Local], at: int) -> Local | None:
    """The place read: the name right before "for", or the antecedent of "which is …ed"."""
    last = before[-1]
    gap = plain(text[last.end : at])
    if not gap.strip():
        return last
    if _WHICH_PARTICIPLE.match(gap):
        return last
    return None


def _also_allowed(text: str, after: Sequence[Local], position: int) -> list[Local]:
    """A second reader in "… from and allow Z to access …", in the same sentence."""
    for other in after:
        if other.start - position > _ALLOW_WINDOW:
            break
        if _ALLOW.search(plain(text[position : other.start])) and _TO_READ.match(text, other.end):
            return [other]
    return []
