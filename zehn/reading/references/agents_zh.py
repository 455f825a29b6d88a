"""Chinese agent nouns as references: 订阅者 ("the subscriber") is whoever just subscribed.

Chinese manuals name a participant by what it does: after "消费方启动时广播订阅请求" (the
consumer broadcasts a subscription request), 订阅者 (the one who subscribes) is the consumer.
An agent noun is a two-character verb and the agent suffix 者 or 方. When it binds to no
name itself, it refers to the entity that opens one of the few sentences before it and does
that verb there; the nearest such sentence wins, and nothing is made when none does or when
two different entities do (precision first). The mention is a reference with its reason, like
those of ``zehn.reading.references.reader``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.model import Mention
from zehn.reading.scripts import HAN

LOOK_BACK = 3  # sentences
_AGENT = re.compile(rf"(?P<verb>[{HAN}]{{2}})(?:者|方)")
# what may stand before the name that opens a sentence: a list marker, markup
_OPENING = re.compile(r"\s*(?:[-*+•]\s+|\d{1,3}[.)、]\s*)?[`*_“「]*\s*")


def agent_references(
    document: SourceText, bound: dict[str, list[Mention]]
) -> dict[str, list[Mention]]:
    """``bound`` with a reference for each agent noun that names the doer of its verb in one
    of the sentences just before."""
    out: dict[str, list[Mention]] = {}
    sentences = document.sentences
    for index, sentence in enumerate(sentences):
        mentions = bound.get(sentence.id, [])
        found = []
        for match in _AGENT.finditer(sentence.text):
            start, end = sentence.start + match.start(), sentence.start + match.end()
            if any(m.start < end and start < m.end for m in mentions):
                continue  # a name of its own ("服务提供者")
            doer = _doer(match["verb"], sentences[max(0, index - LOOK_BACK) : index], bound)
            if doer is None:
                continue
            entity_id, surface, text = doer
            why = f"{match.group()!r} = the {surface!r} who does {match['verb']!r} in {text!r}"
            found.append(Mention(sentence.id, start, end, match.group(), (entity_id,), why, True))
        out[sentence.id] = sorted([*mentions, *found], key=lambda m: m.start) if found else mentions
    return out


def _doer(
    verb: str, before: Sequence[Sentence], bound: dict[str, list[Mention]]
) -> tuple[str, str, str] | None:
    """The entity opening the nearest earlier sentence that does ``verb`` after naming it."""
    for sentence in reversed(before):
        sentence_id, text, offset = sentence.id, sentence.text, sentence.start
        named = [m for m in bound.get(sentence_id, []) if m.end > m.start]
        if not named:
            continue
        first = min(named, key=lambda m: m.start)
        opening = _OPENING.match(text)
        if opening is None or first.start - offset != opening.end():
            continue
        at = text.find(verb, first.end - offset)
        if at < 0:
            continue
        doers = {m.entity_id for m in named if m.start - offset < at}
        if len(doers) != 1 or first.entity_id is None:
            return None  # "A 和 B 订阅 …": not one doer
        return first.entity_id, first.surface, text
    return None
