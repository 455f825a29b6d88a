"""``paragraph_terms`` keeps an index of the document's earlier mentions between sentences; it
must find exactly what walking the list back and searching for blank lines finds (invented
documents, random mentions, including lists out of order and mentions after the sentence)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence

import pytest

from zehn.reading.lexicon import number_stem
from zehn.reading.model import Mention
from zehn.reading.references.forms import paragraph_terms

_OPENING_WORD = re.compile(r"\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)?(?P<word>[A-Z][a-z]+)\b")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _walked(
    sentence_id: str,
    offset: int,
    text: str,
    mentions: Sequence[Mention],
    earlier: Sequence[Mention],
    document_text: str,
) -> list[Mention]:
    """The reading the index stands for: every earlier mention, latest first."""
    match = _OPENING_WORD.match(text)
    if match is None:
        return []
    a, b = match.span("word")
    if any(m.start - offset < b and a < m.end - offset for m in mentions):
        return []
    key = number_stem(match["word"].lower())
    for mention in reversed(earlier):
        if mention.start >= offset:
            continue
        if _PARAGRAPH_BREAK.search(document_text, mention.end, offset):
            return []
        surface = mention.surface
        if (
            mention.entity_id
            and not mention.reference
            and surface.isalpha()
            and surface.islower()
            and number_stem(surface) == key
        ):
            word = match["word"]
            reason = f"{word!r} = {surface!r}, the term marked earlier in the paragraph"
            return [
                Mention(sentence_id, offset + a, offset + b, word, mention.candidates, reason,
                        reference=True)
            ]  # fmt: skip
    return []


WORDS = ["spools", "spool", "quill", "Quill", "inks", "ink", "vellum", "Spools", "rows"]
GAPS = [" ", ". ", ".\n", ".\n\n", ".\n \t\n", ". \n", "\n", ".\n\t", " \t"]


def _document(rng: random.Random) -> tuple[str, list[tuple[int, int]], list[Mention]]:
    """Text of capitalised and plain words with random gaps, its sentence spans, and mentions
    on some of its words."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    mentions: list[Mention] = []
    at = 0
    for _ in range(rng.randint(1, 40)):
        start = at
        lead = rng.choice(["", "", "\n", " \t", "\t\n", " "])  # a sentence opening blank
        parts.append(lead)
        at += len(lead)
        for _ in range(rng.randint(1, 4)):
            word = rng.choice(WORDS)
            if rng.random() < 0.4:
                entity = rng.choice([("store:spool",), ("store:quill",), (), ("a:x", "b:x")])
                mentions.append(
                    Mention("s", at, at + len(word), word, entity, "name", rng.random() < 0.2)
                )
            parts.append(word + " ")
            at += len(word) + 1
        gap = rng.choice(GAPS)
        parts.append(gap)
        spans.append((start, at))
        at += len(gap)
    return "".join(parts), spans, mentions


@pytest.mark.parametrize("seed", range(150))
def test_the_index_finds_what_walking_the_list_finds(seed: int) -> None:
    rng = random.Random(seed)
    text, spans, mentions = _document(rng)
    earlier: list[Mention] = []
    for start, end in spans:
        sentence = text[start:end]
        inside = [m for m in mentions if start <= m.start < end]
        if rng.random() < 0.1:  # a mention after the sentence (the list read as it is)
            earlier.append(Mention("s", end + 5, end + 9, "quill", ("store:quill",), "name"))
        args = ("s", start, sentence, inside, earlier, text)
        assert paragraph_terms(*args) == _walked(*args)
        chunk = list(inside)
        if rng.random() < 0.3:
            rng.shuffle(chunk)  # binder order need not be document order
        earlier.extend(m for m in chunk if not m.reference)


def test_a_long_paragraph_is_read_in_linear_time() -> None:
    lines = [f"Spools go to the quill and the vellum at {i}." for i in range(3000)]
    text = "\n".join(lines)
    earlier: list[Mention] = []
    offset = 0
    begun = time.process_time()
    for line in lines:
        mentions = [
            Mention("s", offset + 17, offset + 22, "quill", ("store:quill",), "name"),
            Mention("s", offset + 31, offset + 37, "vellum", ("store:vellum",), "name"),
        ]
        paragraph_terms("s", offset, line, mentions, earlier, text)
        earlier.extend(mentions)
        offset += len(line) + 1
    assert time.process_time() - begun < 2  # walking back: minutes
