"""Sentence splitting with exact character spans.

Every sentence is a slice of the document text, never a rewrite: the spans are
what citations point at. Blank lines, list items, headings, table rows and
fenced code lines are hard boundaries, and so is each line of a diagram
(Mermaid, PlantUML, Graphviz; fenced or in a reStructuredText directive), never
cut inside; a single line break inside a paragraph is not (Markdown wraps
lines). Chinese terminators (。！？；) end a sentence without needing a
following space, and the full-width quotes and brackets after them stay with
it; in mixed text a Latin '.', '!' or '?' ends a sentence
when a Chinese character follows. Chinese list markers ("1、", "二、", "（3）")
open list items like "1." does. Over-long runs are cut at a space or at
Chinese punctuation (Chinese has no spaces).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zehn.corpus.model import Chunk, Sentence
from zehn.reading.diagrams.syntax import diagram_line_starts
from zehn.reading.scripts import CJK

DEFAULT_MAX_SENTENCE_CHARS = 1000
DEFAULT_CHUNK_CHARS = 1200

_CJK_LIST = r"\d{1,3}、|[一二三四五六七八九十]{1,3}、|（\d{1,3}）"
_BLOCK_START = re.compile(rf"^\s*(?:[-*+•]\s|\d{{1,3}}[.)]\s|>|{_CJK_LIST})")
_SINGLE_LINE = re.compile(r"^\s*(?:#{1,6}\s|\|)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LEADING_MARKER = re.compile(rf"(?:\s*(?:[-*+•]|\d{{1,3}}[.)]|#{{1,6}}|>+|\||{_CJK_LIST})\s*)+")
_HAS_WORD = re.compile(r"\w")
# "… search-api. origin-mapper affects indexer.": an identifier may start a sentence.
_CODE_LIKE_START = re.compile(r"[a-z][a-z0-9]*[-_][a-z0-9]")
_ABBREVIATIONS = frozenset(
    {
        "e.g", "i.e", "etc", "vs", "cf", "approx", "dept", "est", "fig", "inc", "ltd",
        "mr", "mrs", "ms", "dr", "jr", "sr", "st", "no", "nr", "resp",
    }
)  # fmt: skip
_CJK_TERMINATORS = "。！？；"
_LATIN_TERMINATORS = ".!?"
_TERMINATOR = re.compile(f"[{re.escape(_CJK_TERMINATORS + _LATIN_TERMINATORS)}]")
_CLOSERS = "\"'”’」』）》】)]"
_CJK_OPENERS = "“‘「『（《【"
_SOFT_BREAKS = " ，、：,"  # where an over-long run may be cut


def split_sentences(
    doc_id: str, text: str, *, max_chars: int = DEFAULT_MAX_SENTENCE_CHARS
) -> list[Sentence]:
    """Split ``text`` into sentences whose spans slice ``text`` exactly."""
    sentences: list[Sentence] = []
    diagram = diagram_line_starts(text)
    for block_start, block_end in _blocks(text, diagram):
        # a diagram line is one statement: never cut at a '.', never stripped of a marker
        atomic = block_start in diagram
        spans = (
            [(block_start, block_end)] if atomic else _sentences_in(text, block_start, block_end)
        )
        for start, end in spans:
            for piece_start, piece_end in _cap_length(text, start, end, max_chars):
                trimmed = (
                    _trim_line(text, piece_start, piece_end)
                    if atomic
                    else _trim(text, piece_start, piece_end)
                )
                if trimmed is None:
                    continue
                s, e = trimmed
                sentences.append(Sentence(doc_id=doc_id, text=text[s:e], start=s, end=e))
    return sentences


def chunk_sentences(
    doc_id: str, sentences: list[Sentence], *, max_chars: int = DEFAULT_CHUNK_CHARS
) -> tuple[list[Chunk], list[Sentence]]:
    """Group consecutive sentences into chunks of at most ``max_chars`` (one sentence minimum).

    Returns the chunks and the sentences re-stamped with their chunk ordinal.
    """
    chunks: list[Chunk] = []
    stamped: list[Sentence] = []
    first: Sentence | None = None
    last: Sentence | None = None
    for sentence in sentences:
        if first is not None and last is not None and sentence.end - first.start > max_chars:
            chunks.append(Chunk(doc_id, len(chunks), first.start, last.end))
            first = None
        if first is None:
            first = sentence
        last = sentence
        stamped.append(
            Sentence(sentence.doc_id, sentence.text, sentence.start, sentence.end, len(chunks))
        )
    if first is not None and last is not None:
        chunks.append(Chunk(doc_id, len(chunks), first.start, last.end))
    return chunks, stamped


def _blocks(text: str, diagram: frozenset[int] = frozenset()) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of paragraphs and other hard-bounded blocks.

    Headings, table rows, fenced code lines and diagram lines (``diagram``: their
    starts, e.g. an indented ``.. graphviz::`` body) stand alone; a list item or
    quote starts a new block that its wrapped continuation lines extend.
    """
    block_start: int | None = None
    in_fence = False
    position = 0
    for line in text.splitlines(keepends=True):
        line_start, position = position, position + len(line)
        stripped = line.strip()
        is_fence = bool(_FENCE.match(line))
        single = in_fence or is_fence or line_start in diagram or bool(_SINGLE_LINE.match(line))
        opens = not single and bool(_BLOCK_START.match(line))
        if is_fence:
            in_fence = not in_fence
        if (not stripped or single or opens) and block_start is not None:
            yield block_start, line_start
            block_start = None
        if not stripped:
            continue
        if single:
            yield line_start, position
        elif block_start is None:
            block_start = line_start
    if block_start is not None:
        yield block_start, len(text)


def _sentences_in(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Sentence spans of one block: cut after a terminator that ends a sentence. The regex
    jumps from one terminator to the next (a loop over every character cost half a second
    of a 45,000-sentence ingest)."""
    sentence_start = start
    i = start
    while (found := _TERMINATOR.search(text, i, end)) is not None:
        i = found.start()
        if text[i] in _CJK_TERMINATORS or _ends_latin_sentence(text, i, end):
            stop = _skip_closers(text, i + 1, end)
            yield sentence_start, stop
            sentence_start = i = stop
            continue
        i += 1
    if sentence_start < end:
        yield sentence_start, end


def _skip_closers(text: str, i: int, end: int) -> int:
    while i < end and (text[i] in _CLOSERS or text[i] in _LATIN_TERMINATORS):
        i += 1
    return i


def _ends_latin_sentence(text: str, i: int, end: int) -> bool:
    """A '.', '!' or '?' ends a sentence when whitespace and a plausible start follow."""
    after = _skip_closers(text, i + 1, end)
    if after >= end:
        return True
    if not text[after].isspace() and not _starts_chinese(text, after, i):
        return False
    j = after
    while j < end and text[j].isspace():
        j += 1
    if j >= end:
        return True
    following = text[j]
    starts_sentence = (
        following.isupper()
        or following.isdigit()
        or following in "\"'“‘([`*_"
        or following in _CJK_OPENERS
        or bool(CJK.match(following))
    )
    if not starts_sentence and not _CODE_LIKE_START.match(text, j, end):
        return False
    if text[i] == ".":
        word = re.search(r"([A-Za-z.]+)$", text[max(0, i - 12) : i])
        if word and word.group(1).lower().strip(".") in _ABBREVIATIONS:
            return False
        if word and len(word.group(1)) == 1 and word.group(1).isupper():
            return False  # an initial: "J. Smith"
    return True


def _starts_chinese(text: str, after: int, stop: int) -> bool:
    """ "… search-api.然后 …": a Chinese character right after '.', '!' or '?' (not "v2.1")."""
    return bool(CJK.match(text, after)) and not text[stop - 1 : stop].isdigit()


def _cap_length(text: str, start: int, end: int, max_chars: int) -> Iterator[tuple[int, int]]:
    """Cut pathological run-on spans (tables, minified text) at a space or Chinese comma."""
    while end - start > max_chars:
        low, high = start + max_chars // 2, start + max_chars
        cut = max(text.rfind(c, low, high) for c in _SOFT_BREAKS)
        if cut <= start:
            cut = start + max_chars
        elif text[cut] != " ":
            cut += 1  # a comma stays with the piece it ends
        yield start, cut
        start = cut
    yield start, end


def _trim_line(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A diagram line without surrounding white space; None when nothing wordy is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end or not _HAS_WORD.search(text, start, end):
        return None
    return start, end


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Drop surrounding whitespace and list/heading markers; None when nothing wordy is left."""
    while start < end and text[start].isspace():
        start += 1
    marker = _LEADING_MARKER.match(text, start, end)
    if marker and marker.end() > start:
        start = marker.end()
    while end > start and text[end - 1].isspace():
        end -= 1
    while end > start and text[end - 1] == "|":
        end -= 1
        while end > start and text[end - 1].isspace():
            end -= 1
    if start >= end or not _HAS_WORD.search(text, start, end):
        return None
    return start, end
