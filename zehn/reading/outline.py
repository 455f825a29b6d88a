"""A document's own structure, read from its stored text: path, headings, code, tables.

Discovery needs to know what a page is about and where names are marked, but a stored
``SourceText`` carries only its id, title, text and sentences. Everything here is derived
from those: the file path from the text loaders' document id (``doc/<slug of each path
part>``), headings from the Markdown ``#`` or reStructuredText underline around a sentence,
fenced and indented code blocks, and Markdown tables.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from zehn.corpus.model import SourceText

_EXTENSION = re.compile(r"-(?:md|markdown|rst|txt|adoc|html?)$")
# index pages stand for their folder: ".../cart/index.md" is about "cart"
_FOLDER_PAGES = frozenset({"index", "readme", "_index", "main", "home"})
_ATX_PREFIX = re.compile(r"[^\S\n]*#{1,6}[^\S\n]*")
_UNDERLINE = re.compile(r"[=\-~^\"'*+#.`:_]{3,}")
_FENCE = re.compile(r"^[^\S\n]*(```|~~~)", re.MULTILINE)
_LITERAL_START = re.compile(r"(?:^[^\S\n]*\.\.[^\S\n]+(?:code-block|code|sourcecode)::.*|::)$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
MAX_HEADING_CHARS = 120
_FAR = 1 << 62


def path_parts(doc_id: str) -> tuple[str, ...]:
    """The slugged file path of a text document, extension dropped; () for other sources.

    ``doc/opentelemetry-io/content/services/checkout-md`` ->
    ``("opentelemetry-io", "content", "services", "checkout")``. The real path (with its case
    and underscores) is kept on the stored document as ``attr_path`` but is not part of a
    ``SourceText``; the slug is what extraction can see.
    """
    if not doc_id.startswith("doc/"):
        return ()
    parts = [p for p in doc_id[4:].split("/") if p]
    if parts:
        parts[-1] = _EXTENSION.sub("", parts[-1])
    return tuple(parts)


def path_subject(doc_id: str) -> tuple[str, tuple[str, ...]] | None:
    """The path part a page is about and the folders above it.

    ``…/services/checkout`` -> ("checkout", (…, "services")); an index or README page stands
    for its folder (``…/cart/index`` -> ("cart", (…,))).
    """
    parts = list(path_parts(doc_id))
    if parts and parts[-1] in _FOLDER_PAGES:
        parts.pop()
    if not parts:
        return None
    return parts[-1], tuple(parts[:-1])


@dataclass(frozen=True)
class Heading:
    """A heading's words (document offsets, underline or ``#`` excluded) and its text."""

    start: int
    end: int
    text: str


def headings(document: SourceText) -> list[Heading]:
    """Every heading of ``document``: Markdown ``#`` lines, reStructuredText titles (a line
    over an underline of punctuation), and the title line the loader puts first."""
    text = document.text
    found: list[Heading] = []
    title = " ".join(document.title.split())
    for index, sentence in enumerate(document.sentences):
        heading = _heading(text, sentence.start, sentence.end)
        if heading is None and index == 0 and " ".join(sentence.text.split()) == title:
            heading = Heading(sentence.start, sentence.end, sentence.text)
        if heading is not None:
            found.append(heading)
    return found


def _heading(text: str, start: int, end: int) -> Heading | None:
    line_start = text.rfind("\n", 0, start) + 1
    if _ATX_PREFIX.fullmatch(text[line_start:start]) and "#" in text[line_start:start]:
        return Heading(start, end, text[start:end]) if end - start <= MAX_HEADING_CHARS else None
    lines = text[start:end].split("\n")
    if len(lines) >= 2 and _UNDERLINE.fullmatch(lines[-1].strip()):
        words = "\n".join(lines[:-1]).rstrip()
        if words and len(words) <= MAX_HEADING_CHARS and "\n" not in words:
            return Heading(start, start + len(words), words)
    return None


def code_spans(text: str) -> list[tuple[int, int]]:
    """Spans of fenced code (```` ``` ````, ``~~~``, diagrams included) and of indented
    reStructuredText literal blocks (after ``::`` or a ``code-block`` directive). Discovery,
    proper names and binding each ask for a document's spans: found once per text."""
    return list(_code_spans(text))


@lru_cache(maxsize=1024)
def _code_spans(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    fences = list(_FENCE.finditer(text))
    i = 0
    while i < len(fences):
        opening = fences[i]
        closing = next((f for f in fences[i + 1 :] if f.group(1) == opening.group(1)), None)
        end = len(text) if closing is None else text.find("\n", closing.end())
        spans.append((opening.start(), len(text) if end < 0 else end))
        i = len(fences) if closing is None else fences.index(closing) + 1
    spans.extend(_literal_blocks(text))
    return tuple(sorted(spans))


def _literal_blocks(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    i = 0
    while i < len(lines):
        if not _LITERAL_START.search(lines[i].rstrip()):
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        first = j
        while j < len(lines) and (
            not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent
        ):
            j += 1
        if j > first:
            spans.append((offsets[first], offsets[j] - 1))
        i = max(j, i + 1)
    return spans


def inside(spans: Sequence[tuple[int, int]], position: int) -> bool:
    """Whether ``position`` falls in one of the sorted, non-overlapping ``spans``."""
    at = bisect_right(spans, (position, _FAR)) - 1
    return at >= 0 and spans[at][0] <= position < spans[at][1]


@dataclass(frozen=True)
class Cell:
    """One table cell: its text without surrounding spaces, and its document offsets."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Table:
    """A Markdown table: the header cells and each body row's cells."""

    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]


def tables(text: str) -> list[Table]:
    """Markdown tables (a header row, a ``---|---`` rule, then rows) in ``text``."""
    found: list[Table] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    i = 1
    while i < len(lines):
        if "|" in lines[i - 1] and "-" in lines[i] and _TABLE_RULE.match(lines[i]):
            header = _cells(lines[i - 1], offsets[i - 1])
            rows: list[tuple[Cell, ...]] = []
            j = i + 1
            while j < len(lines) and "|" in lines[j]:
                rows.append(_cells(lines[j], offsets[j]))
                j += 1
            found.append(Table(header, tuple(rows)))
            i = j + 1
        else:
            i += 1
    return found


def _cells(line: str, offset: int) -> tuple[Cell, ...]:
    cells: list[Cell] = []
    start = 0
    body = line
    if body.lstrip().startswith("|"):
        start = body.index("|") + 1
    for match in re.finditer(r"[^|]+", body[start:]):
        raw = match.group()
        if not raw.strip():
            continue
        lead = len(raw) - len(raw.lstrip())
        s = offset + start + match.start() + lead
        cells.append(Cell(raw.strip(), s, s + len(raw.strip())))
    return tuple(cells)
