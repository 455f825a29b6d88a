"""A component's parts listed under a line that says so: "This service contains:", "该服务内
主要包含：", "The scheduler consists of the following components:".

The items of the list that follows (at the first item's indentation, up to a heading or a
line indented less) each open with the name of one part. Each such item gets a zero-width
reference to the container at its start, whose reason quotes the line that opened the list;
``zehn.reading.relations.parts`` reads the container as owning the part, citing the item.
The container is the name the line opens with ("MasterServer 包含："), or, after a
demonstrative or "it" ("该服务", "This component"), what the text was about just before
the line. The opening words are data rows per language; the mechanism is one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from zehn.corpus.model import Sentence
from zehn.reading.model import Entity, Mention
from zehn.reading.relations.parts import PART_OF

__all__ = ["PartLists"]

_KINDS_EN = r"service|component|server|module|process|system|daemon|application"
_PARTS_EN = r"components|parts|modules|threads|services|processes|sub-?components|elements"
_KINDS_ZH = r"服务|组件|模块|系统|进程|服务器"
_PARTS_ZH = r"部分|组件|模块|线程|服务|子模块"
# the subject of the opening line: a demonstrative (or "it") means what the text was about
_REFERRING_EN = re.compile(rf"^\s*(?:(?:this|that|the|each|every)\s+(?:{_KINDS_EN})|it)\s+$", re.I)
_REFERRING_ZH = re.compile(rf"^\s*(?:该|此|这个?|本|每个)(?:{_KINDS_ZH})?\s*$")
# what the opening line says after its subject, up to the colon that ends it
_CONTAINS_EN = re.compile(
    r"^\s*(?:mainly\s+|primarily\s+|itself\s+)?(?:contains|includes|comprises|consists\s+of"
    r"|is\s+(?:made\s+up|composed)\s+of|is\s+built\s+from)"
    rf"(?:\s+(?:the\s+following|these|several|two|three|four|five|six))?(?:\s+main)?"
    rf"(?:\s+(?:{_PARTS_EN}))?\s*[:：]\s*$",
    re.I,
)
_CONTAINS_ZH = re.compile(
    r"^\s*(?:内部?|中|里)?\s*(?:主要)?\s*(?:包含|包括|由)\s*(?:了)?\s*(?:以下|如下|下列)?\s*"
    rf"(?:几个|[两三四五六]个)?\s*(?:{_PARTS_ZH})?\s*(?:组成)?\s*[:：]\s*$"
)
_MARKUP = frozenset("*_`[ ")
# a list item's marker, with the markup that may open its text ("  - **")
_ITEM = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+[*_`\[]*")
_LONGEST_LINE = 90  # an opening line is short: a longer one is a sentence ending in a colon


@dataclass
class _Open:
    """A list of parts being read: its container, the line that opened it, and the
    indentation of its items (known from the first)."""

    container: Entity
    line: str
    indent: int | None = None


class PartLists:
    """Follows one document's sentences in order and gives each listed part its container."""

    def __init__(self, document_text: str) -> None:
        self._text = document_text
        self._open: _Open | None = None

    def opening(self, sentence: Sentence, mentions: Sequence[Mention], about: Entity | None,
                by_id: dict[str, Entity]) -> bool:  # fmt: skip
        """Whether ``sentence`` opens a list of parts (then the list is open); ``about`` is
        what the text was about before it. Any other heading ends an open list."""
        text = sentence.text
        container = _container(text, sentence.start, mentions, about, by_id)
        self._open = _Open(container, text.strip()) if container is not None else None
        return container is not None

    def part(self, sentence: Sentence, mentions: Sequence[Mention]) -> Mention | None:
        """The container reference for a list item that names a part, or None (a line
        indented less than the list's items ends the list)."""
        listed = self._open
        if listed is None:
            return None
        line_start = self._text.rfind("\n", 0, sentence.start) + 1
        before = self._text[line_start : sentence.start]
        item = _ITEM.match(before + sentence.text[:8])
        if before.strip() and item is None:
            return None  # a later sentence of a line
        indent = len(before) - len(before.lstrip())
        if item is not None and listed.indent is None:
            listed.indent = indent
        if listed.indent is not None and indent < listed.indent:
            self._open = None  # the list is over
            return None
        if item is None or indent != listed.indent:
            return None
        at = max(sentence.start, line_start + item.end())
        first = min((m for m in mentions if m.entity_id), key=_start, default=None)
        if first is None or first.entity_id == listed.container.id:
            return None
        if not set(self._text[at : first.start]) <= _MARKUP:
            return None
        why = f"{PART_OF} {listed.line!r}: {listed.container.name}"
        return Mention(sentence.id, at, at, "", (listed.container.id,), why, reference=True)


def _container(
    text: str,
    offset: int,
    mentions: Sequence[Mention],
    about: Entity | None,
    by_id: dict[str, Entity],
) -> Entity | None:
    """The entity whose parts the line ``text`` introduces, or None."""
    line = text.strip().lstrip("#").strip()
    if not line.endswith((":", "：")) or len(line) > _LONGEST_LINE:
        return None
    named = sorted((m for m in mentions if m.entity_id), key=_start)
    if named:
        subject = named[0]
        before = text[: subject.start - offset].strip().lstrip("#").strip(" *_`")
        rest = text[subject.end - offset :].strip(" *_`")
        if not before and (_CONTAINS_EN.match(rest) or _CONTAINS_ZH.match(rest)):
            return by_id.get(subject.entity_id or "")
        return None
    if about is None:
        return None
    for referring, contains in ((_REFERRING_EN, _CONTAINS_EN), (_REFERRING_ZH, _CONTAINS_ZH)):
        for split in range(len(line) + 1):
            if referring.match(line[:split]) and contains.match(line[split:]):
                return about
    return None


def _start(mention: Mention) -> int:
    return mention.start
