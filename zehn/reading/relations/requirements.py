"""Requirements stated to the reader: "For this to work, you need to set up a broker (A, B …)".

A page says what its subject needs by addressing the person deploying it: the subject is
"this" (or "it") in the opening "For this to work," / "To use this,", which
``zehn.reading.references.forms.requirement_this`` binds to what the text was about; the
things needed are named right after "you need to set up / install / run …", or listed in the
parentheses after a short noun phrase ("a message broker (A, B …)"). Each is a DEPENDS_ON of
the subject — hedged when the parentheses list several: each is one option among
alternatives, so none is a fact about a given deployment. A name inside that noun phrase ("a
Foo backend (A, B …)") is needed whichever option is chosen: a DEPENDS_ON, not hedged.
Without such an opening a "you need …" sentence states nothing about a component.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.reading.model import Edge
from zehn.reading.relations.phrases import Local
from zehn.reading.vocabulary import Predicate

__all__ = ["OPENING", "requirement_edges"]

OPENING = re.compile(
    r"^\s*(?:for\s+(?P<this>this|it)\s+to\s+work|to\s+(?:use|run)\s+(?P<this2>this|it))\s*,",
    re.IGNORECASE,
)
_NEED = re.compile(
    r"\s*you\s+(?:will\s+|first\s+)?(?:need|have|must)\s+(?:to\s+)?"
    r"(?:set\s*up|install|run|deploy|configure|provide)\s+",
    re.IGNORECASE,
)
# a short noun phrase before the thing needed, or before its parenthesised examples
_NOUN_PHRASE = re.compile(r"(?:(?:an?|the|some|your)\s+)?(?:[\w-]+\s+){0,3}?", re.IGNORECASE)
_PAREN = re.compile(r"(?:[\w-]+\s+){0,3}[\w-]+\s*\((?P<inside>[^()]{1,200})\)")


def requirement_edges(sentence: Sentence, local: Sequence[Local], strategy: str) -> list[Edge]:
    """DEPENDS_ON edges from the subject of "For this to work," to what "you need to …" names."""
    text = sentence.text
    opening = OPENING.match(text)
    if opening is None:
        return []
    group = "this" if opening["this"] else "this2"
    holder = next(
        (m for m in local if m.start == opening.start(group) and m.mention.entity_id), None
    )
    need = _NEED.match(text, opening.end())
    if holder is None or need is None:
        return []
    paren = _PAREN.match(text, need.end())
    needed = _needed(text, local, need.end(), paren)
    options = len(needed) > 1  # "a broker (A, B …)": one of them, not each of them
    named = _named_kind(local, need.end(), paren)  # "a Celery backend (A, B …)": Celery, surely
    return [
        Edge.stated_by(
            sentence,
            holder.mention.entity_id or "",
            Predicate.DEPENDS_ON,
            thing.mention.entity_id or "",
            fact=text,
            strategy=strategy,
            cue=need.group().strip(),
            hedged=options and thing is not named,
            subject_span=(holder.mention.start, holder.mention.end),
            object_span=(thing.mention.start, thing.mention.end),
        )
        for thing in ([named] if named else []) + needed
        if thing.mention.entity_id and thing.mention.entity_id != holder.mention.entity_id
    ]


def _named_kind(local: Sequence[Local], position: int, paren: re.Match[str] | None) -> Local | None:
    """The name inside the noun phrase that the parentheses give examples of: "a Foo backend
    (A, B …)" needs a Foo backend whichever example is chosen; "a broker (A, B …)" names none."""
    if paren is None:
        return None
    inside = [m for m in local if position <= m.start and m.end <= paren.start("inside") - 1]
    return inside[0] if len(inside) == 1 else None


def _needed(
    text: str, local: Sequence[Local], position: int, paren: re.Match[str] | None
) -> list[Local]:
    """The names in the parentheses after a short noun phrase, else the name right after it."""
    if paren is not None:
        a, b = paren.span("inside")
        return [m for m in local if a <= m.start and m.end <= b]
    phrase = _NOUN_PHRASE.match(text, position)
    at = phrase.end() if phrase else position
    return [m for m in local if m.start == at][:1]
