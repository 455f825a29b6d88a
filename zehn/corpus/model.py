"""Documents, chunks and sentences: the provenance every answer cites.

Invariant: ``sentence.text == document.text[sentence.start:sentence.end]``.
Sentence IDs are stable and readable (``<doc id>#<start>-<end>``) so that a
citation can be checked by eye against its source.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType

from zehn.corpus.frozen import computed_once, dict_init


class SourceType(StrEnum):
    """Where a document came from; drives display and staleness rules."""

    CONFLUENCE = "confluence"
    PULL_REQUEST = "pull_request"
    MEETING = "meeting"
    EMAIL = "email"
    TICKET = "ticket"
    TEXT = "text"


# zehn.reading.scripts.CJK_CHARS: this layer cannot import reading (tests/unit/test_scripts.py
# keeps the two equal)
# zehn.reading.scripts.CJK_CHARS: this layer sits below the reader and cannot import it
_CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_SLUG_STRIP = re.compile(rf"[^a-z0-9{_CJK_CHARS}]+")
DOC_ID_PATTERN = re.compile(rf"^[a-z_]+/[A-Za-z0-9._/{_CJK_CHARS}-]+$")


def slugify(text: str, max_length: int = 60) -> str:
    """Lower-case slug for readable IDs ("Indexer Design v2" -> "indexer-design-v2").

    Chinese characters are kept ("推荐平台概览" -> "推荐平台概览"): a Chinese title
    must not collapse to "untitled" and collide with every other Chinese title.
    """
    slug = _SLUG_STRIP.sub("-", text.lower()).strip("-")
    return slug[:max_length].rstrip("-") or "untitled"


def _frozen(mapping: Mapping[str, str] | None) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Document:
    """One source document as plain text plus the metadata users filter by.

    ``attrs`` holds source-specific extras (ticket status, resolution date,
    PR number, Message-ID) as strings.
    """

    id: str
    source_type: SourceType
    title: str
    text: str
    uri: str = ""
    author: str = ""
    created_at: datetime | None = None
    updated_at: datetime | None = None
    attrs: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not DOC_ID_PATTERN.match(self.id):
            raise ValueError(f"document id {self.id!r} must look like 'type/slug'")
        object.__setattr__(self, "attrs", _frozen(self.attrs))

    @property
    def text_sha(self) -> str:
        """SHA-256 of the text: re-ingest skips a document whose text is unchanged."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def date(self) -> datetime | None:
        """The date a reader would quote: last update, else creation."""
        return self.updated_at or self.created_at


@dict_init
@dataclass(frozen=True)
class Sentence:
    """A verbatim span of a document; the unit of citation."""

    doc_id: str
    text: str
    start: int
    end: int
    chunk_ordinal: int = 0

    @computed_once
    def id(self) -> str:
        """Formatted on the first read (extraction reads it several times per sentence)."""
        return sentence_id(self.doc_id, self.start, self.end)


@dataclass(frozen=True)
class Chunk:
    """A run of consecutive sentences (a paragraph or a bounded window)."""

    doc_id: str
    ordinal: int
    start: int
    end: int

    @property
    def id(self) -> str:
        return f"{self.doc_id}#chunk-{self.ordinal}"


def sentence_id(doc_id: str, start: int, end: int) -> str:
    """``confluence/indexer-design#812-901``: document id plus character span."""
    return f"{doc_id}#{start}-{end}"


_SENTENCE_ID = re.compile(r"^(?P<doc>.+)#(?P<start>\d+)-(?P<end>\d+)$")


def parse_sentence_id(value: str) -> tuple[str, int, int]:
    """Inverse of :func:`sentence_id`; raises ``ValueError`` on anything else."""
    match = _SENTENCE_ID.match(value)
    if not match:
        raise ValueError(f"not a sentence id: {value!r}")
    return match["doc"], int(match["start"]), int(match["end"])


Progress = Callable[[int], None]
"""Called with the number of documents just finished."""


@dataclass(frozen=True)
class SourceText:
    """One stored document with its chunks and sentences (spans into ``text``)."""

    doc_id: str
    title: str
    text: str
    chunks: tuple[Chunk, ...]
    sentences: tuple[Sentence, ...]
