"""Helpers every loader shares: bounded reads, strict decoding, dates, HTML flattening.

Loaders must hand the splitter faithful plain text, so decoding is strict (a
guessed charset would put words in a source's mouth) and markup is flattened
into paragraphs joined by a blank line, never reworded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from zehn.corpus.dates import parse_date
from zehn.corpus.loaders.markup import (
    BLANK_LINES,
    code_lines,
    collapse,
    flatten,
    html_to_paragraphs,
    normalize_newlines,
    parse_html,
)
from zehn.corpus.loaders.residue import strip_residue
from zehn.corpus.model import Document, SourceType
from zehn.errors import EmptySource, EncodingError, MalformedSource, SourceError

__all__ = [
    "MAX_SOURCE_BYTES",
    "Loader",
    "as_str",
    "as_text",
    "clean_lines",
    "code_lines",
    "collapse",
    "compose",
    "decode_utf8",
    "dig",
    "flatten",
    "html_to_paragraphs",
    "join_paragraphs",
    "json_head",
    "normalize_newlines",
    "parse_date",
    "parse_html",
    "parse_json",
    "read_bytes",
    "read_text",
    "relative_path",
    "require_text",
    "split_paragraphs",
    "strip_residue",
]

MAX_SOURCE_BYTES = 20 * 1024 * 1024
PARAGRAPH_SEP = "\n\n"

_BOM = b"\xef\xbb\xbf"


class Loader(Protocol):
    """One source format: cheap recognition, then full conversion to documents."""

    source_type: SourceType

    def accepts(self, path: Path, head: bytes) -> bool:
        """Whether this loader takes ``path`` (relative to the corpus root); ``head``: its bytes."""
        ...

    def load(self, path: Path, root: Path) -> list[Document]:
        """Documents from ``path``; ids derive from its place under ``root``."""
        ...


def read_bytes(path: Path) -> bytes:
    """The file's bytes, refusing oversized files before reading them."""
    try:
        size = path.stat().st_size
        if size > MAX_SOURCE_BYTES:
            raise SourceError(path, f"file is {size} bytes, over the {MAX_SOURCE_BYTES} limit")
        return path.read_bytes()
    except OSError as e:
        raise SourceError(path, f"cannot read file: {e.strerror or e}") from e


def decode_utf8(data: bytes, path: Path) -> str:
    """Strict UTF-8 (BOM tolerated) with ``\\n`` line endings."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise EncodingError(path, f"not valid UTF-8 at byte {e.start}") from e
    return normalize_newlines(text)


def read_text(path: Path) -> str:
    """Read, decode and refuse text-free files in one step."""
    text = decode_utf8(read_bytes(path), path)
    require_text(text, path)
    return text


def require_text(text: str, path: Path, what: str = "file") -> None:
    """Raise ``EmptySource`` when ``text`` holds nothing but whitespace."""
    if not text.strip():
        raise EmptySource(path, f"{what} holds no text")


def relative_path(path: Path, root: Path) -> str:
    """POSIX path of ``path`` under ``root`` (its name when ``root`` is the file)."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        return path.name
    return rel.as_posix() if rel.parts else path.name


def clean_lines(text: str) -> str:
    """Markdown-ish text kept as written: newlines normalised, outer blank lines trimmed,
    markup residue (style sheets, presentational attributes) removed."""
    lines = [line.rstrip() for line in strip_residue(normalize_newlines(text)).split("\n")]
    return "\n".join(lines).strip("\n")


def split_paragraphs(text: str) -> list[str]:
    """Paragraphs of plain text: runs of lines between blank (or whitespace-only) lines."""
    cleaned = clean_lines(text)
    return [part for part in BLANK_LINES.split(cleaned) if part.strip()]


def join_paragraphs(paragraphs: Iterable[str]) -> str:
    """Join non-empty paragraphs with the blank line the splitter treats as a hard break."""
    return PARAGRAPH_SEP.join(p.strip("\n") for p in paragraphs if p.strip())


def compose(title: str, body: str) -> str:
    """Title as first paragraph, unless the body already opens with it (``# Title``)."""
    body = body.strip("\n")
    first_line = body.split("\n", 1)[0].strip()
    if first_line.lstrip("#").strip() == title.strip() and first_line:
        return body
    return join_paragraphs([title.strip(), body])


def parse_json(data: bytes, path: Path) -> object:
    """Decoded JSON, with decode and syntax errors named as source errors."""
    text = decode_utf8(data, path)
    require_text(text, path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        reason = f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}"
        raise MalformedSource(path, reason) from e
    except RecursionError as e:
        raise MalformedSource(path, "JSON nested too deeply to read") from e


@lru_cache(maxsize=2)
def json_head(head: bytes) -> object:
    """Parsed JSON for ``accepts`` checks (cached: several loaders sniff one file), else None."""
    try:
        return json.loads(head.removeprefix(_BOM).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None


def dig(value: object, *keys: str) -> object:
    """``value[k1][k2]...`` through nested dicts, None where any step is missing."""
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def as_str(value: object) -> str:
    """A scalar JSON value as stripped text; '' for None, dicts and lists."""
    if value is None or isinstance(value, dict | list):
        return ""
    return str(value).strip()


def as_text(value: object) -> str:
    """A body field as written (indentation kept); '' when absent or not a string."""
    return value if isinstance(value, str) else as_str(value)
